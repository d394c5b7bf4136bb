// The cases `rigidref hunt` sends: RapidCheck generators of eval requests,
// one per op, whose shrinks go towards what a person reads fastest (fewer
// vertices, no offset, size 1, fewer significant digits, angle 0,
// coefficients 0 or 1, a polygon before the other shapes).
//
// A case is drawn as a small record of integer parameters (`case_params`)
// and made into its request by `request_of`; shrinking steps through the
// parameters, each towards its simplest value, in the order above. So a
// shrunk case is the same kind of case with simpler numbers, and every
// case can be rebuilt from its parameters.
#pragma once

#include <rapidcheck.h>

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

namespace rigidref::tools::hunt {

// The ops hunt can generate.
const std::vector<std::string>& hunt_ops();

// A shape's parameters. Vertices lie on an ellipse (semi-axes size and
// size 10^-thin) at angles set by `gaps`, turned and moved; `digits` > 0
// rounds every coordinate to that many significant digits of the size.
struct shape_params {
  int kind = 0;  // 0 polygon, 1 circle, 2 point, 3 segment, 4 capsule, 5 rounded polygon, 6 star (mass only)
  int n = 3;     // vertices, 3..64
  std::array<int, 64> gaps{};  // angular weights of the vertices, 1..100
  int size_exp = 0;            // size 10^size_exp, -6..6
  int thin_exp = 0;            // minor axis 10^-thin_exp of the size, 0..6
  int turn_deg = 0;            // 0..359
  int off_x = 0, off_y = 0;    // -9..9, times 10^off_exp
  int off_exp = 0;             // 0..6
  int digits = 0;              // 0: full float precision; 1..8 significant digits
  bool clockwise = false;
};

struct case_params {
  std::string op;
  shape_params a, b;
  int direction_deg = 0;  // pairs: where b lies from a, 0..359
  int gap = 0;            // pairs: centre distance in 1e-5 of the sum of the sizes, 0..200000
  int density_exp = 0;    // mass: density 10^density_exp, -3..3
  // step.pair: body1 a static ground (scene 0), a static wall (1) or
  // dynamic (2); velocities in units of 0.1 m/s (-99..99), restitution
  // and friction in percent (0..100, 0..150), gravity on or off.
  int scene = 0;
  int vx = 0, vy = 0, w = 0, vx1 = 0, vy1 = 0, w1 = 0;
  int restitution_pc = 0, friction_pc = 0;
  bool gravity = false;
  int overlap_permille = 10;  // step.pair: the bodies overlap by this part of the smaller size, 1..100
  int scene_steps = 60;       // scene.run: step.pair's two bodies stepped this many times, 1..120
};

// The generator of `op` (one of hunt_ops()); throws std::invalid_argument
// for another op.
rc::Gen<case_params> case_generator(const std::string& op);

// The request line's fields (without "id") for these parameters. Throws
// std::invalid_argument when they make no valid case (then hunt draws or
// shrinks on).
nlohmann::json request_of(const case_params& p);

// The shrinks of a case, simplest first (used by case_generator's
// Shrinkable; exposed for the tests).
std::vector<case_params> shrinks_of(const case_params& p);

// Cases one step away in every parameter (both ways), for --maximize's
// local search.
std::vector<case_params> neighbours_of(const case_params& p);

// A short description of the parameters (vertices, digits, offset, ...),
// for the summary and the --out records.
nlohmann::json describe(const case_params& p);

}  // namespace rigidref::tools::hunt
