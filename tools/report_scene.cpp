// JS comparison for the report (report_scene.hpp). The golden steps are
// exact bits of the JS doubles; the C++ port runs in double with V8's libm
// values (bit-identical expected, D-SCENE-2), with glibc's libm, with the
// reference EPA as contact provider, and in mp50 (how far the double JS run
// is from a 50-digit run of the same code).
#include "report_scene.hpp"
#include "scene.hpp"

#include "rigidref/articles/scene_force.hpp"
#include "rigidref/scalar.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
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
scene_comparison compare(const std::string& variant, articles::force_scene<T> s,
                         const std::vector<std::vector<body_state>>& js, int wall_only_through) {
  scene_comparison c;
  c.variant = variant;
  for (std::size_t k = 0; k < js.size(); ++k) {
    try {
      articles::simulate(s);
    } catch (const std::exception& e) {
      c.variant += " (stopped at step " + std::to_string(k + 1) + ": " + e.what() + ")";
      break;
    }
    ++c.steps;
    bool same = true;
    double diff = 0;
    for (std::size_t i = 0; i < js[k].size() && i < s.bodies.size(); ++i) {
      const auto& b = s.bodies[i];
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

}  // namespace

scene_report compare_force_scene(std::ostream& err) {
  scene_report r;
#ifdef RIGIDREF_SOURCE_DIR
  const std::filesystem::path golden = std::filesystem::path(RIGIDREF_SOURCE_DIR) / "data" / "golden" / "scene_force.json";
#else
  const std::filesystem::path golden;
#endif
  if (golden.empty() || !std::filesystem::exists(golden)) {
    r.note = "data/golden/scene_force.json is not next to this binary";
    return r;
  }
  nlohmann::json doc;
  try {
    std::ifstream in(golden);
    doc = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    r.note = std::string("cannot read data/golden/scene_force.json: ") + e.what();
    return r;
  }
  articles::shape_matching_libm<double> v8_all;
  if (!v8_libm(golden.string(), v8_all, err)) {
    r.note = "no V8 libm table in data/golden/scene_force.json";
    return r;
  }
  r.available = true;
  r.wall_only_through = doc.at("phases").at("wall_only_through_step").get<int>();
  r.note = "Node " + doc.at("provenance").value("node_version", std::string("?")) + ", " +
           std::to_string(doc.at("steps").size()) + " steps";
  const auto js = golden_steps(doc);
  using articles::force_contact_provider;
  const articles::scene_libm<double> v8 = articles::force_scene_libm_from(v8_all);
  r.rows.push_back(compare("article port, double, V8's cos/sin, our gjk_epa.js port",
                           articles::make_force_scene<double>(v8), js, r.wall_only_through));
  r.rows.push_back(compare("article port, double, glibc's cos/sin", articles::make_force_scene<double>(), js,
                           r.wall_only_through));
  r.rows.push_back(compare("article port, double, V8's cos/sin, reference EPA (epa.hpp) as contact provider",
                           articles::make_force_scene<double>(v8, force_contact_provider::reference), js,
                           r.wall_only_through));
  r.rows.push_back(compare("article port in mp50 (the same code, 50 digits)", articles::make_force_scene<mp50>(), js,
                           r.wall_only_through));
  return r;
}

}  // namespace rigidref::tools
