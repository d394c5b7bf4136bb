// Single-contact collision impulse with restitution and Coulomb friction: a
// body against a static wall, and a pair of bodies. derivations/impulse.md
// derives every formula (anchors D-IMPULSE-n).
//
// Two models (eval ops impulse.wall / impulse.pair, docs/eval-protocol.md):
//
//   article   the decoupled derivation of 物理シミュレーション 剛体の衝突 2
//             (seed 000, BodyForce.js projectWalls/projectCollision): the
//             normal impulse J from the restitution law as if there were no
//             friction, the tangential B as if there were no normal impulse,
//             mu_cr = |B/J|, stick (jt = B) when mu >= mu_cr, else slide
//             (jt = -mu J sign(slip)). D-IMPULSE-4..6
//   coupled   normal and tangential impulse solved together with the full
//             2x2 effective-mass matrix K: stick when the impulse giving
//             u_n' = -e u_n and u_t' = 0 lies in the friction cone, else slide
//             on the cone edge with u_n' = -e u_n. D-IMPULSE-7, D-IMPULSE-8
//
// Which laws (momentum, restitution, cone, slip, energy) hold for which
// model, and the recorded counterexamples where they do not: D-IMPULSE-11.
//
// Conventions (protocol; D-IMPULSE-1): the normal n points from body1 to body2
// (for a wall: out of the wall, towards the body, and the body is "body2");
// the tangent is t = (-n.y, n.x); the impulse on body2 is P = jn n + jt t, on
// body1 -P. The relative velocity is u = (velocity of body2's contact point)
// - (body1's); u_n = n.u < 0 means approaching.
//
// Numerics (D-IMPULSE-10): with the unit normal given, every output is a
// rational function of the inputs (the fixed tangent needs no normalisation;
// the article's t = n x (v x n) / |...| would need a square root, and the
// fixed t gives the same impulse vector, D-IMPULSE-5). So the whole
// computation runs in `exact` on the exact values of the inputs and each
// output is rounded once: correctly rounded in every binary type, and every
// branch (separating, stick/slide, slide direction) is decided exactly.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

enum class impulse_model { article, coupled };

// One body at the contact. A static body (is_static) has infinite mass and
// inertia: its mass and inertia are ignored and its velocity never changes
// (D-IMPULSE-9). Otherwise mass > 0 and inertia > 0 (finite).
template <class T>
struct contact_body {
  T mass{1};
  T inertia{1};
  vec2<T> velocity{};
  T angular_velocity{0};
  vec2<T> r{};  // centre of mass -> contact point
  bool is_static = false;
};

template <class T>
struct body_velocity {
  vec2<T> velocity;
  T angular_velocity;
};

// Result for a pair. Impulse on body2: jn n + jt t; on body1 the negative.
//   mu_cr: the article's |B/J|; for the coupled model |jt*/jn*| of the
//          sticking impulse (jt*, jn*). Empty when no finite friction
//          coefficient can make the contact stick (coupled, jn* <= 0) and for
//          separating contacts.
//   separating: u_n >= 0; then jn = jt = 0, sticking = false, velocities unchanged.
template <class T>
struct pair_impulse_result {
  T jn{0};
  T jt{0};
  std::optional<T> mu_cr;
  bool sticking = false;
  bool separating = false;
  body_velocity<T> body1_after;
  body_velocity<T> body2_after;
};

template <class T>
struct wall_impulse_result {
  T jn{0};
  T jt{0};
  std::optional<T> mu_cr;
  bool sticking = false;
  bool separating = false;
  vec2<T> velocity_after;
  T angular_velocity_after{0};
};

// ---- effective mass (D-IMPULSE-2, D-IMPULSE-3) ---------------------------------

// The article's denominator term in its 3D-cross-product form,
// a . ((R x b) x R) / I with R = (r.x, r.y, 0), a = (a.x, a.y, 0) and
// b = (b.x, b.y, 0), evaluated literally with 3D cross products (D-IMPULSE-3).
template <class T>
T article_cross3_term(const vec2<T>& r, const vec2<T>& a, const vec2<T>& b, const T& inertia) {
  struct v3 { T x, y, z; };
  const auto cross3 = [](const v3& p, const v3& q) {
    return v3{T(p.y * q.z - p.z * q.y), T(p.z * q.x - p.x * q.z), T(p.x * q.y - p.y * q.x)};
  };
  const v3 R{r.x, r.y, T(0)}, A{a.x, a.y, T(0)}, B{b.x, b.y, T(0)};
  const v3 w = cross3(cross3(R, B), R);
  return T((A.x * w.x + A.y * w.y + A.z * w.z) / inertia);
}

// The 2D scalar form of the same term: (r x a)(r x b) / I (D-IMPULSE-3).
template <class T>
T scalar2_term(const vec2<T>& r, const vec2<T>& a, const vec2<T>& b, const T& inertia) {
  return T(cross(r, a) * cross(r, b) / inertia);
}

namespace detail {

// The contact quantities of D-IMPULSE-2, in exact arithmetic.
struct impulse_terms {
  exact un, ut;        // n.u, t.u (before)
  exact knn, knt, ktt;  // K(n,n), K(n,t), K(t,t)
};

struct exact_body {
  exact inv_mass, inv_inertia;  // 0 for a static body
  vec2<exact> velocity;
  exact angular_velocity;
  vec2<exact> r;
};

// Velocity of the contact point: v + w x r, w x r = (-w r.y, w r.x).
inline vec2<exact> point_velocity(const exact_body& b) {
  return {b.velocity.x - b.angular_velocity * b.r.y, b.velocity.y + b.angular_velocity * b.r.x};
}

// K(a, b) = sum over the bodies of a.b / m + (r x a)(r x b) / I  (D-IMPULSE-2).
inline exact effective_mass(const exact_body& b1, const exact_body& b2, const vec2<exact>& a,
                            const vec2<exact>& b) {
  exact k = 0;
  for (const exact_body* body : {&b1, &b2})
    k += body->inv_mass * dot(a, b) + body->inv_inertia * cross(body->r, a) * cross(body->r, b);
  return k;
}

// The three K's of effective_mass with each body's r x n and r x t once,
// n.n once (t.t = n.n and n.t = 0, t = (-n.y, n.x)), and no terms of a
// static body (1/m = 1/I = 0): the same exact sums.
inline impulse_terms contact_terms(const exact_body& b1, const exact_body& b2, const vec2<exact>& n) {
  const vec2<exact> t{-n.y, n.x};
  const vec2<exact> u = point_velocity(b2) - point_velocity(b1);
  const exact nn = dot(n, n);
  impulse_terms c{dot(n, u), dot(t, u), 0, 0, 0};
  for (const exact_body* body : {&b1, &b2}) {
    if (body->inv_mass != 0) {
      const exact linear = body->inv_mass * nn;
      c.knn += linear;
      c.ktt += linear;
    }
    if (body->inv_inertia != 0) {
      const exact rn = cross(body->r, n), rt = cross(body->r, t);
      c.knn += body->inv_inertia * rn * rn;
      c.knt += body->inv_inertia * rn * rt;
      c.ktt += body->inv_inertia * rt * rt;
    }
  }
  return c;
}

inline int sign(const exact& x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

struct exact_impulse {
  exact jn, jt;
  std::optional<exact> mu_cr;
  bool sticking;
};

// D-IMPULSE-4, D-IMPULSE-5: the article's decoupled model. J ignores jt and
// B ignores J: the off-diagonal K_nt is dropped (D-IMPULSE-6), so with
// friction u_n' != -e u_n and a sticking contact can still slip.
inline exact_impulse article_impulse(const impulse_terms& c, const exact& e, const exact& mu) {
  const exact J = -(1 + e) * c.un / c.knn;  // D-IMPULSE-4, > 0 for u_n < 0
  const exact B = -c.ut / c.ktt;            // D-IMPULSE-5
  const exact mu_cr = abs(B) / J;
  // mu >= |B|/J, decided exactly (J > 0).
  if (mu * J >= abs(B)) return {J, B, mu_cr, true};
  // Slide: the cone edge opposing the pre-impact slip. B != 0 here, so u_t != 0.
  return {J, exact(-mu * J * sign(c.ut)), mu_cr, false};
}

// D-IMPULSE-7: the impulse with u_n' = -e u_n and u_t' = 0.
inline std::pair<exact, exact> coupled_stick(const impulse_terms& c, const exact& e) {
  const exact det = c.knn * c.ktt - c.knt * c.knt;  // > 0 (D-IMPULSE-2)
  const exact rn = -(1 + e) * c.un, rt = -c.ut;
  return {(c.ktt * rn - c.knt * rt) / det, (c.knn * rt - c.knt * rn) / det};
}

// D-IMPULSE-8: sliding on the cone edge jt = s mu jn with u_n' = -e u_n.
inline std::pair<exact, exact> coupled_slide(const impulse_terms& c, const exact& e, const exact& mu, int s) {
  const exact den = c.knn + s * mu * c.knt;
  if (den <= 0) throw std::logic_error("impulse: sliding denominator not positive (D-IMPULSE-8 violated)");
  const exact jn = -(1 + e) * c.un / den;
  return {jn, exact(s * mu * jn)};
}

inline exact_impulse coupled_impulse(const impulse_terms& c, const exact& e, const exact& mu) {
  const auto [jn_s, jt_s] = coupled_stick(c, e);
  std::optional<exact> mu_cr;
  if (jn_s > 0) mu_cr = abs(jt_s) / jn_s;
  if (abs(jt_s) <= mu * jn_s) return {jn_s, jt_s, mu_cr, true};
  // jt* != 0 here (D-IMPULSE-8); slide towards its side of the cone.
  const auto [jn, jt] = coupled_slide(c, e, mu, sign(jt_s));
  return {jn, jt, mu_cr, false};
}

template <class T>
exact_body to_exact_body(const contact_body<T>& b, const char* name) {
  const std::string who(name);
  const auto finite = [&](const T& x, const char* what) {
    if (!is_finite(x)) throw invalid_input(who + "." + what + " must be finite");
    return to_exact(x);
  };
  exact_body out;
  out.velocity = {finite(b.velocity.x, "velocity"), finite(b.velocity.y, "velocity")};
  out.angular_velocity = finite(b.angular_velocity, "angular_velocity");
  out.r = {finite(b.r.x, "r"), finite(b.r.y, "r")};
  if (b.is_static) {
    out.inv_mass = 0;
    out.inv_inertia = 0;
  } else {
    const exact m = finite(b.mass, "mass"), i = finite(b.inertia, "inertia");
    if (m <= 0) throw invalid_input(who + ".mass must be > 0 (use a static body for infinite mass)");
    if (i <= 0) throw invalid_input(who + ".inertia must be > 0 (use a static body for infinite inertia)");
    out.inv_mass = 1 / m;
    out.inv_inertia = 1 / i;
  }
  return out;
}

// |n|^2 = 1 exactly in `exact`; within 8 eps of 1 in a binary type (a unit
// vector rounded componentwise to T is within about 2 eps, D-IMPULSE-9).
template <class T>
vec2<exact> checked_normal(const vec2<T>& n) {
  if (!is_finite(n.x) || !is_finite(n.y)) throw invalid_input("normal must be finite");
  const vec2<exact> q{to_exact(n.x), to_exact(n.y)};
  const exact nn = dot(q, q);
  if constexpr (is_exact_v<T>) {
    if (nn != 1)
      throw invalid_input("normal must be a unit vector (|n|^2 - 1 = " + brief_text(nn - 1) +
                          ", must be exactly 0 in exact)");
  } else {
    if (abs(nn - 1) > 8 * to_exact(epsilon<T>()))
      throw invalid_input("normal must be a unit vector (|n|^2 - 1 = " + brief_text(nn - 1) +
                          "; at most 8 eps of " + std::string(scalar_name<T>()) +
                          " is accepted: give the components in this precision, e.g. as decimal strings)");
  }
  return q;
}

template <class T>
exact checked_coefficients(const T& restitution, const T& friction, exact& mu) {
  if (!is_finite(restitution) || !is_finite(friction)) throw invalid_input("restitution and friction must be finite");
  const exact e = to_exact(restitution);
  mu = to_exact(friction);
  if (e < 0 || e > 1) throw invalid_input("restitution must be in [0, 1]");
  if (mu < 0) throw invalid_input("friction must be >= 0");
  return e;
}

template <class T>
T round_result(const exact& q, const char* what) {
  const T x = round_to<T>(q);
  if (!is_finite(x))
    throw invalid_input(std::string("the result ") + what + " overflows " + std::string(scalar_name<T>()) +
                        ": the input is too large for this precision (scale it, or use mp50)");
  return x;
}

struct exact_pair_result {
  exact_impulse imp;
  bool separating;
  exact_body after1, after2;
};

// The whole computation, exactly (D-IMPULSE-1..9).
inline exact_pair_result solve_pair_exact(const exact_body& b1, const exact_body& b2, const vec2<exact>& n,
                                          const exact& e, const exact& mu, impulse_model model) {
  if (b1.inv_mass == 0 && b2.inv_mass == 0) throw invalid_input("both bodies are static: no impulse can act");
  const impulse_terms c = contact_terms(b1, b2, n);
  exact_pair_result out{{0, 0, std::nullopt, false}, false, b1, b2};
  if (c.un >= 0) {  // D-IMPULSE-9: separating or resting with no approach
    out.separating = true;
    return out;
  }
  out.imp = model == impulse_model::article ? article_impulse(c, e, mu) : coupled_impulse(c, e, mu);
  const vec2<exact> t{-n.y, n.x};
  const vec2<exact> P = out.imp.jn * n + out.imp.jt * t;  // on body2; -P on body1 (D-IMPULSE-1)
  out.after2.velocity = b2.velocity + b2.inv_mass * P;
  out.after2.angular_velocity = b2.angular_velocity + b2.inv_inertia * cross(b2.r, P);
  out.after1.velocity = b1.velocity - b1.inv_mass * P;
  out.after1.angular_velocity = b1.angular_velocity - b1.inv_inertia * cross(b1.r, P);
  return out;
}

template <class T>
body_velocity<T> round_body(const exact_body& b, const char* who) {
  return {{round_result<T>(b.velocity.x, who), round_result<T>(b.velocity.y, who)},
          round_result<T>(b.angular_velocity, who)};
}

}  // namespace detail

namespace detail {

template <class T>
pair_impulse_result<T> impulse_pair_named(const contact_body<T>& body1, const contact_body<T>& body2,
                                          const vec2<T>& normal, const T& restitution, const T& friction,
                                          impulse_model model, const char* name1, const char* name2) {
  exact mu;
  const exact e = detail::checked_coefficients(restitution, friction, mu);
  const vec2<exact> n = detail::checked_normal(normal);
  const detail::exact_body b1 = detail::to_exact_body(body1, name1);
  const detail::exact_body b2 = detail::to_exact_body(body2, name2);
  const detail::exact_pair_result r = detail::solve_pair_exact(b1, b2, n, e, mu, model);
  pair_impulse_result<T> out;
  out.jn = detail::round_result<T>(r.imp.jn, "jn");
  out.jt = detail::round_result<T>(r.imp.jt, "jt");
  if (r.imp.mu_cr) out.mu_cr = detail::round_result<T>(*r.imp.mu_cr, "mu_cr");
  out.sticking = r.imp.sticking;
  out.separating = r.separating;
  out.body1_after = body1.is_static ? body_velocity<T>{body1.velocity, body1.angular_velocity}
                                    : detail::round_body<T>(r.after1, "body1_after");
  out.body2_after = body2.is_static ? body_velocity<T>{body2.velocity, body2.angular_velocity}
                                    : detail::round_body<T>(r.after2, "body2_after");
  return out;
}

}  // namespace detail

// Impulse between two bodies at one contact (D-IMPULSE-1..10).
template <class T>
pair_impulse_result<T> impulse_pair(const contact_body<T>& body1, const contact_body<T>& body2, const vec2<T>& normal,
                                    const T& restitution, const T& friction, impulse_model model) {
  return detail::impulse_pair_named(body1, body2, normal, restitution, friction, model, "body1", "body2");
}

// A body against a static wall: the pair with body1 = the wall (static, at
// rest) and body2 = the body; the normal points out of the wall towards the
// body (D-IMPULSE-1, D-IMPULSE-9). The body's is_static flag must be false.
template <class T>
wall_impulse_result<T> impulse_wall(const contact_body<T>& body, const vec2<T>& normal, const T& restitution,
                                    const T& friction, impulse_model model) {
  if (body.is_static) throw invalid_input("the body hitting a wall must not be static");
  contact_body<T> wall;
  wall.is_static = true;
  const pair_impulse_result<T> p =
      detail::impulse_pair_named(wall, body, normal, restitution, friction, model, "wall", "body");
  wall_impulse_result<T> out;
  out.jn = p.jn;
  out.jt = p.jt;
  out.mu_cr = p.mu_cr;
  out.sticking = p.sticking;
  out.separating = p.separating;
  out.velocity_after = p.body2_after.velocity;
  out.angular_velocity_after = p.body2_after.angular_velocity;
  return out;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
