// The judge of `rigidref check`, without JSON: for each op, the verdict on
// an engine's answer to a case, the same as `rigidref check` gives (which
// calls these). The reference is computed inside, exactly or in 100 digits;
// the budgets, metrics and allowances are those of judge/rules.hpp, derived
// in derivations/judge.md.
//
//   #include <rigidref/judge.hpp>
//   namespace j = rigidref::judge;
//   j::mass_polygon_answer a;  a.area = box2d_area;  a.inertia = box2d_inertia;   // floats
//   j::verdict v = j::judge_mass_polygon(j::mass_polygon_case::with_density(vertices, 1.0f), a,
//                                        j::engine::working_in<float>());
//   REQUIRE(v.passed());   // else v.detail() says which field is off, by how many eps
#pragma once

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
