// What every scene (article port or reference model) exposes after a step,
// so the CLI, the report and the scene properties handle all of them alike:
// each body's state, its mass properties and its vertices in world space.
// derivations/scenes.md.
#pragma once

#include "rigidref/vec2.hpp"

#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct scene_body_state {
  vec2<T> pos{};
  T ang{0};
  vec2<T> vel{};
  T ang_vel{0};
  T mass{1};
  T inertia{1};                      // about the centre, in the scene's units (kg m^2)
  std::vector<vec2<T>> world_shape;  // vertices in world space, counter-clockwise
};

template <class T>
struct scene_wall_state {
  vec2<T> position{};
  vec2<T> normal{};  // unit, pointing out of the wall into the free space
};

// One step's snapshot: step 0 is the initial state.
template <class T>
struct scene_snapshot {
  int step = 0;
  std::vector<scene_body_state<T>> bodies;
  std::vector<scene_wall_state<T>> walls;
};

// Mechanical energy of one body: 1/2 m |v|^2 + 1/2 I w^2 + m g y
// (potential measured from y = 0, gravity along -y).
template <class T>
T body_energy(const scene_body_state<T>& b, const T& g) {
  const T kinetic = T(T(b.mass * dot(b.vel, b.vel)) / 2 + T(b.inertia * b.ang_vel * b.ang_vel) / 2);
  return T(kinetic + T(b.mass * g * b.pos.y));
}

template <class T>
T scene_energy(const scene_snapshot<T>& s, const T& g) {
  T e{0};
  for (const auto& b : s.bodies) e = T(e + body_energy(b, g));
  return e;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
