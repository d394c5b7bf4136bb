// Measured properties for `rigidref report` (report/measurements.hpp). The
// bounds are those of the tests (tests/solver_test.cpp) and of
// derivations/solver.md; the quirk effects are exact values of the port.
#include "report/measurements.hpp"

#include "rigidref/internal/solver_checks.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace rigidref::tools {
namespace {

int solver_cases(const report_options& o, bool multiprecision) {
  const double base = multiprecision ? 20 : 200;
  return std::max(4, static_cast<int>(base * o.scale * (o.quick ? 0.1 : 1.0)));
}

template <class T>
void solver_rows(const report_options& o, std::vector<measured_row>& rows,
                 const std::function<void(const std::string&)>& stage) {
  const std::string name(scalar_name<T>());
  if (!o.only_type.empty() && o.only_type != name) return;
  stage("solver: " + name);
  const int n = solver_cases(o, !std::is_floating_point_v<T>);
  const double eps = static_cast<double>(std::numeric_limits<T>::epsilon());
  // Frictionless stacks: projected Gauss-Seidel on a positive definite
  // Delassus matrix converges (D-SOLVER-6); after 3000 sweeps the exact
  // residual of T's answer is at the rounding floor. Bound of the tests.
  const auto frictionless = verify::stack_convergence<T>(o.seed + 20, n, 3000, 0);
  const double bound = 1e-10 + 64 * eps;
  rows.push_back({"solver", "frictionless stacks of 2-5 contacts: relative complementarity residual after 3000 sweeps",
                  name, frictionless.cases, frictionless.max_relative_residual, "max over stacks",
                  "<= 1e-10 + 64 eps", frictionless.max_relative_residual <= bound ? "pass" : "FAIL",
                  "D-SOLVER-6, D-SOLVER-7", ""});
  rows.push_back({"solver", "frictionless stacks: residual increased during some sweep", name,
                  frictionless.cases, static_cast<double>(frictionless.nonmonotone_cases), "stacks",
                  "reported (PGS is not monotone in this residual)", "finding", "D-SOLVER-8",
                  "solver_residual_not_monotone.json"});
  // With friction the iteration need not converge (D-SOLVER-8): reported.
  const auto friction = verify::stack_convergence<T>(o.seed + 21, n, 1000);
  rows.push_back({"solver", "stacks with friction: relative residual after 1000 sweeps (worst)", name, friction.cases,
                  friction.max_relative_residual, "max over stacks", "reported (2-cycles exist)", "finding",
                  "D-SOLVER-8, D-SOLVER-10", "solver_friction_two_cycle.json"});
}

void quirk_rows(std::vector<measured_row>& rows) {
  const verify::body_force_quirk_effects q = verify::body_force_quirks();
  const auto add = [&](const std::string& what, double value, const std::string& unit, const std::string& why) {
    rows.push_back({"body_force", what, "exact", 1, value, unit, "reported", "finding", why, ""});
  };
  add("c = 0.4 on wall torques: change of angular momentum about the contact, one hit", q.wall_dL_contact,
      "kg m^2/s (0 for a rigid impulse)", "D-BODYFORCE-1");
  add("0.5 gravity torque: spin-up on a corner relative to a body pivoting there", q.corner_spin_ratio_vs_pivot,
      "ratio (1 if physical)", "D-BODYFORCE-2");
  add("gate vel.y < -0.3: largest speed of a box at rest on the floor", q.rest_max_speed, "m/s (0 if physical)",
      "D-BODYFORCE-3");
  add("gate vel.y < -0.3: period of the resting box's velocity cycle", q.rest_cycle_frames, "frames",
      "D-BODYFORCE-3");
  add("y-only correction: penetration left on a wall with normal (-3/5, 4/5)", q.tilted_wall_remaining_fraction,
      "fraction (0 if removed)", "D-BODYFORCE-4");
  add("y-only correction: energy gained per frame at a vertical wall", q.vertical_wall_energy_gain, "J",
      "D-BODYFORCE-4");
  add("force reset on body hits: momentum of gravity lost per hit (1 kg + 2 kg)", q.gravity_deficit_per_hit,
      "kg m/s", "D-BODYFORCE-6");
  add("push-out pen/4 + 0.01: overlap left of 0.2 m", q.pushout_overlap_left, "m", "D-BODYFORCE-6");
  add("displaced contact points: change of angular momentum", q.offset_contact_dL, "kg m^2/s", "D-BODYFORCE-7");
  add("simulation in double: the kite on its corner, largest speed in the fifth second", q.settled_corner_max_speed,
      "m/s (it never comes to rest)", "D-BODYFORCE-2, D-BODYFORCE-3");
}

}  // namespace

std::vector<measured_row> run_measurements(const report_options& o, const std::function<void(const std::string&)>& stage) {
  std::vector<measured_row> rows;
  solver_rows<float>(o, rows, stage);
  solver_rows<double>(o, rows, stage);
  solver_rows<long double>(o, rows, stage);
  solver_rows<mp50>(o, rows, stage);
  if (o.only_type.empty() || o.only_type == "exact") {
    stage("BodyForce.js quirks (exact)");
    quirk_rows(rows);
  }
  return rows;
}

}  // namespace rigidref::tools
