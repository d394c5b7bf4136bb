// The separation certificate for mp inputs in double (D-GJK-25): the filtered
// certificate of D-GJK-15 run on doubles within a proved distance of the mp
// coordinates, and the exact closest pair rebuilt from its two features
// (only the vertices they name are converted to rationals).
#pragma once

#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/detail/separation_exact.hpp"
#include "rigidref/detail/separation_filtered.hpp"

#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// certify_separation's features when every decision is proved (D-GJK-15 with
// the input bounds of D-GJK-25); false when not proved or an input is out of
// range, and then certify_separation decides.
template <class T>
bool mp_filtered_certify_separation(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vertex_pairs& start,
                                    feature& fa, feature& fb) {
  std::vector<fvec<double>> fa_in(a.size()), fb_in(b.size());
  std::vector<vec2<double>> da(a.size()), db(b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!mp_filtered_point(a[k], fa_in[k])) return false;
    da[k] = {fa_in[k].x.v, fa_in[k].y.v};
  }
  for (std::size_t k = 0; k < b.size(); ++k) {
    if (!mp_filtered_point(b[k], fb_in[k])) return false;
    db[k] = {fb_in[k].x.v, fb_in[k].y.v};
  }
  fpair<double> fp;
  if (!filtered_certify_separation<double>(da, db, start, fp, fa_in, fb_in)) return false;
  fa = fp.fa;
  fb = fp.fb;
  return true;
}

// The exact closest pair named by two features (a vertex and a vertex, or a
// vertex and the interior of an edge, D-GJK-7): the same rationals as
// certify_separation's to_exact_pair (p, q and |q - p|^2 are determined by the
// features; ia, ib are not used by the values).
template <class T>
exact_pair mp_pair_of_features(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const feature& fa,
                               const feature& fb) {
  auto point = [](const vec2<T>& v) { return evec{mp_to_exact(v.x), mp_to_exact(v.y)}; };
  auto on_edge = [&](std::span<const vec2<T>> s, std::size_t i, const evec& v) {
    const evec e0 = point(s[i]), e1 = point(s[(i + 1) % s.size()]);
    const evec e = e1 - e0;
    const exact t = dot(v - e0, e) / length_squared(e);
    return evec{e0.x + t * e.x, e0.y + t * e.y};
  };
  exact_pair out;
  if (fa.edge) {
    out.q = point(b[fb.i]);
    out.p = on_edge(a, fa.i, out.q);
  } else {
    out.p = point(a[fa.i]);
    out.q = fb.edge ? on_edge(b, fb.i, out.p) : point(b[fb.i]);
  }
  out.d2 = length_squared(out.q - out.p);
  out.ia = fa.i;
  out.ib = fb.i;
  return out;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
