// Shape matching (Mueller, Heidelberger, Teschner, Gross, "Meshless
// Deformations Based on Shape Matching", SIGGRAPH 2005) in 2D:
// derivations/shape_matching.md.
//
// Given rest points x0_i, current points x_i and weights w_i >= 0:
//   c0 = sum w x0 / sum w,  c = sum w x / sum w,  q_i = x0_i - c0,  p_i = x_i - c
//   the rotation R minimising sum w |R q_i - p_i|^2 has
//   angle = atan2(sum w (q x p), sum w (q . p))              (D-SHAPE-4)
//   goal_i = R q_i + c,  translation = c - R c0
//   linear fit A = Apq Aqq^-1, Apq = sum w p q^T, Aqq = sum w q q^T (D-SHAPE-5)
// Sums are carried in the accumulator and rounded once. Degenerate inputs
// give a status, never a NaN.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/mat2.hpp"

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

enum class fit_status {
  ok,
  undetermined,  // the data do not determine the answer (see each field)
};

template <class T>
struct shape_match_result {
  fit_status rotation_status;  // undetermined: sum w q.p = sum w q x p = 0
                               // (fewer than 2 distinct weighted points, or a
                               // symmetric configuration); rotation = identity then
  T angle;
  mat2<T> rotation;
  vec2<T> translation;  // goal_i = rotation * rest_i + translation
  vec2<T> rest_centroid;
  vec2<T> current_centroid;
  std::vector<vec2<T>> goals;
  fit_status linear_status;  // undetermined: Aqq singular (rest points collinear)
  mat2<T> apq;               // sum w p q^T (Mueller's order: current times rest^T)
  mat2<T> aqq;               // sum w q q^T
  mat2<T> linear;            // Apq Aqq^-1 (zero when undetermined)
};

template <class T>
shape_match_result<T> shape_match(std::span<const vec2<T>> rest, std::span<const vec2<T>> current,
                                  std::span<const T> weights = {}) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("shape matching needs a square root (the rotation): not available in exact arithmetic");
  } else {
    using A = accumulator<T>;
    using W = typename A::type;
    const std::size_t n = rest.size();
    if (n == 0) throw invalid_input("shape matching needs at least one point");
    if (current.size() != n)
      throw invalid_input("rest and current have different lengths (" + std::to_string(n) + " and " +
                          std::to_string(current.size()) + ")");
    if (!weights.empty() && weights.size() != n)
      throw invalid_input("weights must have one entry per point (" + std::to_string(n) + "), got " +
                          std::to_string(weights.size()));
    for (std::size_t i = 0; i < n; ++i) {
      if (!is_finite(rest[i].x) || !is_finite(rest[i].y)) throw invalid_input("rest[" + std::to_string(i) + "] is not finite");
      if (!is_finite(current[i].x) || !is_finite(current[i].y))
        throw invalid_input("current[" + std::to_string(i) + "] is not finite");
      if (!weights.empty() && (!is_finite(weights[i]) || weights[i] < 0))
        throw invalid_input("weights[" + std::to_string(i) + "] must be finite and >= 0");
    }
    auto weight = [&](std::size_t i) { return weights.empty() ? W(1) : A::from(weights[i]); };

    // D-SHAPE-4: weighted centroids, as offsets from the first point: the
    // differences are exact in the accumulator, so coincident points give
    // exactly zero offsets and q_i = 0 (a centroid accumulated from absolute
    // coordinates carries rounding that looked like a tiny shape:
    // data/counterexamples/shape_match_coincident_rest_points.json).
    const W r0x = A::from(rest[0].x), r0y = A::from(rest[0].y);
    const W c0x = A::from(current[0].x), c0y = A::from(current[0].y);
    W total{0}, gx{0}, gy{0}, hx{0}, hy{0};
    for (std::size_t i = 0; i < n; ++i) {
      const W w = weight(i);
      total = total + w;
      gx = gx + w * (A::from(rest[i].x) - r0x);
      gy = gy + w * (A::from(rest[i].y) - r0y);
      hx = hx + w * (A::from(current[i].x) - c0x);
      hy = hy + w * (A::from(current[i].y) - c0y);
    }
    if (A::zero(total)) throw invalid_input("the weights sum to zero");
    gx = gx / total, gy = gy / total, hx = hx / total, hy = hy / total;
    const W rx = r0x + gx, ry = r0y + gy, cx = c0x + hx, cy = c0y + hy;  // the centroids

    // Moments of q (rest) and p (current) about the centroids; `scale` bounds
    // |dot| and |crs| term by term, for the undetermined test below.
    W dot{0}, crs{0}, scale{0}, pq11{0}, pq12{0}, pq21{0}, pq22{0}, qq11{0}, qq12{0}, qq22{0};
    for (std::size_t i = 0; i < n; ++i) {
      const W w = weight(i);
      const W qx = (A::from(rest[i].x) - r0x) - gx, qy = (A::from(rest[i].y) - r0y) - gy;
      const W px = (A::from(current[i].x) - c0x) - hx, py = (A::from(current[i].y) - c0y) - hy;
      dot = dot + w * (qx * px + qy * py);
      crs = crs + w * (qx * py - qy * px);
      scale = scale + w * ((A::abs(qx) + A::abs(qy)) * (A::abs(px) + A::abs(py)));
      pq11 = pq11 + w * px * qx, pq12 = pq12 + w * px * qy;  // D-SHAPE-5: Apq = sum w p q^T
      pq21 = pq21 + w * py * qx, pq22 = pq22 + w * py * qy;
      qq11 = qq11 + w * qx * qx, qq12 = qq12 + w * qx * qy, qq22 = qq22 + w * qy * qy;
    }

    shape_match_result<T> out;
    out.rest_centroid = {A::round(rx), A::round(ry)};
    out.current_centroid = {A::round(cx), A::round(cy)};
    // Sums that vanish in exact arithmetic come out as rounding noise of
    // about n u_W scale: below 64 n u_W scale the data do not determine them.
    const W noise = scale * A::unit() * W(64 * static_cast<double>(n));
    auto negligible = [&](const W& x) { return !A::less(noise, A::abs(x)); };
    W cs{1}, sn{0};
    if (negligible(dot) && negligible(crs)) {
      out.rotation_status = fit_status::undetermined;
      out.angle = 0;
    } else {
      out.rotation_status = fit_status::ok;
      const W r = A::sqrt(dot * dot + crs * crs);
      cs = dot / r;
      sn = crs / r;
      out.angle = A::atan2(crs, dot);
    }
    out.rotation = {A::round(cs), A::round(-sn), A::round(sn), A::round(cs)};
    // translation = c - R c0; goal_i = R (x0_i - c0) + c.
    out.translation = {A::round(cx - (cs * rx - sn * ry)), A::round(cy - (sn * rx + cs * ry))};
    for (std::size_t i = 0; i < n; ++i) {
      const W qx = (A::from(rest[i].x) - r0x) - gx, qy = (A::from(rest[i].y) - r0y) - gy;
      out.goals.push_back({A::round(cs * qx - sn * qy + cx), A::round(sn * qx + cs * qy + cy)});
    }

    // D-SHAPE-5: the best linear map A = Apq Aqq^-1.
    out.apq = {A::round(pq11), A::round(pq12), A::round(pq21), A::round(pq22)};
    out.aqq = {A::round(qq11), A::round(qq12), A::round(qq12), A::round(qq22)};
    const W qdet = qq11 * qq22 - qq12 * qq12;
    if (!A::less(qq11 * qq22 * A::unit() * W(64 * static_cast<double>(n)), qdet)) {  // singular to accumulator precision
      out.linear_status = fit_status::undetermined;
      out.linear = mat2<T>{};
    } else {
      out.linear_status = fit_status::ok;
      // Aqq^-1 = [[qq22, -qq12], [-qq12, qq11]] / qdet
      out.linear = {A::round((pq11 * qq22 - pq12 * qq12) / qdet), A::round((pq12 * qq11 - pq11 * qq12) / qdet),
                    A::round((pq21 * qq22 - pq22 * qq12) / qdet), A::round((pq22 * qq11 - pq21 * qq12) / qdet)};
    }
    return out;
  }
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
