// gjk_distance and epa_penetration for every convex_shape pair
// (convex_shape.hpp): the cores go through the machinery of gjk.hpp and
// epa.hpp, the radii are added once at the end (distance: D-GJK-9; depth:
// D-EPA-7). A one-point core is a circle's core; a two-point core is read as
// the degenerate polygon a -> b -> a (D-GJK-20). When the normal is not
// unique (cores touching or crossing with empty-interior A - B), the
// convention of D-EPA-12 picks it.
#pragma once

#include "rigidref/convex_shape.hpp"
#include "rigidref/epa.hpp"
#include "rigidref/gjk.hpp"

#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
gjk_result<T> gjk_distance(const convex_shape<T>& a, const convex_shape<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa(a.core), sb(b.core);
  const auto c = detail::core_query<T>(
      sa, sb, {.cap = detail::automatic_cap(opt.max_iterations, sa.size(), sb.size()), .point_first = opt.point_first});
  return detail::distance_from_core<T>(c, a.radius, b.radius);  // D-GJK-9
}

template <class T>
epa_result<T> epa_penetration(const convex_shape<T>& a, const convex_shape<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(a.core, b.core, a.radius, b.radius, opt);  // D-EPA-7
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
