// The Force Based scene (reference/include/rigidref/articles/scene_force.hpp)
// against the article's own page and BodyForce.js, run in Node
// (data/golden/scene_force.json, data/generate/scene_force.js).
//  1. The set-up (shapes, inertias, initial state) is bit-identical.
//  2. The wall-only phase (every step before GJK first reports a hit: it
//     depends on the article code and math.js only) is bit-identical, every
//     field of every body at every step, with V8's cos/sin/** substituted.
//  3. Beyond it (the body phase, which also depends on our gjk_epa.js, ported
//     in scene_force.hpp), the test finds the first step where the port parts
//     from the golden run, prints it, and requires that it has not moved
//     earlier than the step recorded below. Also with rigidref's reference
//     EPA as the contact provider. derivations/scenes.md, D-SCENE-4.
#include "rigidref/articles/scene_force.hpp"
#include "rigidref/articles/scene_shape_matching.hpp"

#include "support/scene_golden.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace scene_force_test {

using namespace rigidref;
using namespace rigidref::articles;

namespace scene_golden = rigidref::testing::scene_golden;
using namespace scene_golden;

namespace {

const nlohmann::json& golden() { return scene_golden::golden("scene_force.json"); }

// V8's Math.cos / Math.sin / ** results recorded by the generator, by
// argument bits (table->misses counts the arguments the JS never saw, which
// fall back to glibc).
scene_libm<double> v8_libm(const std::shared_ptr<v8_libm_table>& table) {
  return force_scene_libm_from(shape_matching_v8_libm(table));
}

// The first field of `body` (in golden order) whose bits differ, or "".
std::string first_difference(const bf_body<double>& b, const nlohmann::json& g) {
  return first_field_difference(b.pos, b.ang, b.vel, b.ang_vel, g);
}

// Does this step's projectCollision record (hit, normal bits) match the JS's?
bool same_gjk(const std::vector<scene_gjk_call<double>>& calls, const nlohmann::json& step) {
  const nlohmann::json none = nlohmann::json::array();
  const nlohmann::json& g = step.contains("gjk") ? step["gjk"] : none;
  if (g.size() != calls.size()) return false;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    if (calls[k].hit != g[k]["hit"].get<bool>()) return false;
    if (calls[k].hit && (std::bit_cast<std::uint64_t>(calls[k].n.x) != bits_of(g[k]["n"][0]) ||
                         std::bit_cast<std::uint64_t>(calls[k].n.y) != bits_of(g[k]["n"][1])))
      return false;
  }
  return true;
}

// Runs the port next to the golden steps; stops at the first step that differs.
divergence run_against_golden(force_contact_provider provider, const std::shared_ptr<v8_libm_table>& table,
                              int* gjk_mismatch_step = nullptr) {
  force_scene<double> s = make_force_scene<double>(v8_libm(table), provider);
  return first_divergence(golden(), [&](int k, const nlohmann::json& step) -> std::string {
    try {
      simulate(s);
    } catch (const std::exception& e) {
      return std::string("the port threw: ") + e.what();
    }
    if (gjk_mismatch_step && *gjk_mismatch_step == 0 && !same_gjk(s.last_gjk, step)) *gjk_mismatch_step = k;
    return first_body_difference(s.bodies, step["bodies"], first_difference);
  });
}

// The first step where the default port (our gjk_epa.js ported) parts from
// the golden run; 0: it never does in the recorded 500 steps. It may only
// move later (a fix), never earlier.
constexpr int kFirstDivergenceJsPort = 0;
// The same with rigidref's reference EPA as the contact provider.
constexpr int kFirstDivergenceReference = 115;

}  // namespace

TEST_CASE("force scene: the golden file is the 500-step run with a wall-only phase", "[golden][scene]") {
  const auto& doc = golden();
  CHECK(doc["steps_requested"].get<int>() == 500);
  CHECK(doc["steps_run"].get<int>() == static_cast<int>(doc["steps"].size()));
  CHECK(doc["stopped"].is_null());
  const int wall_only = doc["phases"]["wall_only_through_step"].get<int>();
  CHECK(wall_only >= 50);  // the bodies fall ~5 m first; a contact earlier would mean a changed scene
  CHECK(doc["phases"]["first_gjk_hit_step"].get<int>() == wall_only + 1);
}

TEST_CASE("force scene: set-up bit-identical to the page (V8 libm values)", "[golden][scene]") {
  const auto& doc = golden();
  const auto table = v8_table(doc);
  const force_scene<double> s = make_force_scene<double>(v8_libm(table));
  REQUIRE(s.bodies.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("body " << i);
    const auto& g = doc["setup"][i];
    CHECK(std::bit_cast<std::uint64_t>(s.bodies[i].mass) == bits_of(g["mass"]));
    CHECK(std::bit_cast<std::uint64_t>(s.bodies[i].inertia) == bits_of(g["inertia"]));
    CHECK(std::bit_cast<std::uint64_t>(1.0 / s.bodies[i].inertia) == bits_of(g["inv_inertia"]));
    REQUIRE(s.bodies[i].shape.size() == g["shape"].size());
    for (std::size_t v = 0; v < g["shape"].size(); ++v) {
      CHECK(std::bit_cast<std::uint64_t>(s.bodies[i].shape[v].x) == bits_of(g["shape"][v][0]));
      CHECK(std::bit_cast<std::uint64_t>(s.bodies[i].shape[v].y) == bits_of(g["shape"][v][1]));
    }
    CHECK(first_difference(s.bodies[i], doc["initial"]["bodies"][i]) == "");
  }
  CHECK(table->misses == 0);
}

TEST_CASE("force scene: wall-only phase bit-identical, every field, body and step", "[golden][scene]") {
  const auto& doc = golden();
  const auto table = v8_table(doc);
  const int wall_only = doc["phases"]["wall_only_through_step"].get<int>();
  force_scene<double> s = make_force_scene<double>(v8_libm(table));
  // No hit in this phase: the same contact calls, and every body bit-identical.
  const int compared = check_steps_bit_identical(
      doc, wall_only, s, [](auto& scene) { simulate(scene); }, same_gjk, first_difference);
  CHECK(compared == 2 * wall_only);
  CHECK(table->misses == 0);  // every cos/sin argument was one the JS used
  WARN("wall-only phase: steps 1.." << wall_only << " bit-identical; V8's cos/sin differ from glibc's on "
                                    << cos_sin_differ_from_libc(*table) << " of the recorded arguments");
}

TEST_CASE("force scene: body phase, the first divergence has not moved earlier", "[golden][scene]") {
  const auto& doc = golden();
  const int steps = static_cast<int>(doc["steps"].size());
  {
    const auto table = v8_table(doc);
    int gjk_step = 0;
    const divergence d = run_against_golden(force_contact_provider::js_port, table, &gjk_step);
    if (d.step == 0)
      WARN("gjk_epa.js port: all " << steps << " steps bit-identical (contacts included)");
    else
      WARN("gjk_epa.js port: first divergence at step " << d.step << ": " << d.what);
    CHECK((d.step == 0 || (kFirstDivergenceJsPort != 0 && d.step >= kFirstDivergenceJsPort)));
    // Contacts seen by the port (hit or not, EPA normal bits) agree with the
    // JS's at least up to the first divergence.
    CHECK((gjk_step == 0 || (d.step != 0 && gjk_step >= d.step)));
    if (d.step == 0) CHECK(table->misses == 0);
  }
  {
    const auto table = v8_table(doc);
    int gjk_step = 0;
    const divergence d = run_against_golden(force_contact_provider::reference, table, &gjk_step);
    if (d.step == 0)
      WARN("reference EPA provider: all " << steps << " steps bit-identical");
    else
      WARN("reference EPA provider: first divergence at step " << d.step << ": " << d.what
                                                                 << "; first contact (hit or normal bits) differing at step "
                                                                 << gjk_step);
    const int wall_only = doc["phases"]["wall_only_through_step"].get<int>();
    CHECK((d.step == 0 || d.step > wall_only));  // the provider is not used before the first contact
    CHECK((d.step == 0 || d.step >= kFirstDivergenceReference));
  }
}

TEST_CASE("force scene: with glibc's cos/sin the run parts only where V8's values differ", "[scene]") {
  const auto& doc = golden();
  const auto table = v8_table(doc);
  // The port with the C library's libm: bit-identical until the first step
  // whose cos/sin arguments include one where glibc and V8 differ.
  force_scene<double> s = make_force_scene<double>();
  int first_libm_step = 0;
  {  // the set-up's own cos/sin/** (walls, polygons): a difference there counts as step 1
    const force_scene<double> v8 = make_force_scene<double>(v8_libm(table));
    bool same = true;
    for (std::size_t w = 0; w < s.walls.size(); ++w) same = same && s.walls[w].normal == v8.walls[w].normal;
    for (std::size_t i = 0; i < s.bodies.size(); ++i)
      same = same && s.bodies[i].inertia == v8.bodies[i].inertia && s.bodies[i].shape == v8.bodies[i].shape;
    if (!same) first_libm_step = 1;
  }
  const int first_div = first_divergence(doc, [&](int k, const nlohmann::json& step) {
                          for (const auto& b : s.bodies) {
                            const auto c = table->cos.find(bits_of(b.ang));
                            const auto sn = table->sin.find(bits_of(b.ang));
                            const bool differs =
                                (c != table->cos.end() && std::bit_cast<double>(c->second) != std::cos(b.ang)) ||
                                (sn != table->sin.end() && std::bit_cast<double>(sn->second) != std::sin(b.ang));
                            if (differs && first_libm_step == 0) first_libm_step = k;
                          }
                          simulate(s);
                          return first_body_difference(s.bodies, step["bodies"], first_difference);
                        }).step;
  WARN("glibc libm: first V8/glibc cos/sin difference used at step (1 = the set-up) "
       << first_libm_step << ", first trajectory difference at step " << first_div);
  // Divergence implies a libm difference at or before it (angles at the
  // start of a step are the ones worldShape uses during that step).
  if (first_div != 0) {
    CHECK(first_libm_step != 0);
    CHECK(first_libm_step <= first_div);
  }
}

TEST_CASE("force scene: free fall follows semi-implicit Euler (S2)-(S4)", "[golden][scene]") {
  // The triangle (body 1) falls from (8, 10) at rest and meets the right wall
  // after about 50 steps; the first 40 are free fall in the golden run.
  // derivations/scenes.md D-SCENE-5: v_k = -k g dt, y_k = y0 - g dt^2 k(k+1)/2,
  // E = v^2/2 + g y drops by g^2 dt^2 / 2 per step, and
  // E_k - g dt v_k / 2 is constant.
  const auto& doc = golden();
  const long double g = 9.8L, dt = 0.02L, y0 = 10;
  long double shadow0 = 0;
  long double e_prev = 0;
  for (int k = 1; k <= 40; ++k) {
    const auto& b = doc["steps"][static_cast<std::size_t>(k - 1)]["bodies"][1];
    INFO("step " << k);
    CHECK(from_hex(b["pos"][0]) == 8.0);
    CHECK(from_hex(b["ang"]) == 0.0);
    CHECK(from_hex(b["angVel"]) == 0.0);
    CHECK(from_hex(b["vel"][0]) == 0.0);
    const long double v = from_hex(b["vel"][1]), y = from_hex(b["pos"][1]);
    CHECK(std::fabs(v - (-k * g * dt)) < 1e-12L);                                   // v_k
    CHECK(std::fabs(y - (y0 - g * dt * dt * k * (k + 1) / 2)) < 1e-12L);            // (S2)
    const long double e = v * v / 2 + g * y;
    if (k > 1) CHECK(std::fabs((e - e_prev) - (-g * g * dt * dt / 2)) < 1e-11L);  // (S3)
    const long double shadow = e - g * dt * v / 2;                                 // (S4)
    if (k == 1) shadow0 = shadow;
    CHECK(std::fabs(shadow - shadow0) < 1e-11L);
    e_prev = e;
  }
  // Not the exact parabola: 50 steps (t = 1 s) leave the body g dt t / 2 = 0.098 m lower.
  const double y50 = from_hex(doc["steps"][49]["bodies"][1]["pos"][1]);
  CHECK(std::fabs(y50 - 5.002) < 1e-12);
}

namespace {

// Runs the CLI through the shell; returns its standard output and exit status.
std::pair<std::string, int> run_cli(const std::string& args) {
  const std::string cmd = std::string("'") + RIGIDREF_BINARY + "' " + args + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = ::pclose(p);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

}  // namespace

TEST_CASE("rigidref scene force-based: JSON Lines, bit for bit the golden run with --js-libm", "[scene][cli]") {
  const auto& doc = golden();
  const std::string golden_file = golden_path("scene_force.json");
  const auto [out, rc] =
      run_cli("scene force-based --model article --steps 500 --precision double --js-libm '" + golden_file + "'");
  REQUIRE(rc == 0);
  std::istringstream lines(out);
  std::string line;
  int k = 0;
  while (std::getline(lines, line)) {
    ++k;
    INFO("step " << k << ": " << line);
    const auto j = nlohmann::json::parse(line);
    REQUIRE(j["step"].get<int>() == k);
    const auto& g = doc["steps"][static_cast<std::size_t>(k - 1)]["bodies"];
    REQUIRE(j["bodies"].size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      const auto& b = j["bodies"][i];
      // The CLI prints the shortest decimal that reads back to the same double.
      CHECK(std::bit_cast<std::uint64_t>(b["pos"][0].get<double>()) == bits_of(g[i]["pos"][0]));
      CHECK(std::bit_cast<std::uint64_t>(b["pos"][1].get<double>()) == bits_of(g[i]["pos"][1]));
      CHECK(std::bit_cast<std::uint64_t>(b["ang"].get<double>()) == bits_of(g[i]["ang"]));
      CHECK(std::bit_cast<std::uint64_t>(b["vel"][0].get<double>()) == bits_of(g[i]["vel"][0]));
      CHECK(std::bit_cast<std::uint64_t>(b["vel"][1].get<double>()) == bits_of(g[i]["vel"][1]));
      CHECK(std::bit_cast<std::uint64_t>(b["angVel"].get<double>()) == bits_of(g[i]["angVel"]));
    }
  }
  CHECK(k == 500);
}

TEST_CASE("rigidref scene: other precisions run, unsupported requests are refused", "[scene][cli]") {
  for (const char* precision : {"float", "'long double'", "mp50"}) {
    INFO(precision);
    const auto [out, rc] = run_cli(std::string("scene force-based --steps 3 --precision ") + precision);
    CHECK(rc == 0);
    CHECK(std::count(out.begin(), out.end(), '\n') == 3);
    if (rc == 0) CHECK(nlohmann::json::parse(out.substr(0, out.find('\n')))["bodies"].size() == 2);
  }
  CHECK(run_cli("scene force-based --model reference --steps 3 --js-libm /dev/null").second == 2);
  CHECK(run_cli("scene force-based --precision exact").second == 2);
  CHECK(run_cli("scene no-such-scene").second == 2);
  CHECK(run_cli("scene force-based --precision float --js-libm /dev/null").second == 2);
}

TEST_CASE("force scene: the bit-identical run goes through every branch of the article code", "[golden][scene]") {
  // Bit identity over 500 steps says something about a branch only if the
  // run takes it. Counted on the port's run with V8's libm (identical to the
  // JS run, test above).
  const auto& doc = golden();
  force_scene<double> s = make_force_scene<double>(v8_libm(v8_table(doc)));
  int wall_touch = 0, wall_impulse = 0, wall_stick = 0, wall_slide = 0, gravity_torque = 0, y_correction = 0;
  int hits = 0, edge_edge = 0, vertex_edge_a = 0, vertex_edge_b = 0, pair_stick = 0, pair_slide = 0;
  for (std::size_t k = 0; k < doc["steps"].size(); ++k) {
    simulate(s);
    for (const auto& body : s.last_walls)
      for (const auto& w : body) {
        wall_touch += w.count > 0;
        wall_impulse += w.impulse;
        wall_stick += w.impulse && w.stick;
        wall_slide += w.impulse && !w.stick;
        gravity_torque += w.count > 0 && !w.impulse;
        y_correction += w.dist_min < 0;
      }
    for (const auto& c : s.last_gjk) {
      if (!c.hit) continue;
      ++hits;
      edge_edge += c.a_points + c.b_points == 4;
      vertex_edge_a += c.a_points == 2 && c.b_points == 1;
      vertex_edge_b += c.a_points == 1 && c.b_points == 2;
      pair_stick += c.impulse.stick;
      pair_slide += !c.impulse.stick;
    }
  }
  WARN("500 steps: wall contacts " << wall_touch << " (impulse " << wall_impulse << ": stick " << wall_stick
                                   << ", slide " << wall_slide << "; 0.5 gravity torque " << gravity_torque
                                   << "), y corrections " << y_correction << "; pair hits " << hits
                                   << " (edge-edge " << edge_edge << ", A edge/B vertex " << vertex_edge_a
                                   << ", A vertex/B edge " << vertex_edge_b << "; stick " << pair_stick
                                   << ", slide " << pair_slide << ")");
  CHECK(hits == doc["gjk_epa"]["gjk_hits"].get<int>());
  CHECK(wall_stick > 0);
  CHECK(wall_slide > 0);
  CHECK(gravity_torque > 0);
  CHECK(y_correction > 0);
  CHECK(edge_edge + vertex_edge_a + vertex_edge_b == hits);
  CHECK(pair_stick > 0);
  CHECK(pair_slide > 0);
}

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("rigidref scene --svg / --energy-svg: the paths and the energy of the run", "[scene][cli]") {
  const std::string dir = std::filesystem::temp_directory_path() / ("rigidref_scene_svg_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto [out, rc] = run_cli("scene force-based --steps 50 --svg-stride 25 --svg '" + dir + "/paths.svg' --energy-svg '" +
                                 dir + "/energy.svg'");
  REQUIRE(rc == 0);
  CHECK(std::count(out.begin(), out.end(), '\n') == 50);  // the JSON Lines are still printed
  const std::string paths = slurp(dir + "/paths.svg"), energy = slurp(dir + "/energy.svg");
  CHECK(paths.rfind("<?xml", 0) == 0);
  CHECK(paths.find("</svg>") != std::string::npos);
  // One centre track per body; outlines at steps 0, 25 and 50 for each of the
  // two bodies, plus one shaded half-plane per wall.
  CHECK(occurrences(paths, "<polyline") == 2);
  CHECK(occurrences(paths, "<polygon") == 2 * 3 + 2);
  // One energy line with a point per step 0..50.
  REQUIRE(occurrences(energy, "<polyline") == 1);
  const auto line = energy.substr(energy.find("<polyline"));
  const auto pts = line.substr(line.find("points=\"") + 8);
  CHECK(occurrences(pts.substr(0, pts.find('"')), ",") == 51);
  // An unwritable path is a usage error, not a silent success.
  CHECK(run_cli("scene force-based --steps 2 --svg /nonexistent-dir/x.svg").second == 2);
  std::filesystem::remove_all(dir);
}

// The CLI's other scene and models (articles/scene_shape_matching.hpp,
// scene_reference.hpp), checked here with the CLI helpers above.
TEST_CASE("rigidref scene shape-matching: JSON Lines, bit for bit the golden run with --js-libm", "[scene][cli]") {
  const std::string file = golden_path("scene_shape_matching.json");
  const auto& doc = scene_golden::golden("scene_shape_matching.json");
  const auto [out, rc] = run_cli("scene shape-matching --model article --steps 500 --js-libm '" + file + "'");
  REQUIRE(rc == 0);
  std::istringstream lines(out);
  std::string line;
  int k = 0, identical = 0;
  while (std::getline(lines, line)) {
    ++k;
    const auto j = nlohmann::json::parse(line);
    const auto& g = doc["steps"][static_cast<std::size_t>(k - 1)]["bodies"];
    REQUIRE(j["bodies"].size() == 3);
    bool same = true;
    for (std::size_t i = 0; i < 3; ++i) {
      const auto& b = j["bodies"][i];
      auto eq = [](const nlohmann::json& mine, const nlohmann::json& theirs) {
        return std::bit_cast<std::uint64_t>(mine.get<double>()) == bits_of(theirs);
      };
      same = same && eq(b["pos"][0], g[i]["pos"][0]) && eq(b["pos"][1], g[i]["pos"][1]) && eq(b["ang"], g[i]["ang"]) &&
             eq(b["vel"][0], g[i]["vel"][0]) && eq(b["vel"][1], g[i]["vel"][1]) && eq(b["angVel"], g[i]["angVel"]);
    }
    identical += same;
  }
  CHECK(k == 500);
  CHECK(identical == 500);
}

TEST_CASE("rigidref scene --model reference: both scenes run in every precision", "[scene][cli]") {
  for (const char* scene : {"force-based", "shape-matching"})
    for (const char* precision : {"float", "double", "'long double'", "mp50"}) {
      INFO(scene << " " << precision);
      const auto [out, rc] =
          run_cli(std::string("scene ") + scene + " --model reference --steps 5 --precision " + precision);
      CHECK(rc == 0);
      CHECK(std::count(out.begin(), out.end(), '\n') == 5);
      if (rc == 0)
        CHECK(nlohmann::json::parse(out.substr(0, out.find('\n')))["bodies"].size() ==
              (std::string(scene) == "force-based" ? 2u : 3u));
    }
  // V8's libm belongs to the article's code in double.
  CHECK(run_cli("scene shape-matching --model reference --js-libm /dev/null").second == 2);
}

}  // namespace scene_force_test
