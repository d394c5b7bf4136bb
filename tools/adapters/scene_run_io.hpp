// scene.run's reading and writing that the C++ adapters (rigidref-box2d,
// rigidref-box2d-v3, rigidref-chipmunk) share: the step count, the recording
// interval, the list of bodies, and the frames of the answer. Each adapter
// reads its bodies and builds its world itself (as its step.pair does).
#pragma once

#include <rigidref/protocol/adapter_io.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace rigidref::adapters {

using namespace rigidref::protocol;

// Limits of one request (as the reference's, rigidref/scene_run.hpp).
inline constexpr long scene_max_steps = 100000;
inline constexpr std::size_t scene_max_bodies = 1000;

// An integral JSON number (120 or 120.0) from lo to hi; `fallback` when the
// field is absent and fallback >= lo.
inline long integer_field(const ojson& line, const char* field, long fallback, long lo, long hi) {
  const std::string expected = std::string(field) + ": expected an integer from " + std::to_string(lo) + " to " +
                               std::to_string(hi);
  if (!line.contains(field)) {
    if (fallback < lo) throw std::invalid_argument(std::string(field) + ": missing");
    return fallback;
  }
  const ojson& v = line[field];
  if (!v.is_number()) throw std::invalid_argument(expected);
  const double x = v.get<double>();  // exact for every integer in range
  if (!std::isfinite(x) || x != std::floor(x) || x < static_cast<double>(lo) || x > static_cast<double>(hi))
    throw std::invalid_argument(expected);
  return static_cast<long>(x);
}

struct scene_counts {
  long steps = 1, record_every = 1;
};

inline scene_counts read_scene_counts(const ojson& line) {
  scene_counts c;
  c.steps = integer_field(line, "steps", -1, 1, scene_max_steps);
  c.record_every = integer_field(line, "record_every", 1, 1, c.steps);
  return c;
}

// The request's "bodies": 1..scene_max_bodies objects (each read by the
// adapter's step.pair reader, named "bodies[i]").
inline ojson& scene_bodies(ojson& line) {
  if (!line.contains("bodies") || !line["bodies"].is_array())
    throw std::invalid_argument("bodies: expected a list of bodies");
  ojson& list = line["bodies"];
  if (list.empty() || list.size() > scene_max_bodies)
    throw std::invalid_argument("bodies: expected 1 to " + std::to_string(scene_max_bodies) + " bodies, got " +
                                std::to_string(list.size()));
  return list;
}

inline std::string scene_body_name(std::size_t i) { return "bodies[" + std::to_string(i) + "]"; }

// One body after a step, as the engine holds it: the body origin, the
// angle, the velocity of the centre of mass, the angular velocity.
struct body_state {
  double x = 0, y = 0, angle = 0, vx = 0, vy = 0, w = 0;
  bool finite() const {
    return std::isfinite(x) && std::isfinite(y) && std::isfinite(angle) && std::isfinite(vx) && std::isfinite(vy) &&
           std::isfinite(w);
  }
};

// A value of the engine's state; null where it is not finite (said
// explicitly: the JSON writer would also write null, but the frames should
// not depend on that).
inline ojson finite_or_null(double x) { return std::isfinite(x) ? ojson(x) : ojson(nullptr); }

inline ojson state_json(const body_state& s) {
  return {{"position", ojson::array({finite_or_null(s.x), finite_or_null(s.y)})},
          {"angle", finite_or_null(s.angle)},
          {"velocity", ojson::array({finite_or_null(s.vx), finite_or_null(s.vy)})},
          {"angular_velocity", finite_or_null(s.w)}};
}

// Calls step() `steps` times (one engine step each) and records state(i) of
// the n bodies after every record_every-th step: the result's "frames".
// Once a state is not finite the engine is not stepped again (an engine may
// assert, or its broad phase loop, on NaN bounds): the frames after that
// step hold null values, and diagnostics.non_finite_at_step names the step.
template <class Step, class State>
ojson run_scene(const scene_counts& c, std::size_t n, Step step, State state, ojson& line) {
  ojson frames = ojson::array();
  std::vector<body_state> now(n);
  long broken_at = 0;  // the step after which some state was not finite
  for (long k = 1; k <= c.steps; ++k) {
    if (broken_at == 0) {
      step();
      for (std::size_t i = 0; i < n; ++i) {
        now[i] = state(i);
        if (broken_at == 0 && !now[i].finite()) broken_at = k;
      }
    }
    if (k % c.record_every != 0) continue;
    ojson bodies = ojson::array();
    for (std::size_t i = 0; i < n; ++i) {
      if (broken_at != 0 && broken_at < k) {
        bodies.push_back(state_json({NAN, NAN, NAN, NAN, NAN, NAN}));  // not stepped: no state
      } else {
        bodies.push_back(state_json(now[i]));
      }
    }
    frames.push_back({{"step", k}, {"bodies", std::move(bodies)}});
  }
  if (broken_at != 0) diagnostics(line)["non_finite_at_step"] = broken_at;
  return {{"frames", std::move(frames)}};
}

}  // namespace rigidref::adapters
