// Every scene (force-based, shape-matching) in every model (article,
// reference) behind one face, for `rigidref scene` and the report: step it,
// read its state (scene_state.hpp).
#pragma once

#include "rigidref/articles/scene_force.hpp"
#include "rigidref/articles/scene_shape_matching.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scene_reference.hpp"
#include "rigidref/scene_state.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace rigidref::tools {

template <class T>
struct scene_driver {
  std::function<void()> step;                   // one simulate() / world.step()
  std::function<scene_snapshot<T>()> snapshot;  // the state after the last step (step 0: the initial one)
};

// `libm`: the pages' libm calls (cos, sin, atan2, **; V8's values for the
// golden comparisons, the C library's by default). Throws invalid_input for
// a scene/model pair that does not exist.
template <class T>
scene_driver<T> make_scene_driver(const std::string& scene, const std::string& model,
                                  articles::shape_matching_libm<T> libm = {}) {
  if (scene == "force-based" && model == "article") {
    auto s = std::make_shared<articles::force_scene<T>>(
        articles::make_force_scene<T>(articles::force_scene_libm_from(libm)));
    return {[s] { articles::simulate(*s); }, [s] { return articles::snapshot(*s); }};
  }
  if (scene == "force-based" && model == "reference") {  // the C library's libm (no golden to match)
    auto w = std::make_shared<reference_world<T>>(make_force_reference_scene<T>());
    return {[w] { step(*w); }, [w] { return snapshot(*w); }};
  }
  if (scene == "shape-matching" && (model == "article" || model == "reference")) {
    const auto m = model == "article" ? articles::shape_matching_model::article : articles::shape_matching_model::reference;
    auto s = std::make_shared<articles::shape_matching_scene<T>>(
        articles::make_shape_matching_scene<T>(std::move(libm), m));
    return {[s] { articles::world_step(*s); }, [s] { return articles::snapshot(*s); }};
  }
  throw invalid_input("scene " + scene + " --model " + model + " is not available");
}

// Compiled once, in scene/driver.cpp, for the types the tools run scenes in:
// every scene in every model is about 40 s of compiler time in each file
// that would compile it again (scene/scene.cpp, report/scene.cpp,
// report/scene_runs.cpp).
extern template scene_driver<float> make_scene_driver(const std::string&, const std::string&,
                                                      articles::shape_matching_libm<float>);
extern template scene_driver<double> make_scene_driver(const std::string&, const std::string&,
                                                       articles::shape_matching_libm<double>);
extern template scene_driver<long double> make_scene_driver(const std::string&, const std::string&,
                                                            articles::shape_matching_libm<long double>);
extern template scene_driver<mp50> make_scene_driver(const std::string&, const std::string&,
                                                     articles::shape_matching_libm<mp50>);

}  // namespace rigidref::tools
