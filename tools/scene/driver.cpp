// make_scene_driver for the types the tools run scenes in (scene/driver.hpp
// declares these instantiations extern everywhere else).
#include "scene/driver.hpp"

namespace rigidref::tools {

template scene_driver<float> make_scene_driver(const std::string&, const std::string&,
                                               articles::shape_matching_libm<float>);
template scene_driver<double> make_scene_driver(const std::string&, const std::string&,
                                                articles::shape_matching_libm<double>);
template scene_driver<long double> make_scene_driver(const std::string&, const std::string&,
                                                     articles::shape_matching_libm<long double>);
template scene_driver<mp50> make_scene_driver(const std::string&, const std::string&,
                                              articles::shape_matching_libm<mp50>);

}  // namespace rigidref::tools
