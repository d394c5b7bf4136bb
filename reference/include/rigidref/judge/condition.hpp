// Exact componentwise condition numbers of a polygon's mass properties
// (derivations/judge.md D-JUDGE-5): for a field f of the vertices p_j and
// the density (or mass),
//     kappa_abs(f) = sum_j |x_j| |df/dx_j| + |y_j| |df/dy_j| + |rho| |df/drho|,
// the first-order change of f when every input moves by at most a relative
// 1. An answer computed exactly from inputs each perturbed by a relative
// gamma_k is off by at most gamma_k kappa_abs(f) (to first order).
//
// The fields are rational in four edge sums (c_i = x_i y_{i+1} - x_{i+1} y_i):
//   S0 = sum c_i (= 2 A, signed)          Sx = sum (x_i + x_{i+1}) c_i
//   Sy = sum (y_i + y_{i+1}) c_i          Sj = sum q_i c_i,
//   q_i = x_i^2 + x_i x_{i+1} + x_{i+1}^2 + y_i^2 + y_i y_{i+1} + y_{i+1}^2,
// area = s S0 / 2 (s = sign S0), centroid = (Sx, Sy) / (3 S0),
// mass = rho area, inertia about the centroid = rho s Sj / 12 - mass |c|^2
// (D-MASS-1..5); the gradient of each sum needs only the two edges at a
// vertex, so every kappa costs O(n) exact operations.
#pragma once

#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace rigidref::judge {

// For each field, in its own units: kappa_abs (above) and B, the
// coefficient of the textbook shoelace's error bound in the polygon's own
// frame (D-JUDGE-6): |computed - exact| <= gamma_{n+15} B for the sums taken
// about the centroid (every product and sum bounded by absolute values).
struct mass_condition {
  struct field {
    exact kappa;  // intrinsic: inputs perturbed by a relative 1
    exact local;  // B: the textbook evaluated about the centroid
  };
  field area, centroid_x, centroid_y, mass, inertia;
};

namespace detail {

inline exact cabs(const exact& x) { return x < 0 ? exact(-x) : x; }

// d(sum)/d(x_j), d(sum)/d(y_j) for the four edge sums.
struct sum_gradients {
  std::vector<exact> s0x, s0y, sxx, sxy, syx, syy, sjx, sjy;
  explicit sum_gradients(std::size_t n)
      : s0x(n), s0y(n), sxx(n), sxy(n), syx(n), syy(n), sjx(n), sjy(n) {}
};

}  // namespace detail

// Each field's exact partial derivatives: d/dx_j, d/dy_j and d/d(density
// or mass), in the order area, centroid x, centroid y, mass, inertia.
struct mass_gradients {
  struct field {
    exact value;
    std::vector<exact> dx, dy;
    exact dparameter;
  };
  field area, centroid_x, centroid_y, mass, inertia;
  exact s0, centroid[2];  // 2A (signed) and the centroid, for the local bound
};

inline mass_gradients polygon_mass_gradients(std::span<const vec2<exact>> v, const std::optional<exact>& density,
                                             const std::optional<exact>& total_mass) {
  const std::size_t n = v.size();
  if (n < 3) throw std::invalid_argument("polygon_mass_condition: fewer than 3 vertices");
  if (density.has_value() == total_mass.has_value())
    throw std::invalid_argument("polygon_mass_condition: give the density or the mass");
  exact S0 = 0, Sx = 0, Sy = 0, Sj = 0;
  detail::sum_gradients g(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    const exact &xi = v[i].x, &yi = v[i].y, &xj = v[j].x, &yj = v[j].y;
    const exact c = xi * yj - xj * yi;
    // dc/d(xi, yi, xj, yj) = (yj, -xj, -yi, xi)
    const exact sx = xi + xj, sy = yi + yj;
    const exact q = xi * xi + xi * xj + xj * xj + yi * yi + yi * yj + yj * yj;
    S0 += c;
    Sx += sx * c;
    Sy += sy * c;
    Sj += q * c;
    g.s0x[i] += yj;
    g.s0y[i] -= xj;
    g.s0x[j] -= yi;
    g.s0y[j] += xi;
    g.sxx[i] += c + sx * yj;
    g.sxy[i] -= sx * xj;
    g.sxx[j] += c - sx * yi;
    g.sxy[j] += sx * xi;
    g.syx[i] += sy * yj;
    g.syy[i] += c - sy * xj;
    g.syx[j] -= sy * yi;
    g.syy[j] += c + sy * xi;
    const exact qxi = 2 * xi + xj, qyi = 2 * yi + yj, qxj = xi + 2 * xj, qyj = yi + 2 * yj;
    g.sjx[i] += qxi * c + q * yj;
    g.sjy[i] += qyi * c - q * xj;
    g.sjx[j] += qxj * c - q * yi;
    g.sjy[j] += qyj * c + q * xi;
  }
  if (S0 == 0) throw std::invalid_argument("polygon_mass_condition: zero area");
  const exact s = S0 > 0 ? exact(1) : exact(-1);
  const exact area = s * S0 / 2;
  const exact cx = Sx / (3 * S0), cy = Sy / (3 * S0);
  const exact r2 = cx * cx + cy * cy;

  // Partials of each field with respect to (S0, Sx, Sy, Sj) and the density
  // or mass, then the chain rule through the sums' gradients.
  struct partials {
    exact s0 = 0, sx = 0, sy = 0, sj = 0, parameter = 0;
  };
  mass_gradients out;
  const auto field_of = [&](const exact& value, const partials& d) {
    mass_gradients::field f;
    f.value = value;
    f.dparameter = d.parameter;
    f.dx.resize(n);
    f.dy.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      f.dx[i] = d.s0 * g.s0x[i] + d.sx * g.sxx[i] + d.sy * g.syx[i] + d.sj * g.sjx[i];
      f.dy[i] = d.s0 * g.s0y[i] + d.sx * g.sxy[i] + d.sy * g.syy[i] + d.sj * g.sjy[i];
    }
    return f;
  };
  out.area = field_of(area, {exact(s / 2), 0, 0, 0, 0});
  out.centroid_x = field_of(cx, {exact(-cx / S0), exact(1 / (3 * S0)), 0, 0, 0});
  out.centroid_y = field_of(cy, {exact(-cy / S0), 0, exact(1 / (3 * S0)), 0, 0});
  if (density) {
    const exact& rho = *density;
    const exact m = rho * area;
    const exact inertia = rho * s * Sj / 12 - m * r2;
    out.mass = field_of(m, {exact(rho * s / 2), 0, 0, 0, area});
    out.inertia = field_of(inertia, {exact(rho * s * r2 / 2), exact(-2 * m * cx / (3 * S0)),
                                     exact(-2 * m * cy / (3 * S0)), exact(rho * s / 12), exact(inertia / rho)});
  } else {
    const exact& M = *total_mass;
    const exact inertia = M * Sj / (6 * S0) - M * r2;
    out.mass = field_of(M, {0, 0, 0, 0, 1});
    out.inertia = field_of(inertia, {exact(-M * Sj / (6 * S0 * S0) + 2 * M * r2 / S0), exact(-2 * M * cx / (3 * S0)),
                                     exact(-2 * M * cy / (3 * S0)), exact(M / (6 * S0)), exact(inertia / M)});
  }
  out.s0 = S0;
  out.centroid[0] = cx;
  out.centroid[1] = cy;
  return out;
}

// kappa_abs of area, centroid, mass and inertia, and B. `density` or `mass`
// (the total) is the other input: exactly one of them.
inline mass_condition polygon_mass_condition(std::span<const vec2<exact>> v, const std::optional<exact>& density,
                                             const std::optional<exact>& total_mass) {
  using detail::cabs;
  const std::size_t n = v.size();
  const mass_gradients grad = polygon_mass_gradients(v, density, total_mass);
  const exact parameter = density ? *density : *total_mass;
  const auto kappa = [&](const mass_gradients::field& f) {
    exact k = cabs(parameter) * cabs(f.dparameter);
    for (std::size_t i = 0; i < n; ++i) k += cabs(v[i].x) * cabs(f.dx[i]) + cabs(v[i].y) * cabs(f.dy[i]);
    return k;
  };
  const exact S0 = grad.s0, cx = grad.centroid[0], cy = grad.centroid[1];
  const exact area = grad.area.value;
  const auto d_area = grad.area, d_cx = grad.centroid_x, d_cy = grad.centroid_y, d_mass = grad.mass,
             d_inertia = grad.inertia;
  // B (D-JUDGE-6): the textbook's bounds about the centroid c, where the
  // first moments vanish. With x' = x - c and P_i = |x'_i y'_{i+1}| +
  // |x'_{i+1} y'_i| (the two products of c'_i):
  //   area:     |dS0| <= gamma sum P_i                        B = sum P_i / 2
  //   centroid: |dSx'| <= gamma sum (|x'_i| + |x'_{i+1}|) P_i   B = that / (3 |S0|)
  //   inertia:  |dSj'| <= gamma sum Q_i P_i, Q_i the q_i of absolute values,
  //             B = rho sum Q_i P_i / 12 (the m |c'|^2 term vanishes to first order)
  exact b_area = 0, b_cx = 0, b_cy = 0, b_j = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    const exact xi = cabs(exact(v[i].x - cx)), yi = cabs(exact(v[i].y - cy));
    const exact xj = cabs(exact(v[j].x - cx)), yj = cabs(exact(v[j].y - cy));
    const exact p = xi * yj + xj * yi;
    b_area += p;
    b_cx += (xi + xj) * p;
    b_cy += (yi + yj) * p;
    b_j += (xi * xi + xi * xj + xj * xj + yi * yi + yi * yj + yj * yj) * p;
  }
  const exact abs_s0 = cabs(S0);
  const exact rho = density ? cabs(*density) : exact(cabs(*total_mass) / area);
  b_area /= 2;
  b_cx /= 3 * abs_s0;
  b_cy /= 3 * abs_s0;
  b_j = rho * b_j / 12;
  return {{kappa(d_area), b_area},
          {kappa(d_cx), b_cx},
          {kappa(d_cy), b_cy},
          {kappa(d_mass), exact(rho * b_area)},
          {kappa(d_inertia), b_j}};
}

}  // namespace rigidref::judge
