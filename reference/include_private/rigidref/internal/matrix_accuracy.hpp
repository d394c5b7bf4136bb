// Accuracy runs for matrix_sqrt.hpp, polar.hpp and shape_matching.hpp
// against 230-digit oracles, by condition-number band. Shared by the tests
// and `rigidref report` (which also writes the per-case CSV for plots).
//
// Inputs are generated in T, so each matrix is exactly representable in the
// tested type; the oracle works from the exact rational entries.
#pragma once

#include "rigidref/matrix_sqrt.hpp"
#include "rigidref/polar.hpp"
#include "rigidref/shape_matching.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/random.hpp"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace rigidref::verify {

// One case of the error-versus-condition-number plot.
struct condition_sample {
  std::string type;
  std::string method;
  std::string family;
  double condition;
  double max_ulps;  // worst entry of X, distance from its correctly rounded value
};

namespace detail {

using O = oracle_float;

inline mat2<O> to_oracle(const mat2<exact>& m) {
  return {round_to<O>(m.a), round_to<O>(m.b), round_to<O>(m.c), round_to<O>(m.d)};
}

// The principal square root at 230 digits (D-MSQRT-4 with the oracle type).
inline mat2<exact> sqrt_oracle(const mat2<exact>& m) {
  using boost::multiprecision::sqrt;
  const exact det = m.a * m.d - m.b * m.c;
  const exact tr = m.a + m.d;
  const O s = sqrt(round_to<O>(det));
  O tau;
  if (tr >= 0) {
    tau = round_to<O>(tr) + 2 * s;
  } else {
    const exact disc = (m.a - m.d) * (m.a - m.d) + 4 * m.b * m.c;  // < 0 here
    tau = -round_to<O>(disc) / (2 * s - round_to<O>(tr));
  }
  const O t = sqrt(tau);
  return {to_exact(O((round_to<O>(m.a) + s) / t)), to_exact(O(round_to<O>(m.b) / t)),
          to_exact(O(round_to<O>(m.c) / t)), to_exact(O((round_to<O>(m.d) + s) / t))};
}

template <class T>
std::string describe(const mat2<T>& m) {
  return "m=[[" + to_string(m.a) + "," + to_string(m.b) + "],[" + to_string(m.c) + "," + to_string(m.d) + "]]";
}

template <class T>
mat2<T> rotation(const T& angle) {
  using std::cos;
  using std::sin;
  const T c = cos(angle), s = sin(angle);
  return {c, T(-s), s, c};
}

// A matrix of the family with 2-norm condition number about `cond`, built in T.
//   spd:      R diag(l, l/cond) R^T (the shape-matching case, A^T A)
//   general:  R1 diag(l, l/cond) R2 with positive eigenvalues kept (re-drawn otherwise)
//   complex:  s (cos phi I + sin phi J) (rotation-scaling, eigenvalues s e^{+-i phi})
template <class T>
mat2<T> condition_matrix(rng& g, const std::string& family, double cond) {
  const T two_pi = 2 * boost::math::constants::pi<T>();
  const T scale = log_uniform<T>(g, -3, 3);
  if (family == "complex") {
    const T phi = (uniform01<T>(g) * 2 - 1) * (two_pi / 2) * T(0.999);  // avoid the negative real axis
    const mat2<T> r = rotation(phi);
    return scale * r;
  }
  const T small = scale / T(cond);
  const mat2<T> d{scale, T(0), T(0), small};
  const mat2<T> r1 = rotation(T(two_pi * uniform01<T>(g)));
  if (family == "spd") {
    const mat2<T> x = r1 * d * transpose(r1);
    const T off = (x.b + x.c) / 2;  // exactly symmetric
    return {x.a, off, off, x.d};
  }
  const mat2<T> r2 = rotation(T(two_pi * uniform01<T>(g) / 8));  // mild non-normality
  return r1 * d * transpose(r1) * r2;
}

}  // namespace detail

// The three square-root methods on three families, by condition band.
template <class T>
std::vector<error_stats> matrix_sqrt_accuracy(std::uint64_t seed, std::size_t per_band,
                                              std::vector<condition_sample>* samples = nullptr) {
  const double max_exp = std::min(12.0, std::floor(std::log10(0.01 / static_cast<double>(epsilon<T>()))));
  struct band {
    std::string name;
    double lo, hi;
  };
  std::vector<band> bands{{"cond 1-1e4", 0, 4}, {"cond 1e4-1e8", 4, 8}, {"cond 1e8-1e12", 8, 12}};
  struct method {
    std::string name;
    std::function<mat2<T>(const mat2<T>&)> f;
  };
  const std::vector<method> methods{{"default", [](const mat2<T>& m) { return principal_sqrt(m); }},
                                    {"cayley_hamilton", [](const mat2<T>& m) { return sqrt_cayley_hamilton(m); }},
                                    {"diagonalization", [](const mat2<T>& m) { return sqrt_diagonalization(m); }}};
  std::vector<error_stats> out;
  rng g(seed);
  for (const auto& b : bands) {
    if (b.lo > max_exp) continue;  // float cannot hold cond 1e8 matrices
    std::vector<error_stats> rows;
    for (const auto& m : methods) rows.push_back(make_stats<T>("mat2.sqrt " + m.name + " (" + b.name + ")"));
    for (const std::string family : {"spd", "general", "complex"}) {
      for (std::size_t k = 0; k < per_band; ++k) {
        const double cond = family == "complex" ? 1.0 : std::pow(10.0, b.lo + (std::min(b.hi, max_exp) - b.lo) * std::uniform_real_distribution<double>(0, 1)(g));
        const mat2<T> a = detail::condition_matrix<T>(g, family, cond);
        if (!has_principal_sqrt(a)) continue;  // rounding pushed an eigenvalue out
        const mat2<exact> truth = detail::sqrt_oracle(convert_mat<exact>(a, to_exact<T>));
        for (std::size_t i = 0; i < methods.size(); ++i) {
          const mat2<T> x = methods[i].f(a);
          const auto describe = [&] { return family + " cond~" + std::to_string(cond) + " " + detail::describe(a); };
          double worst = 0;
          for (auto [got, want] : {std::pair{x.a, truth.a}, {x.b, truth.b}, {x.c, truth.c}, {x.d, truth.d}}) {
            rows[i].add(got, want, describe);
            worst = std::max(worst, ulps_from_rounded(got, want));
          }
          if (samples) samples->push_back({std::string(scalar_name<T>()), methods[i].name, family, cond, worst});
        }
        if (family == "complex") break;  // rotation-scalings have condition 1: once per band is enough
      }
    }
    out.insert(out.end(), rows.begin(), rows.end());
  }
  return out;
}

// Polar factors and the closest rotation on general matrices of both
// determinant signs, against 230-digit oracles of the closed forms.
template <class T>
std::vector<error_stats> polar_accuracy(std::uint64_t seed, std::size_t count) {
  using boost::multiprecision::sqrt;
  using detail::O;
  error_stats q = make_stats<T>("mat2.polar q");
  error_stats s = make_stats<T>("mat2.polar s");
  error_stats rot = make_stats<T>("mat2.polar closest rotation");
  rng g(seed);
  for (std::size_t k = 0; k < count; ++k) {
    const T scale = log_uniform<T>(g, -3, 3);
    mat2<T> m{T(scale * (uniform01<T>(g) * 2 - 1)), T(scale * (uniform01<T>(g) * 2 - 1)),
              T(scale * (uniform01<T>(g) * 2 - 1)), T(scale * (uniform01<T>(g) * 2 - 1))};
    const mat2<exact> e = convert_mat<exact>(m, to_exact<T>);
    const exact det = e.a * e.d - e.b * e.c;
    if (det == 0) continue;
    const bool rotation_form = det > 0;
    const exact u = rotation_form ? exact(e.a + e.d) : exact(e.a - e.d);
    const exact v = rotation_form ? exact(e.c - e.b) : exact(e.b + e.c);
    const O r = sqrt(round_to<O>(u * u + v * v));
    const exact qu = to_exact(O(round_to<O>(u) / r)), qv = to_exact(O(round_to<O>(v) / r));
    const exact absdet = det > 0 ? det : exact(-det);
    const auto sq = [&](const exact& x) { return to_exact(O(round_to<O>(x) / r)); };
    const auto got = polar_right(m);
    const auto describe = [&] { return detail::describe(m); };
    q.add(got.q.a, qu, describe);
    q.add(got.q.c, qv, describe);
    q.add(got.q.d, rotation_form ? qu : exact(-qu), describe);
    s.add(got.s.a, sq(e.a * e.a + e.c * e.c + absdet), describe);
    s.add(got.s.b, sq(e.a * e.b + e.c * e.d), describe);
    s.add(got.s.d, sq(e.b * e.b + e.d * e.d + absdet), describe);
    const exact ru = e.a + e.d, rv = e.c - e.b;
    const O rr = sqrt(round_to<O>(ru * ru + rv * rv));
    const auto cr = closest_rotation(m);
    rot.add(cr.r.a, to_exact(O(round_to<O>(ru) / rr)), describe);
    rot.add(cr.r.c, to_exact(O(round_to<O>(rv) / rr)), describe);
  }
  return {q, s, rot};
}

// Shape matching on noisy rigid motions: angle, rotation entries, goals.
template <class T>
std::vector<error_stats> shape_matching_accuracy(std::uint64_t seed, std::size_t count) {
  using boost::multiprecision::atan2;
  using boost::multiprecision::sqrt;
  using detail::O;
  error_stats angle = make_stats<T>("shape_match angle");
  error_stats rotation = make_stats<T>("shape_match rotation");
  error_stats goals = make_stats<T>("shape_match goals");
  rng g(seed);
  for (std::size_t k = 0; k < count; ++k) {
    const int n = uniform_int(g, 3, 12);
    const T size = log_uniform<T>(g, -2, 2);
    const T theta = (uniform01<T>(g) * 2 - 1) * boost::math::constants::pi<T>();
    const mat2<T> r = detail::rotation(theta);
    const vec2<T> shift{T(log_uniform<T>(g, -2, 6) * (uniform01<T>(g) - T(0.5))),
                        T(log_uniform<T>(g, -2, 6) * (uniform01<T>(g) - T(0.5)))};
    const T noise = size * log_uniform<T>(g, -6, -1);
    std::vector<vec2<T>> rest, current;
    std::vector<T> w;
    for (int i = 0; i < n; ++i) {
      rest.push_back({T(size * (uniform01<T>(g) * 2 - 1)), T(size * (uniform01<T>(g) * 2 - 1))});
      const vec2<T> moved = r * rest.back() + shift;
      current.push_back({T(moved.x + noise * (uniform01<T>(g) - T(0.5))), T(moved.y + noise * (uniform01<T>(g) - T(0.5)))});
      w.push_back(T(T(1) / 2 + uniform01<T>(g)));
    }
    // Oracle: the same sums at 230 digits from the exact inputs.
    exact tw = 0, rx = 0, ry = 0, cx = 0, cy = 0;
    for (int i = 0; i < n; ++i) {
      const exact wi = to_exact(w[i]);
      tw += wi;
      rx += wi * to_exact(rest[i].x), ry += wi * to_exact(rest[i].y);
      cx += wi * to_exact(current[i].x), cy += wi * to_exact(current[i].y);
    }
    rx /= tw, ry /= tw, cx /= tw, cy /= tw;
    exact dot = 0, crs = 0;
    for (int i = 0; i < n; ++i) {
      const exact wi = to_exact(w[i]);
      const exact qx = to_exact(rest[i].x) - rx, qy = to_exact(rest[i].y) - ry;
      const exact px = to_exact(current[i].x) - cx, py = to_exact(current[i].y) - cy;
      dot += wi * (qx * px + qy * py);
      crs += wi * (qx * py - qy * px);
    }
    const O od = round_to<O>(dot), oc = round_to<O>(crs);
    const O rr = sqrt(od * od + oc * oc);
    const O cs = od / rr, sn = oc / rr;
    const auto got = shape_match<T>(rest, current, w);
    const auto describe = [&] {
      std::string s = "n=" + std::to_string(n) + " theta=" + to_string(theta) + " rest/current=";
      for (int i = 0; i < n; ++i)
        s += "[" + to_string(rest[i].x) + "," + to_string(rest[i].y) + "]->[" + to_string(current[i].x) + "," +
             to_string(current[i].y) + "] ";
      return s;
    };
    angle.add(got.angle, to_exact(O(atan2(oc, od))), describe);
    rotation.add(got.rotation.a, to_exact(cs), describe);
    rotation.add(got.rotation.c, to_exact(sn), describe);
    for (int i = 0; i < n; ++i) {
      const O qx = round_to<O>(to_exact(rest[i].x) - rx), qy = round_to<O>(to_exact(rest[i].y) - ry);
      goals.add(got.goals[i].x, to_exact(O(cs * qx - sn * qy + round_to<O>(cx))), describe);
      goals.add(got.goals[i].y, to_exact(O(sn * qx + cs * qy + round_to<O>(cy))), describe);
    }
  }
  return {angle, rotation, goals};
}

}  // namespace rigidref::verify
