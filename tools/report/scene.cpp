// JS comparison for the report (report/scene.hpp). The golden steps are
// exact bits of the JS doubles; the C++ port runs in double with V8's libm
// values (bit-identical expected, D-SCENE-2), with glibc's libm, with the
// reference EPA as contact provider, and in mp50 (how far the double JS run
// is from a 50-digit run of the same code).
#include "report/scene.hpp"
#include "scene/scene.hpp"
#include "scene/driver.hpp"

#include "rigidref/articles/scene_force.hpp"
#include "rigidref/scalar.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>

namespace rigidref::tools {
namespace {

struct body_state {
  double px, py, ang, vx, vy, w;
};

double from_bits(const nlohmann::json& j) { return std::bit_cast<double>(std::stoull(j.get<std::string>(), nullptr, 16)); }

std::vector<std::vector<body_state>> golden_steps(const nlohmann::json& doc) {
  std::vector<std::vector<body_state>> steps;
  for (const auto& s : doc.at("steps")) {
    std::vector<body_state> bodies;
    for (const auto& b : s.at("bodies"))
      bodies.push_back({from_bits(b.at("pos")[0]), from_bits(b.at("pos")[1]), from_bits(b.at("ang")),
                        from_bits(b.at("vel")[0]), from_bits(b.at("vel")[1]), from_bits(b.at("angVel"))});
    steps.push_back(std::move(bodies));
  }
  return steps;
}

template <class T>
scene_comparison compare(const std::string& variant, scene_driver<T> d, const std::vector<std::vector<body_state>>& js,
                         int wall_only_through) {
  scene_comparison c;
  c.variant = variant;
  for (std::size_t k = 0; k < js.size(); ++k) {
    try {
      d.step();
    } catch (const std::exception& e) {
      c.variant += " (stopped at step " + std::to_string(k + 1) + ": " + e.what() + ")";
      break;
    }
    ++c.steps;
    const scene_snapshot<T> snap = d.snapshot();
    bool same = true;
    double diff = 0;
    for (std::size_t i = 0; i < js[k].size() && i < snap.bodies.size(); ++i) {
      const auto& b = snap.bodies[i];
      const double mine[] = {static_cast<double>(b.pos.x), static_cast<double>(b.pos.y), static_cast<double>(b.ang),
                             static_cast<double>(b.vel.x), static_cast<double>(b.vel.y),
                             static_cast<double>(b.ang_vel)};
      const double theirs[] = {js[k][i].px, js[k][i].py, js[k][i].ang, js[k][i].vx, js[k][i].vy, js[k][i].w};
      for (int f = 0; f < 6; ++f) {
        // Bit-identical needs T = double; wider types are compared by value.
        if constexpr (std::is_same_v<T, double>) same = same && std::bit_cast<std::uint64_t>(mine[f]) ==
                                                                 std::bit_cast<std::uint64_t>(theirs[f]);
        else same = false;
        diff = std::max(diff, std::abs(mine[f] - theirs[f]));
      }
    }
    if (same) ++c.identical_steps;
    else if (c.first_divergence == 0) c.first_divergence = static_cast<int>(k + 1);
    double& range = static_cast<int>(k + 1) <= wall_only_through ? c.max_diff_wall : c.max_diff_body;
    range = std::max(range, diff);
  }
  return c;
}

// One page's golden run against its C++ port: with V8's libm (bit-identical
// expected), with glibc's, with the reference components, and in mp50.
void compare_scene(scene_report& r, const std::string& scene, const std::string& file, std::ostream& err) {
#ifdef RIGIDREF_SOURCE_DIR
  const std::filesystem::path golden = std::filesystem::path(RIGIDREF_SOURCE_DIR) / "data" / "golden" / file;
#else
  const std::filesystem::path golden;
#endif
  scene_golden g;
  g.scene = scene;
  if (golden.empty() || !std::filesystem::exists(golden)) {
    g.note = "data/golden/" + file + " is not next to this binary";
    r.scenes.push_back(g);
    return;
  }
  nlohmann::json doc;
  articles::shape_matching_libm<double> v8;
  try {
    std::ifstream in(golden);
    doc = nlohmann::json::parse(in);
    v8 = articles::shape_matching_v8_libm(articles::read_v8_libm_table(doc.at("js_libm")));
  } catch (const std::exception& e) {
    g.note = "cannot read data/golden/" + file + ": " + e.what();
    r.scenes.push_back(g);
    (void)err;
    return;
  }
  g.available = true;
  g.wall_only_through = doc.at("phases").at("wall_only_through_step").get<int>();
  g.note = "data/golden/" + file + ", Node " + doc.at("provenance").value("node_version", std::string("?")) + ", " +
           std::to_string(doc.at("steps").size()) + " steps";
  const auto js = golden_steps(doc);
  g.rows.push_back(compare("article port, double, V8's libm", make_scene_driver<double>(scene, "article", v8), js,
                           g.wall_only_through));
  g.rows.push_back(compare("article port, double, glibc's libm", make_scene_driver<double>(scene, "article"), js,
                           g.wall_only_through));
  if (scene == "force-based") {
    auto s = std::make_shared<articles::force_scene<double>>(articles::make_force_scene<double>(
        articles::force_scene_libm_from(v8), articles::force_contact_provider::reference));
    g.rows.push_back(compare("article port, double, V8's libm, reference EPA (epa.hpp) as contact provider",
                             scene_driver<double>{[s] { articles::simulate(*s); }, [s] { return articles::snapshot(*s); }},
                             js, g.wall_only_through));
  } else {
    g.rows.push_back(compare("reference variant (EPA, scale-aware features, proper rotations), double, V8's libm",
                             make_scene_driver<double>(scene, "reference", v8), js, g.wall_only_through));
  }
  g.rows.push_back(compare("article port in mp50 (the same code, 50 digits)", make_scene_driver<mp50>(scene, "article"),
                           js, g.wall_only_through));
  r.scenes.push_back(std::move(g));
}

}  // namespace

scene_report compare_scenes(std::ostream& err) {
  scene_report r;
  compare_scene(r, "force-based", "scene_force.json", err);
  compare_scene(r, "shape-matching", "scene_shape_matching.json", err);
  return r;
}

}  // namespace rigidref::tools
