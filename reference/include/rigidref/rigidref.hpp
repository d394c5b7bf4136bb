// Everything public of rigidref in one include. Each header also stands on
// its own; include the ones you use when compile time matters (the
// collision headers instantiate Boost.Multiprecision rationals).
//
// Not included: rigidref/mpfr.hpp (the optional MPFR scalar: it needs
// libmpfr-dev and -lmpfr -lgmp at link time; include it yourself), and
// rigidref/protocol/*.hpp (the eval protocol's limits and the engine-adapter
// I/O: they need nlohmann_json; link rigidref::protocol and include them).
#pragma once

// Scalars, vectors, matrices, conversions, errors.
#include "rigidref/convert.hpp"
#include "rigidref/error_text.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/mat2.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

// Exact arithmetic building blocks.
#include "rigidref/accumulator.hpp"
#include "rigidref/double_word.hpp"
#include "rigidref/predicates.hpp"

// Mass properties, matrices, shape matching.
#include "rigidref/mass.hpp"
#include "rigidref/matrix_sqrt.hpp"
#include "rigidref/polar.hpp"
#include "rigidref/polygon.hpp"
#include "rigidref/shape_matching.hpp"

// Collision: shapes, GJK, EPA, SAT, closest points, contact manifolds.
#include "rigidref/closest_point.hpp"
#include "rigidref/collision_status.hpp"
#include "rigidref/contact.hpp"
#include "rigidref/contact_circle.hpp"
#include "rigidref/convex_hull.hpp"
#include "rigidref/convex_shape.hpp"
#include "rigidref/epa.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/shape_queries.hpp"
#include "rigidref/support.hpp"

// Dynamics: impulses, the sequential-impulse solver, one step of a pair of
// bodies, the reference scenes.
#include "rigidref/impulse.hpp"
#include "rigidref/scene_reference.hpp"
#include "rigidref/scene_run.hpp"
#include "rigidref/scene_state.hpp"
#include "rigidref/solver.hpp"
#include "rigidref/solver_modes.hpp"
#include "rigidref/step_pair.hpp"

// The articles' code, ported with its quirks (rigidref::articles).
#include "rigidref/articles/body_force.hpp"
#include "rigidref/articles/collision_helpers.hpp"
#include "rigidref/articles/contact_points.hpp"
#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/articles/mat2.hpp"
#include "rigidref/articles/rectangle_sat.hpp"
#include "rigidref/articles/scene_force.hpp"
#include "rigidref/articles/scene_shape_matching.hpp"
#include "rigidref/articles/shape_matching.hpp"
#include "rigidref/articles/triangle_inertia.hpp"

// The judge of rigidref check, without JSON (derivations/judge.md)
#include "rigidref/judge.hpp"
#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/collision.hpp"
#include "rigidref/judge/condition.hpp"
#include "rigidref/judge/manifold.hpp"
#include "rigidref/judge/mass.hpp"
#include "rigidref/judge/matrix.hpp"
#include "rigidref/judge/measure.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/scene.hpp"
#include "rigidref/judge/shape.hpp"
#include "rigidref/judge/step.hpp"
#include "rigidref/judge/verdict.hpp"

// The public oracles: exact answers written independently of the code above.
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"
#include "rigidref/verify/integer_frame.hpp"
#include "rigidref/verify/mass_oracle.hpp"
#include "rigidref/verify/oracle_sqrt.hpp"
#include "rigidref/verify/random.hpp"
