// Every scene (force-based, shape-matching) in every model (article,
// reference) behind one face, for `rigidref scene` and the report: step it,
// read its state (scene_state.hpp).
#pragma once

#include "rigidref/articles/scene_force.hpp"
#include "rigidref/errors.hpp"
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

// `libm`: the libm calls of the article's page (V8's values for the golden
// comparison); the reference models use the C library's. Throws
// invalid_input for a scene/model pair that does not exist.
template <class T>
scene_driver<T> make_scene_driver(const std::string& scene, const std::string& model,
                                  articles::scene_libm<T> libm = {}) {
  if (scene == "force-based" && model == "article") {
    auto s = std::make_shared<articles::force_scene<T>>(articles::make_force_scene<T>(std::move(libm)));
    return {[s] { articles::simulate(*s); }, [s] { return articles::snapshot(*s); }};
  }
  throw invalid_input("scene " + scene + " --model " + model + " is not available");
}

}  // namespace rigidref::tools
