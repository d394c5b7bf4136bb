// The contact LCP of solver.hpp solved directly for a few contacts, by its
// modes (derivations/scene_run.md, D-SCENERUN-2): each contact is apart
// (lambda = 0), sticking (u_n' = b, u_t' = 0) or sliding either way
// (u_n' = b, lambda_t = +-mu lambda_n); each of the 4^m combinations is a
// linear system in the 2m impulses, and a solution of the LCP is a
// combination whose impulses and velocities keep every inequality. Projected
// Gauss-Seidel reaches the same solutions, but on some two-contact problems
// with friction it creeps (rigidref hunt: a 0.1 m triangle landing on a
// corner, residual 3e-8 after 200,000 sweeps), which this does not.
#pragma once

#include "rigidref/scalar.hpp"
#include "rigidref/solver.hpp"
#include "rigidref/vec2.hpp"

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

// At most this many contacts (4^4 = 256 systems of 8 unknowns).
inline constexpr std::size_t solver_modes_max_contacts = 4;

namespace detail {

// x with A x = b by Gaussian elimination with partial pivoting; nullopt when
// a pivot is 0 (the mode's system is singular).
template <class T>
std::optional<std::vector<T>> solve_dense(std::vector<std::vector<T>> A, std::vector<T> b) {
  const std::size_t n = b.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (solver_abs(A[r][c]) > solver_abs(A[p][c])) p = r;
    if (A[p][c] == 0) return std::nullopt;
    std::swap(A[p], A[c]);
    std::swap(b[p], b[c]);
    for (std::size_t r = c + 1; r < n; ++r) {
      const T f = T(A[r][c] / A[c][c]);
      for (std::size_t k = c; k < n; ++k) A[r][k] = T(A[r][k] - f * A[c][k]);
      b[r] = T(b[r] - f * b[c]);
    }
  }
  std::vector<T> x(n);
  for (std::size_t c = n; c-- > 0;) {
    T s = b[c];
    for (std::size_t k = c + 1; k < n; ++k) s = T(s - A[c][k] * x[k]);
    x[c] = T(s / A[c][c]);
  }
  return x;
}

}  // namespace detail

// The LCP solution with the smallest complementarity residual (D-SOLVER-7)
// among the modes whose inequalities hold to `tolerance` (a velocity; the
// impulses' inequalities to tolerance times the largest K_rr^-1); nullopt if
// none or more than solver_modes_max_contacts contacts. No warm start is used.
template <class T>
std::optional<solver_result<T>> solve_contacts_by_modes(const std::vector<solver_body<T>>& bodies,
                                                        const std::vector<solver_contact<T>>& contacts,
                                                        const std::vector<contact_coefficients<T>>& coefficients,
                                                        const T& restitution_threshold, solver_params<T> params,
                                                        const T& tolerance) {
  const std::size_t m = contacts.size();
  if (m == 0 || m > solver_modes_max_contacts) return std::nullopt;
  // The set-up (targets, coefficients) as solve_contacts makes it.
  params.iterations = 1;
  params.warm_start = false;
  params.record_residuals = false;
  const solver_result<T> setup = solve_contacts(bodies, contacts, coefficients, restitution_threshold, params);
  const std::vector<detail::solver_row_data<T>> rows = detail::solver_prepare(bodies, contacts);
  std::vector<vec2<T>> v0;
  std::vector<T> w0;
  for (const solver_body<T>& b : bodies) {
    v0.push_back(b.velocity);
    w0.push_back(b.angular_velocity);
  }
  // u = u0 + K x over the 2m rows (normal, tangent of each contact).
  const std::size_t n = 2 * m;
  const auto row_velocities = [&](const std::vector<vec2<T>>& v, const std::vector<T>& w) {
    std::vector<T> u(n);
    for (std::size_t k = 0; k < m; ++k) {
      const vec2<T> r = detail::solver_relative(rows[k], v, w);
      u[2 * k] = dot(rows[k].n, r);
      u[2 * k + 1] = dot(rows[k].t, r);
    }
    return u;
  };
  const std::vector<T> u0 = row_velocities(v0, w0);
  std::vector<std::vector<T>> K(n, std::vector<T>(n));
  T impulse_scale{0};
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<vec2<T>> v(bodies.size());
    std::vector<T> w(bodies.size(), T(0));
    const detail::solver_row_data<T>& c = rows[j / 2];
    detail::solver_apply(c, j % 2 == 0 ? c.n : c.t, v, w);
    const std::vector<T> col = row_velocities(v, w);
    for (std::size_t i = 0; i < n; ++i) K[i][j] = col[i];
    impulse_scale = detail::solver_max(impulse_scale, T(T(1) / (j % 2 == 0 ? c.knn : c.ktt)));
  }
  const T lambda_tol = T(tolerance * impulse_scale);

  std::optional<solver_result<T>> best;
  for (std::size_t code = 0; code < (std::size_t(1) << n); ++code) {  // 2 bits per contact: 4 modes
    std::vector<std::vector<T>> A(n, std::vector<T>(n, T(0)));
    std::vector<T> b(n, T(0));
    for (std::size_t k = 0; k < m; ++k) {
      const int mode = static_cast<int>((code >> (2 * k)) & 3);
      const std::size_t rn = 2 * k, rt = 2 * k + 1;
      const T mu = setup.contacts[k].friction;
      if (mode == 0) {  // apart: lambda_n = lambda_t = 0
        A[rn][rn] = T(1);
        A[rt][rt] = T(1);
        continue;
      }
      A[rn] = K[rn];  // u_n' = b
      b[rn] = T(setup.contacts[k].target - u0[rn]);
      if (mode == 1) {  // stick: u_t' = 0
        A[rt] = K[rt];
        b[rt] = T(-u0[rt]);
      } else {  // slide: lambda_t = +mu lambda_n (mode 2), -mu lambda_n (mode 3)
        A[rt][rt] = T(1);
        A[rt][rn] = mode == 2 ? T(-mu) : mu;
      }
    }
    const std::optional<std::vector<T>> x = detail::solve_dense(A, b);
    if (!x) continue;
    std::vector<vec2<T>> v = v0;
    std::vector<T> w = w0;
    for (std::size_t k = 0; k < m; ++k)
      detail::solver_apply(rows[k], (*x)[2 * k] * rows[k].n + (*x)[2 * k + 1] * rows[k].t, v, w);
    const std::vector<T> u = row_velocities(v, w);
    bool ok = true;
    for (std::size_t k = 0; k < m && ok; ++k) {
      const int mode = static_cast<int>((code >> (2 * k)) & 3);
      const T ln = (*x)[2 * k], lt = (*x)[2 * k + 1], mu = setup.contacts[k].friction;
      const T wn = T(u[2 * k] - setup.contacts[k].target), ut = u[2 * k + 1];
      if (mode == 0) ok = wn >= -tolerance;
      else if (ln < -lambda_tol) ok = false;
      else if (mode == 1) ok = detail::solver_abs(lt) <= T(mu * ln + lambda_tol);
      else if (mode == 2) ok = ut <= tolerance;  // lambda_t = +mu lambda_n pushes u_t up: u_t' <= 0
      else ok = ut >= -tolerance;
    }
    if (!ok) continue;
    solver_result<T> r;
    r.velocity = v;
    r.angular_velocity = w;
    r.contacts = setup.contacts;
    for (std::size_t k = 0; k < m; ++k) {
      // Impulses within rounding of the bounds are put on them.
      const T mu = r.contacts[k].friction;
      const T ln = detail::solver_max((*x)[2 * k], T(0));
      r.contacts[k].normal_impulse = ln;
      r.contacts[k].tangent_impulse = detail::solver_min(detail::solver_max((*x)[2 * k + 1], T(-mu * ln)), T(mu * ln));
    }
    r.residual = detail::solver_report(rows, r.contacts, r.velocity, r.angular_velocity).residual;
    if (!best || r.residual < best->residual) best = std::move(r);
  }
  return best;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
