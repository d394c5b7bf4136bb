// The ShapeMatching scene (reference/include/rigidref/articles/scene_shape_matching.hpp)
// against the article's own page, WorldShapeMatching.js, BodyShapeMatching.js
// and mat2.js, run in Node (data/golden/scene_shape_matching.json,
// data/generate/scene_shape_matching.js). derivations/scenes.md, D-SCENE-6..11.
//  1. The set-up (walls, shapes, inertias, initial state) is bit-identical.
//  2. The wall-only phase (before GJK first reports a hit) is bit-identical,
//     every field of every body at every step, with V8's cos/sin/atan2/**.
//  3. The whole run (our gjk_epa.js ported) is compared too; the first
//     divergence, if any, may not move earlier than recorded below.
//  4. Both models run 500 steps without NaN in float, double, long double and
//     mp50; the reference model never mirrors a body, never throws, and keeps
//     every goal shape congruent to the rest shape within a stated bound.
#include "rigidref/articles/scene_shape_matching.hpp"

#include "support/scene_golden.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace scene_shape_matching_test {

using namespace rigidref;
using namespace rigidref::articles;

namespace scene_golden = rigidref::testing::scene_golden;
using namespace scene_golden;

namespace {

const nlohmann::json& golden() { return scene_golden::golden("scene_shape_matching.json"); }

// The first field of `body` (in golden order) whose bits differ, or "".
std::string first_difference(const sm_body<double>& b, const nlohmann::json& g) {
  return first_field_difference(b.rigid.pos, b.rigid.ang, b.vel, b.ang_vel, g);
}

// Do this step's projectCollision calls (round, pair, hit, EPA normal bits,
// supportEdge sizes) match the JS's? Golden entries: [iter, a, b, 0] or
// [iter, a, b, 1, n.x, n.y, dist, |A points|, |B points|].
bool same_gjk(const std::vector<sm_gjk_call<double>>& calls, const nlohmann::json& step) {
  const nlohmann::json none = nlohmann::json::array();
  const nlohmann::json& g = step.contains("gjk") ? step["gjk"] : none;
  if (g.size() != calls.size()) return false;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    const auto& c = calls[k];
    const auto& e = g[k];
    if (c.iter != e[0].get<int>() || c.a != e[1].get<std::size_t>() || c.b != e[2].get<std::size_t>()) return false;
    if (c.hit != (e[3].get<int>() == 1)) return false;
    if (c.hit && (bits_of(c.n.x) != bits_of(e[4]) || bits_of(c.n.y) != bits_of(e[5]) ||
                  bits_of(c.dist) != bits_of(e[6]) || c.a_points != e[7].get<int>() || c.b_points != e[8].get<int>()))
      return false;
  }
  return true;
}

// The first step where the article model parts from the golden run; 0: it
// never does in the recorded 500 steps. It may only move later, never earlier.
constexpr int kFirstDivergence = 0;

}  // namespace

TEST_CASE("shape matching scene: the golden file is the 500-step run with a wall-only phase", "[golden][scene]") {
  const auto& doc = golden();
  CHECK(doc["steps_requested"].get<int>() == 500);
  CHECK(doc["steps_run"].get<int>() == static_cast<int>(doc["steps"].size()));
  CHECK(doc["stopped"].is_null());  // no "Weird collision" in the page's run
  const int wall_only = doc["phases"]["wall_only_through_step"].get<int>();
  CHECK(wall_only >= 50);  // the bodies fall ~8 m before they can meet
  CHECK(doc["phases"]["first_gjk_hit_step"].get<int>() == wall_only + 1);
  CHECK(doc["scene"]["out_globals_created"].get<bool>());  // lerp's sloppy-mode globals (D-SCENE-8)
}

TEST_CASE("shape matching scene: set-up bit-identical to the page (V8 libm values)", "[golden][scene]") {
  const auto& doc = golden();
  auto table = v8_table(doc);
  const auto s = make_shape_matching_scene<double>(shape_matching_v8_libm(table));
  REQUIRE(s.walls.size() == 2);
  for (std::size_t w = 0; w < 2; ++w) {
    const auto& g = doc["scene"]["walls"][w];
    CHECK(bits_of(s.walls[w].normal.x) == bits_of(g["normal"][0]));
    CHECK(bits_of(s.walls[w].normal.y) == bits_of(g["normal"][1]));
    CHECK(bits_of(s.walls[w].position.x) == bits_of(g["position"][0]));
  }
  REQUIRE(s.bodies.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("body " << i);
    const auto& g = doc["setup"][i];
    CHECK(bits_of(s.bodies[i].mass) == bits_of(g["mass"]));
    CHECK(bits_of(s.bodies[i].inertia) == bits_of(g["inertia"]));
    REQUIRE(s.bodies[i].rigid.shape.size() == g["shape"].size());
    for (std::size_t v = 0; v < g["shape"].size(); ++v) {
      CHECK(bits_of(s.bodies[i].rigid.shape[v].x) == bits_of(g["shape"][v][0]));
      CHECK(bits_of(s.bodies[i].rigid.shape[v].y) == bits_of(g["shape"][v][1]));
    }
    CHECK(first_difference(s.bodies[i], doc["initial"]["bodies"][i]) == "");
  }
  // createPolygonPoints' inertia: R^2 (2 + cos(pi/2)) / 6 = R^2 / 3 up to the page's roundings
  // (a few ulps of 4/3 and 3/4, well below 1e-15).
  CHECK(std::fabs(s.bodies[0].inertia - 4.0 / 3) < 1e-15);
  CHECK(std::fabs(s.bodies[2].inertia - 2.25 / 3) < 1e-15);
  CHECK(table->misses == 0);
}

TEST_CASE("shape matching scene: wall-only phase bit-identical, every field, body and step", "[golden][scene]") {
  const auto& doc = golden();
  auto table = v8_table(doc);
  const int wall_only = doc["phases"]["wall_only_through_step"].get<int>();
  auto s = make_shape_matching_scene<double>(shape_matching_v8_libm(table));
  // No hit in this phase: the same contact calls, and every body bit-identical.
  const int compared = check_steps_bit_identical(
      doc, wall_only, s, [](auto& scene) { world_step(scene); }, same_gjk, first_difference);
  CHECK(compared == 3 * wall_only);
  CHECK(table->misses == 0);  // every cos/sin/atan2 argument was one the JS used
}

TEST_CASE("shape matching scene: the whole run against the golden, and the branches it covers", "[golden][scene]") {
  const auto& doc = golden();
  auto table = v8_table(doc);
  auto s = make_shape_matching_scene<double>(shape_matching_v8_libm(table));
  int gjk_mismatch = 0, collision_steps = 0;
  int edge_edge = 0, a_edge = 0, b_edge = 0, hits = 0, calls = 0;
  const auto [divergence, what] = first_divergence(doc, [&](int k, const nlohmann::json& step) -> std::string {
    try {
      world_step(s);
    } catch (const std::exception& e) {
      return std::string("the port threw: ") + e.what();
    }
    if (gjk_mismatch == 0 && !same_gjk(s.last_gjk, step)) gjk_mismatch = k;
    bool hit = false;
    for (const auto& c : s.last_gjk) {
      ++calls;
      if (!c.hit) continue;
      hit = true;
      ++hits;
      edge_edge += c.a_points + c.b_points == 4;
      a_edge += c.a_points == 2 && c.b_points == 1;
      b_edge += c.a_points == 1 && c.b_points == 2;
    }
    collision_steps += hit;
    CHECK(hit == step["collision"].get<bool>());
    return first_body_difference(s.bodies, step["bodies"], first_difference);
  });
  if (divergence == 0)
    WARN("article model: all " << doc["steps"].size() << " steps bit-identical; " << calls << " projectCollision calls, "
                               << hits << " hits (edge-edge " << edge_edge << ", A edge/B vertex " << a_edge
                               << ", A vertex/B edge " << b_edge << "), " << collision_steps
                               << " steps with a body-body collision; shapeMatch with a mirrored goal: "
                               << s.goals.mirrored << " of " << s.goals.shape_matches);
  else
    WARN("article model: first divergence at step " << divergence << ": " << what);
  CHECK((divergence == 0 || (kFirstDivergence != 0 && divergence >= kFirstDivergence)));
  CHECK((gjk_mismatch == 0 || (divergence != 0 && gjk_mismatch >= divergence)));
  if (divergence == 0) {
    CHECK(table->misses == 0);
    CHECK(hits == doc["gjk_epa"]["gjk_hits"].get<int>());
    CHECK(calls == doc["gjk_epa"]["gjk_calls"].get<int>());
    CHECK(collision_steps == doc["phases"]["steps_with_body_collision"].get<int>());
    // Bit identity covers a branch only if the run takes it.
    CHECK(edge_edge > 0);
    CHECK(a_edge > 0);
    CHECK(b_edge > 0);
  }
}

TEST_CASE("shape matching scene: with glibc's libm the run parts only after V8's values differ", "[golden][scene]") {
  // The C library's cos/sin/atan2/pow, each call checked against V8's
  // recorded value for the same argument: the first step using a differing
  // value must come no later than the first trajectory difference.
  const auto& doc = golden();
  const auto table = v8_table(doc);
  auto state = std::make_shared<std::pair<int, int>>(0, 0);  // current step (0 = set-up), first differing step
  auto note = [state](bool differs) {
    if (differs && state->second == 0) state->second = std::max(state->first, 1);
  };
  auto v8_differs = [](const auto& m, const auto& key, double r) {
    const auto it = m.find(key);
    return it != m.end() && std::bit_cast<double>(it->second) != r;
  };
  shape_matching_libm<double> l;
  l.cos = [=](const double& x) { const double r = std::cos(x); note(v8_differs(table->cos, bits_of(x), r)); return r; };
  l.sin = [=](const double& x) { const double r = std::sin(x); note(v8_differs(table->sin, bits_of(x), r)); return r; };
  l.atan2 = [=](const double& y, const double& x) {
    const double r = std::atan2(y, x);
    note(v8_differs(table->atan2, std::pair{bits_of(y), bits_of(x)}, r));
    return r;
  };
  l.pow3 = [=](const double& x) { const double r = std::pow(x, 3); note(v8_differs(table->pow3, bits_of(x), r)); return r; };
  auto s = make_shape_matching_scene<double>(l);
  const int first_div = first_divergence(doc, [&](int k, const nlohmann::json& step) {
                          state->first = k;
                          world_step(s);
                          return first_body_difference(s.bodies, step["bodies"], first_difference);
                        }).step;
  WARN("glibc libm: first use of a value differing from V8's at step (1 = set-up or step 1) " << state->second
       << ", first trajectory difference at step " << first_div);
  if (first_div != 0) {
    CHECK(state->second != 0);
    CHECK(state->second <= first_div);
  }
}

TEST_CASE("shape matching scene: free fall is the predicted position, (S2) of D-SCENE-5", "[golden][scene]") {
  // Body 1 (radius 1, at (-12, 14), at rest) falls alone for its first 60
  // steps: its lowest vertex needs ~68 steps to reach the left wall, so
  // nothing but the prediction moves it, and v = (x - x_old)/dt gives back
  // the semi-implicit Euler velocity (D-SCENE-6).
  // Rounding bound: each step rounds y (|y| < 16: half an ulp is
  // d = 2^-50) and v = (y - y_old)/dt is then off by up to 2d/dt; an error
  // in v at step j moves every later y, so after k steps
  // |v error| <= k 2d/dt and |y error| <= sum_j (2 (k - j) + 1) d <= k(k + 1) d.
  const auto& doc = golden();
  const long double g = 9.8L, dt = 0.02L, y0 = 14, d = std::ldexp(1.0L, -50);
  for (int k = 1; k <= 60; ++k) {
    const auto& b = doc["steps"][static_cast<std::size_t>(k - 1)]["bodies"][1];
    INFO("step " << k);
    CHECK(from_hex(b["pos"][0]) == -12.0);
    CHECK(from_hex(b["ang"]) == 0.0);
    CHECK(from_hex(b["angVel"]) == 0.0);
    const long double v = from_hex(b["vel"][1]), y = from_hex(b["pos"][1]);
    CHECK(std::fabs(v - (-k * g * dt)) <= k * 2 * d / dt);
    CHECK(std::fabs(y - (y0 - g * dt * dt * k * (k + 1) / 2)) <= k * (k + 1) * d);
  }
}

TEST_CASE("shape matching scene: gravityBias = irelax would change the run (the flag is live)", "[scene]") {
  const auto& doc = golden();
  auto table = v8_table(doc);
  auto s = make_shape_matching_scene<double>(shape_matching_v8_libm(table));
  s.gravity_bias_from_irelax = true;
  const int first = first_divergence(doc, [&](int, const nlohmann::json& step) {
                      world_step(s);
                      return first_body_difference(s.bodies, step["bodies"], first_difference);
                    }).step;
  // Identical until a pair meets in round irelax >= 1, then not.
  CHECK(first > doc["phases"]["wall_only_through_step"].get<int>());
}

TEST_CASE("shape matching scene: the reference model parts from the golden run at the first contact", "[golden][scene]") {
  // Same step, other components (D-SCENE-10): rigidref::shape_match's goals
  // are rounded once from the accumulator, the article's go through mat2sqrt
  // and mat2inv, so the two part in the last bits at the first shapeMatch
  // with a collisionShape, i.e. at the first wall contact; before it they
  // run the same operations.
  const auto& doc = golden();
  auto table = v8_table(doc);
  auto s = make_shape_matching_scene<double>(shape_matching_v8_libm(table), shape_matching_model::reference);
  const auto [first, what] = first_divergence(doc, [&](int, const nlohmann::json& step) {
    world_step(s);
    return first_body_difference(s.bodies, step["bodies"], first_difference);
  });
  WARN("reference model: identical to the golden run through step " << first - 1 << " (first wall contact at step "
                                                                     << s.first_wall_contact_step << "); at step "
                                                                     << first << ": " << what);
  REQUIRE(s.first_wall_contact_step > 0);
  CHECK(first >= s.first_wall_contact_step);
}

TEST_CASE("shape matching scene: snapshot of the set-up (scene_state.hpp)", "[scene]") {
  // Built from a Force Based scene_libm (the C library's), as a driver holding one would.
  const auto s = make_shape_matching_scene<double>(shape_matching_libm_from(scene_libm<double>{}));
  const scene_snapshot<double> snap = snapshot(s);
  CHECK(snap.step == 0);
  REQUIRE(snap.bodies.size() == 3);
  REQUIRE(snap.walls.size() == 2);
  // Walls through the origin with unit normals (-sin a, cos a), a = -0.3, 0.5.
  CHECK(std::fabs(snap.walls[0].normal.x - std::sin(0.3)) < 1e-15);
  CHECK(std::fabs(snap.walls[1].normal.y - std::cos(0.5)) < 1e-15);
  // I = m r^2 / 3 (D-SCENE-6), vertices at distance r from pos. Bounds: a
  // few roundings of numbers below 2 (inertia: 1e-15 is ~4 ulps of 4/3), of
  // coordinates below 16 (vertices: ulp(14) = 1.8e-15, a few of them), and
  // of a sum near 414 (energy: ulp = 5.7e-14, 1e-12 allows ~17).
  const double radius[] = {2, 1, 1.5};
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("body " << i);
    CHECK(std::fabs(snap.bodies[i].inertia - radius[i] * radius[i] / 3) < 1e-15);
    REQUIRE(snap.bodies[i].world_shape.size() == 4);
    for (const auto& p : snap.bodies[i].world_shape)
      CHECK(std::fabs(std::hypot(p.x - snap.bodies[i].pos.x, p.y - snap.bodies[i].pos.y) - radius[i]) < 1e-14);
  }
  // E = sum m g y + 1/2 m v^2 = 3 * 9.8 * 14 + 1/2 * 2^2 = 413.6 J.
  CHECK(std::fabs(scene_energy(snap, 9.8) - 413.6) < 1e-12);
}

TEST_CASE("shape matching scene: a mirrored collisionShape mirrors the article's body, not the reference's",
          "[scene]") {
  // D-SCENE-10: give body 0 a collisionShape that is its worldShape
  // reflected in the line x = pos.x, vertex for vertex (a body pushed
  // through itself). det Apq < 0: the article's Apq (Apq^T Apq)^(-1/2) is
  // that reflection and its goals keep the mirror image; the closest proper
  // rotation cannot mirror. (For a square every rotation fits a reflection
  // equally well in exact arithmetic; rigidref::shape_match then picks the
  // one the rounding of the worldShape favours, a proper rotation.)
  for (const auto model : {shape_matching_model::article, shape_matching_model::reference}) {
    const bool article = model == shape_matching_model::article;
    INFO((article ? "article" : "reference"));
    auto s = make_shape_matching_scene<double>({}, model);
    auto& body = s.bodies[0];
    const auto world = sm_world_shape(s, body);
    std::vector<vec2<double>> mirrored;
    for (const auto& p : world) mirrored.push_back({2 * body.rigid.pos.x - p.x, p.y});
    body.collision = mirrored;
    sm_shape_match(s, body);
    REQUIRE(s.goals.shape_matches == 1);
    REQUIRE(body.collision.has_value());
    // Orientation of the goal polygon against the rest shape's (exact predicate).
    const auto& g = *body.collision;
    const bool flipped = orientation(g[0], g[1], g[2]) != orientation(world[0], world[1], world[2]);
    CHECK(flipped == article);
    CHECK(s.goals.mirrored == (article ? 1 : 0));
    // Either way the goals are congruent to the rest shape (a reflection
    // preserves distances too); the bound is the one of the 500-step runs.
    CHECK(s.goals.max_distance_error_ulps <= 16);
  }
}

namespace {

template <class T>
struct run_summary {
  bool finite = true;
  int first_nonfinite_step = 0;
  std::string threw;
  sm_goal_stats<T> goals{};
  long vertex_vertex = 0;
  long hits = 0;
  T energy_end{0};
  T max_speed_last_50{0};
  T min_y{0};
  scene_snapshot<T> last{};
};

// 500 steps of one model in T with the C library's libm.
template <class T>
run_summary<T> run_model(shape_matching_model model) {
  using std::sqrt;
  run_summary<T> out;
  auto s = make_shape_matching_scene<T>({}, model);
  const T g = s.k.g;
  out.min_y = T(100);
  for (int k = 1; k <= 500; ++k) {
    try {
      world_step(s);
    } catch (const std::exception& e) {
      out.threw = "step " + std::to_string(k) + ": " + e.what();
      break;
    }
    for (const auto& c : s.last_gjk) out.hits += c.hit;
    const scene_snapshot<T> snap = snapshot(s);
    for (const auto& b : snap.bodies) {
      bool ok = is_finite(b.pos.x) && is_finite(b.pos.y) && is_finite(b.ang) && is_finite(b.vel.x) &&
                is_finite(b.vel.y) && is_finite(b.ang_vel);
      for (const auto& p : b.world_shape) ok = ok && is_finite(p.x) && is_finite(p.y);
      if (!ok && out.finite) {
        out.finite = false;
        out.first_nonfinite_step = k;
      }
      if (k > 450) out.max_speed_last_50 = std::max(out.max_speed_last_50, T(sqrt(T(dot(b.vel, b.vel)))));
      for (const auto& p : b.world_shape) out.min_y = std::min(out.min_y, p.y);
    }
    if (k == 500) {
      out.energy_end = scene_energy(snap, g);
      out.last = snap;
    }
  }
  out.goals = s.goals;
  out.vertex_vertex = s.vertex_vertex_contacts;
  return out;
}

// Both models in T; one instantiation of the scene per type.
template <class T>
void check_type(const char* name, bool is_double) {
  const run_summary<T> art = run_model<T>(shape_matching_model::article);
  const run_summary<T> ref = run_model<T>(shape_matching_model::reference);
  INFO(name);
  INFO("article: " << art.threw << "; reference: " << ref.threw);
  CHECK(ref.threw.empty());  // D-SCENE-10: never "Weird collision"
  CHECK(ref.finite);
  CHECK(ref.goals.nonfinite == 0);
  CHECK(ref.goals.mirrored == 0);  // the closest PROPER rotation
  CHECK(ref.goals.shape_matches > 0);
  // Goals = R (x - c0) + c rounded once (rigidref::shape_match) from the
  // worldShape (c x - s y + pos, 3 roundings of |coordinates| <= 1 + max|.|):
  // each goal coordinate is within about 4 ulps of max|.| of the rest
  // shape's congruent image, a distance within 8, its evaluation in T adds 3.
  CHECK(ref.goals.max_distance_error_ulps <= T(16));
  // The article model: the run of the page (in double it is the golden run).
  CHECK(art.finite);
  CHECK(art.goals.nonfinite == 0);
  if (is_double) CHECK(art.threw.empty());
  // Both settle in the valley: nothing below the walls' apex by more than
  // a few cm (the walls meet at y = 0), no body left moving fast.
  CHECK(ref.min_y > T(-0.1));
  CHECK(ref.max_speed_last_50 < T(1));
  WARN(name << ": article E(500) = " << static_cast<double>(art.energy_end) << " J, max speed in steps 451-500 "
            << static_cast<double>(art.max_speed_last_50) << " m/s, mirrored goals " << art.goals.mirrored << " of "
            << art.goals.shape_matches << ", goal congruence error <= "
            << static_cast<double>(art.goals.max_distance_error_ulps) << " ulps, lowest vertex y "
            << static_cast<double>(art.min_y) << (art.threw.empty() ? "" : ", threw at " + art.threw)
            << "; reference E(500) = " << static_cast<double>(ref.energy_end) << " J, max speed "
            << static_cast<double>(ref.max_speed_last_50) << " m/s, congruence error <= "
            << static_cast<double>(ref.goals.max_distance_error_ulps) << " ulps, pair hits " << ref.hits
            << ", vertex-vertex " << ref.vertex_vertex << ", lowest vertex y " << static_cast<double>(ref.min_y));
}

}  // namespace

TEST_CASE("shape matching scene: both models, 500 steps, every type: finite, reference never mirrored", "[scene]") {
  check_type<float>("float", false);
  check_type<double>("double", true);
  check_type<long double>("long double", false);
}

TEST_CASE("shape matching scene: both models, 500 steps in mp50", "[scene][mp50]") {
  check_type<mp50>("mp50", false);
}

}  // namespace scene_shape_matching_test
