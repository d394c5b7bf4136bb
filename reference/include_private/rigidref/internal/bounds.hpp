// The expected-bounds table: for each function, the largest error allowed,
// keyed on the tested type's significand digits (0 = any type). Tests and
// `rigidref report` fail when a measured error exceeds its bound. Each entry
// names the derivation that justifies it; entries default tight.
#pragma once

#include <limits>
#include <string_view>

namespace rigidref::verify {

struct accuracy_bound {
  std::string_view function;
  int digits;            // 0: every type
  double max_ulps;       // distance from the correctly rounded value
  double max_eps;        // relative error in epsilons
  std::string_view why;  // derivation anchor or reason
};

inline constexpr double unbounded = std::numeric_limits<double>::infinity();

inline constexpr accuracy_bound accuracy_bounds[] = {
    // Rational results carried in double words and rounded once: within one
    // ulp of the correctly rounded value (D-MASS-5): at most 1.5 eps from the
    // exact value (half an ulp of rounding plus one ulp).
    {"mass.polygon area", 0, 1, 1.5, "D-MASS-5"},
    {"mass.polygon centroid", 0, 1, 1.5, "D-MASS-5"},
    {"mass.polygon mass", 0, 1, 1.5, "D-MASS-5"},
    {"mass.polygon inertia", 0, 1, 1.5, "D-MASS-5"},
    {"mass.polygon inertia (mass given)", 0, 1, 1.5, "D-MASS-5"},
    {"mass.triangle", 0, 1, 1.5, "D-MASS-5, D-MASS-6"},
    {"mass.circle", 0, 1, 1.5, "D-MASS-5, D-MASS-9"},
    {"mass.rectangle", 0, 1, 1.5, "D-MASS-5, D-MASS-9"},
    {"mass.parallel_axis", 0, 1, 1.5, "D-MASS-5, D-MASS-11"},
    // Evaluated in T with cos: first-order bounds of D-MASS-12.
    {"mass.regular_polygon closed form", 0, 10, 5, "D-MASS-12"},
    {"mass.regular_polygon (article formula)", 0, 21, 10.5, "D-MASS-12"},
    // The article's triangle formula cancels in absolute coordinates: its
    // error grows with (distance from origin / size)^2 (D-MASS-6). Reported
    // as a finding, not bounded.
    {"mass.triangle (article formula)", 0, unbounded, unbounded, "finding: D-MASS-6"},
    // Collision values: features found in T, the value (a square root of an
    // exact rational) evaluated in the accumulator and rounded once: within
    // 1 ulp of the correctly rounded value, 1.5 eps of the exact one.
    {"gjk.distance", 0, 1, 1.5, "D-GJK-8"},
    {"epa.depth", 0, 1, 1.5, "D-EPA-6"},
    {"epa.normal", 0, 1, 1.5, "D-EPA-6"},
    {"sat depth", 0, 1, 1.5, "D-SAT-3"},
    {"sat distance", 0, 1, 1.5, "D-SAT-4"},
    {"sat normal", 0, 1, 1.5, "D-SAT-3"},
    {"sat.rectangles depth", 0, 1, 1.5, "D-SAT-3"},
    // A rational computed exactly and rounded once: correctly rounded.
    {"sat depth_squared", 0, 0, 0.5, "D-SAT-3"},
    // The article's rectangle test evaluated in T, its t axis not exactly
    // perpendicular to n: reported (D-RECT-6).
    {"sat.rectangles article depth", 0, unbounded, unbounded, "finding: D-RECT-6"},
};

// Matrix square root, polar decomposition, shape matching (by prefix: the
// square-root rows carry their condition band in parentheses).
inline constexpr accuracy_bound accuracy_bound_prefixes[] = {
    // Accumulator precision, one rounding per entry (D-MSQRT-4).
    {"mat2.sqrt default", 0, 1, 1.5, "D-MSQRT-4"},
    // The article's methods in T: they lose digits with the condition number
    // and with cancellation in a + s; reported, not bounded (D-MSQRT-5).
    {"mat2.sqrt cayley_hamilton", 0, unbounded, unbounded, "finding: D-MSQRT-5"},
    {"mat2.sqrt diagonalization", 0, unbounded, unbounded, "finding: D-MSQRT-5"},
    {"mat2.polar q", 0, 1, 1.5, "D-POLAR-2"},
    {"mat2.polar s", 0, 1, 1.5, "D-POLAR-2"},
    {"mat2.polar closest rotation", 0, 1, 1.5, "D-POLAR-3"},
    {"shape_match rotation", 0, 1, 1.5, "D-SHAPE-4"},
    {"shape_match goals", 0, 1, 1.5, "D-SHAPE-4"},
    // atan2 of the two rounded sums: 2u from the inputs plus atan2's own
    // 1 ulp (D-SHAPE-4).
    {"shape_match angle", 0, 4, 2, "D-SHAPE-4"},
};

// The bound for `function` at `digits`: an exact name first, then a prefix
// entry; within each an exact digits match first, then the digits-0 entry;
// nullptr when the table has none (a test and report failure).
inline const accuracy_bound* find_bound(std::string_view function, int digits) {
  const accuracy_bound* any = nullptr;
  for (const auto& b : accuracy_bounds) {
    if (b.function != function) continue;
    if (b.digits == digits) return &b;
    if (b.digits == 0) any = &b;
  }
  if (any) return any;
  for (const auto& b : accuracy_bound_prefixes) {
    if (function.substr(0, b.function.size()) != b.function) continue;
    if (b.digits == digits) return &b;
    if (b.digits == 0) any = &b;
  }
  return any;
}

}  // namespace rigidref::verify
