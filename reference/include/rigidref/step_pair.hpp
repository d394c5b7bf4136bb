// One time step of two rigid bodies (polygons or circles) that may touch:
// the reference model of the eval op step.pair (derivations/step.md,
// D-STEP-1..9).
//
//   conventions  vertices about the body origin; "position" is the origin
//                before and after the step; "velocity" is the centre of
//                mass's (Box2D, Chipmunk, planck); a static body has
//                infinite mass and zero velocity (D-STEP-1);
//   mass         polygon: mass.hpp from the density; circle: rho pi r^2,
//                m r^2 / 2 (D-STEP-2);
//   contacts     at the pre-step poses: polygon-polygon by clipping
//                (contact.hpp), circle-polygon and circle-circle one point;
//                each point midway between the two surfaces (D-STEP-4);
//   order        v* = v + g h, contact impulses on v*, then c += h v',
//                a += h w' about the centre of mass (D-STEP-5);
//   impulses     one contact: the coupled model (impulse.hpp, D-IMPULSE-7/8);
//                several: sequential impulses (solver.hpp) swept until the
//                complementarity residual is at rounding level, i.e. the
//                LCP solution; no Baumgarte bias (D-STEP-6, D-STEP-7).
//
// Types: float, double, long double, mp50, mp100. The rotation needs cos
// and sin and a circle's mass needs pi, so exact is unsupported (D-STEP-8).
// Bad input is invalid_input; no NaN is returned.
#pragma once

#include "rigidref/contact.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/impulse.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/solver.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct step_body {
  bool is_circle = false;
  std::vector<vec2<T>> vertices;  // polygon: local frame, about the body origin
  T radius{0};                    // circle: centred on the body origin
  vec2<T> position{};             // the body origin, world
  T angle{0};
  vec2<T> velocity{};  // of the centre of mass
  T angular_velocity{0};
  T density{1};
  bool is_static = false;
};

template <class T>
struct step_contact {
  vec2<T> point{};   // world, midway between the surfaces, at the pre-step poses
  vec2<T> normal{};  // unit, from body1 to body2
  T separation{0};   // < 0 penetrating
  T jn{0}, jt{0};    // impulse on body2: jn n + jt t, t = (-n.y, n.x); on body1 the negative
};

template <class T>
struct step_pair_request {
  step_body<T> body1, body2;
  T restitution{0};
  T friction{0};
  T dt{T(1) / T(60)};
  vec2<T> gravity{};
  // Restitution only where the contact approaches faster than this
  // (0: always, the reference's rule; Box2D: 1 m/s). D-STEP-6
  T restitution_threshold{0};
  int max_sweeps = 200000;  // cap of the sequential-impulse sweeps (D-STEP-7)
  // Contacts given by the caller (point and normal, from body1 to body2;
  // each normal is normalised here) in place of the reference's own
  // detection, so that the response is judged at another engine's contacts
  // apart from its detection (D-DYNENG-3). Empty optional: detect.
  std::optional<std::vector<step_contact<T>>> given_contacts;
};

template <class T>
struct step_body_state {
  vec2<T> position{};
  T angle{0};
  vec2<T> velocity{};
  T angular_velocity{0};
};

template <class T>
struct step_pair_result {
  step_body_state<T> body1_after, body2_after;
  std::vector<step_contact<T>> contacts;
  int sweeps = 0;  // sequential-impulse sweeps (0 for none or one contact)
};

// Mass properties in the body frame (D-STEP-2): centroid about the origin.
template <class T>
struct step_mass {
  T mass{0}, inertia{0};
  vec2<T> centroid{};
};

namespace detail {

// step_ prefixed: rigidref::detail also holds mass.hpp's
// require_finite_result(x, const char*), which a string literal would select,
// and scene_reference's scene_require_finite.
template <class T>
void step_require_finite(const T& x, const std::string& what) {
  if (!is_finite(x)) throw invalid_input("step.pair: " + what + " must be finite");
}

template <class T>
void step_require_finite_result(const T& x, const std::string& what) {
  if (!is_finite(x))
    throw invalid_input("step.pair: " + what + " overflows " + std::string(scalar_name<T>()) +
                        " (the input is too large for this precision)");
}

template <class T>
struct pose {
  T c, s;           // cos, sin of the angle
  vec2<T> origin;   // body origin
  vec2<T> center;   // centre of mass, world
};

template <class T>
vec2<T> rotate(const T& c, const T& s, const vec2<T>& p) {
  return {T(c * p.x - s * p.y), T(s * p.x + c * p.y)};
}

template <class T>
pose<T> pose_of(const step_body<T>& b, const step_mass<T>& m) {
  using std::cos;
  using std::sin;
  pose<T> p{T(cos(b.angle)), T(sin(b.angle)), b.position, b.position};
  p.center = b.position + rotate(p.c, p.s, m.centroid);  // D-STEP-3
  return p;
}

template <class T>
std::vector<vec2<T>> world_vertices(const step_body<T>& b, const pose<T>& p) {
  // A vertex on the straight line between its neighbours is dropped first,
  // decided exactly in body coordinates: turned by a rounded rotation, a
  // straight angle may turn either way, and the polygon would no longer be
  // convex in T (rigidref hunt found double's step.pair rejecting such a
  // valid body; D-STEP-4).
  const std::vector<vec2<T>>& v = b.vertices;
  const std::size_t n = v.size();
  std::vector<vec2<T>> out;
  for (std::size_t i = 0; i < n; ++i)
    if (orientation(v[(i + n - 1) % n], v[i], v[(i + 1) % n]) != 0) out.push_back(p.origin + rotate(p.c, p.s, v[i]));
  return out;
}

template <class T>
vec2<T> midpoint(const vec2<T>& a, const vec2<T>& b) {
  return {T((a.x + b.x) / 2), T((a.y + b.y) / 2)};
}

// Circle (centre c, radius r) against a convex polygon; normal from the
// polygon to the circle. The face of largest separation, then its end
// vertices' regions when the centre lies beyond the face's ends (D-STEP-4).
template <class T>
std::vector<step_contact<T>> circle_polygon(const vec2<T>& c, const T& r, const std::vector<vec2<T>>& poly,
                                           const T& margin = T(0)) {
  using std::sqrt;
  const std::size_t n = poly.size();
  T twice_area{0};
  for (std::size_t i = 0; i < n; ++i) twice_area = T(twice_area + cross(poly[i], poly[(i + 1) % n]));
  const T turn = twice_area > 0 ? T(1) : T(-1);
  std::size_t best = n;
  T best_sep{0};
  vec2<T> best_normal{};
  for (std::size_t i = 0; i < n; ++i) {
    const vec2<T> e = poly[(i + 1) % n] - poly[i];
    const T len = T(sqrt(T(dot(e, e))));
    if (len == 0) continue;
    const vec2<T> nn{T(turn * e.y / len), T(-turn * e.x / len)};  // outward
    const T sep = dot(nn, c - poly[i]);
    if (best == n || sep > best_sep) {
      best = i;
      best_sep = sep;
      best_normal = nn;
    }
  }
  if (best_sep > r + margin) return {};
  const vec2<T> a = poly[best], b = poly[(best + 1) % n];
  vec2<T> normal = best_normal, surface;
  if (best_sep <= 0) {
    surface = c - best_sep * normal;  // centre inside: project on the face
  } else {
    const vec2<T> e = b - a;
    const T u = dot(c - a, e), el = dot(e, e);
    if (u <= 0 || u >= el) {  // beyond an end: the vertex is the closest point
      const vec2<T> v = u <= 0 ? a : b;
      const vec2<T> d = c - v;
      const T d2 = dot(d, d);
      if (d2 > T((r + margin) * (r + margin))) return {};
      const T len = T(sqrt(d2));
      if (len == 0) return {};  // the centre on the vertex with the face separation > 0: impossible
      normal = {T(d.x / len), T(d.y / len)};
      surface = v;
    } else {
      surface = c - best_sep * normal;
    }
  }
  step_contact<T> k;
  k.normal = normal;
  k.point = midpoint(surface, c - r * normal);
  k.separation = T(dot(c - surface, normal) - r);
  return {k};
}

template <class T>
std::vector<step_contact<T>> circle_circle(const vec2<T>& c1, const T& r1, const vec2<T>& c2, const T& r2,
                                          const T& margin = T(0)) {
  using std::sqrt;
  const vec2<T> d = c2 - c1;
  const T d2 = dot(d, d), rr = T(r1 + r2), reach = T(rr + margin);
  if (d2 > T(reach * reach)) return {};
  const T len = T(sqrt(d2));
  step_contact<T> k;
  k.normal = len == 0 ? vec2<T>{T(1), T(0)} : vec2<T>{T(d.x / len), T(d.y / len)};  // coincident: Box2D's (1, 0)
  k.point = midpoint(c1 + r1 * k.normal, c2 - r2 * k.normal);
  k.separation = T(len - rr);
  return {k};
}

// The contact points and normal (body1 to body2) at the pre-step poses
// (D-STEP-4). `margin` > 0 also keeps points apart by up to that distance
// (scene.run, D-SCENERUN-1); step.pair keeps touching and penetrating ones.
template <class T>
std::vector<step_contact<T>> contacts_of(const step_body<T>& b1, const pose<T>& p1, const step_body<T>& b2,
                                         const pose<T>& p2, const T& margin = T(0)) {
  if (b1.is_circle && b2.is_circle) return circle_circle(p1.origin, b1.radius, p2.origin, b2.radius, margin);
  if (b1.is_circle || b2.is_circle) {
    const bool first = b1.is_circle;
    const step_body<T>& circ = first ? b1 : b2;
    const step_body<T>& poly = first ? b2 : b1;
    std::vector<step_contact<T>> k = circle_polygon(first ? p1.origin : p2.origin, circ.radius,
                                                    world_vertices(poly, first ? p2 : p1), margin);
    if (first)
      for (auto& c : k) c.normal = -c.normal;  // polygon -> circle is body2 -> body1
    return k;
  }
  const std::vector<vec2<T>> w1 = world_vertices(b1, p1), w2 = world_vertices(b2, p2);
  contact_options opt;
  if (margin > 0) {  // relative to L, the larger bounding-box side of the smaller polygon (D-CONTACT-5)
    const auto side = [](const std::vector<vec2<T>>& w) {
      T lo_x = w[0].x, hi_x = w[0].x, lo_y = w[0].y, hi_y = w[0].y;
      for (const vec2<T>& p : w) {
        lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x), lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
      }
      return std::max(T(hi_x - lo_x), T(hi_y - lo_y));
    };
    opt.relative_margin = static_cast<double>(round_to<double>(to_exact(T(margin / std::min(side(w1), side(w2))))));
  }
  const contact_manifold<T> m = collide_polygons<T>(w1, w2, opt);  // D-CONTACT-1..6
  std::vector<step_contact<T>> out;
  if (m.status == contact_status::separated && margin == 0) return out;
  for (const auto& mp : m.points) {
    step_contact<T> k;
    k.normal = m.normal;  // from A = body1 to B = body2
    k.point = midpoint(mp.point, mp.reference_point);
    k.separation = mp.separation;
    out.push_back(k);
  }
  return out;
}

}  // namespace detail

// Mass properties of one body (D-STEP-2); invalid_input for a non-convex,
// degenerate or non-finite polygon, a radius <= 0 or a density <= 0.
template <class T>
step_mass<T> step_body_mass(const step_body<T>& b, const std::string& name) {
  static_assert(!is_exact_v<T>, "step.pair needs cos, sin and pi: exact is unsupported (D-STEP-8)");
  detail::step_require_finite(b.density, name + ".density");
  if (!b.is_static && !(b.density > 0)) throw invalid_input("step.pair: " + name + ".density must be > 0");
  const T rho = b.density > 0 ? b.density : T(1);  // a static body's mass is never used
  step_mass<T> m;
  if (b.is_circle) {
    detail::step_require_finite(b.radius, name + ".radius");
    if (!(b.radius > 0)) throw invalid_input("step.pair: " + name + ".radius must be > 0");
    m.mass = T(rho * boost::math::constants::pi<T>() * b.radius * b.radius);
    m.inertia = T(m.mass * b.radius * b.radius / 2);
  } else {
    const std::span<const vec2<T>> v(b.vertices);
    detail::require_convex(v, (name + ".vertices").c_str());
    const mass_properties<T> p = polygon_mass_from_density<T>(v, rho);
    m.mass = p.mass;
    m.inertia = p.inertia;
    m.centroid = p.centroid;
  }
  detail::step_require_finite_result(m.mass, name + " mass");
  detail::step_require_finite_result(m.inertia, name + " inertia");
  if (!b.is_static && !(m.mass > 0 && m.inertia > 0))
    throw invalid_input("step.pair: " + name + ": mass or inertia underflows " + std::string(scalar_name<T>()));
  return m;
}

namespace detail {

template <class T>
void validate(const step_pair_request<T>& q) {
  for (const step_body<T>* b : {&q.body1, &q.body2}) {
    const std::string who = b == &q.body1 ? "body1" : "body2";
    step_require_finite(b->position.x, who + ".position");
    step_require_finite(b->position.y, who + ".position");
    step_require_finite(b->angle, who + ".angle");
    step_require_finite(b->velocity.x, who + ".velocity");
    step_require_finite(b->velocity.y, who + ".velocity");
    step_require_finite(b->angular_velocity, who + ".angular_velocity");
  }
  step_require_finite(q.restitution, std::string("restitution"));
  step_require_finite(q.friction, std::string("friction"));
  step_require_finite(q.dt, std::string("dt"));
  step_require_finite(q.gravity.x, std::string("gravity"));
  step_require_finite(q.gravity.y, std::string("gravity"));
  step_require_finite(q.restitution_threshold, std::string("restitution_threshold"));
  if (q.restitution < 0 || q.restitution > 1) throw invalid_input("step.pair: restitution must be in [0, 1]");
  if (q.friction < 0) throw invalid_input("step.pair: friction must be >= 0");
  if (!(q.dt > 0)) throw invalid_input("step.pair: dt must be > 0");
  if (q.restitution_threshold < 0) throw invalid_input("step.pair: restitution_threshold must be >= 0");
  if (q.given_contacts)
    for (const step_contact<T>& c : *q.given_contacts) {
      step_require_finite(c.point.x, std::string("given contact point"));
      step_require_finite(c.point.y, std::string("given contact point"));
      step_require_finite(c.normal.x, std::string("given contact normal"));
      step_require_finite(c.normal.y, std::string("given contact normal"));
      if (c.normal.x == 0 && c.normal.y == 0) throw invalid_input("step.pair: a given contact normal is zero");
    }
}

// A given contact with its normal made unit (D-DYNENG-3).
template <class T>
step_contact<T> given_contact(const step_contact<T>& c) {
  using std::sqrt;
  const T length = T(sqrt(T(c.normal.x * c.normal.x + c.normal.y * c.normal.y)));
  step_contact<T> k;
  k.point = c.point;
  k.normal = {T(c.normal.x / length), T(c.normal.y / length)};
  return k;
}

// u_n of v* at the contact, exactly on T's values: the threshold's decision (D-STEP-6).
template <class T>
bool approaches_faster(const contact_body<T>& a, const contact_body<T>& b, const vec2<T>& n, const T& threshold) {
  auto point_velocity = [](const contact_body<T>& k) {
    const exact w = k.is_static ? exact(0) : to_exact(k.angular_velocity);
    const vec2<exact> v{k.is_static ? exact(0) : to_exact(k.velocity.x), k.is_static ? exact(0) : to_exact(k.velocity.y)};
    return vec2<exact>{v.x - w * to_exact(k.r.y), v.y + w * to_exact(k.r.x)};
  };
  const vec2<exact> u = point_velocity(b) - point_velocity(a);
  const exact un = to_exact(n.x) * u.x + to_exact(n.y) * u.y;
  return un < -to_exact(threshold);
}

}  // namespace detail

// One step (D-STEP-1..8).
template <class T>
step_pair_result<T> step_pair(const step_pair_request<T>& q) {
  using detail::step_require_finite_result;
  detail::validate(q);
  const step_mass<T> m1 = step_body_mass(q.body1, "body1"), m2 = step_body_mass(q.body2, "body2");
  const detail::pose<T> p1 = detail::pose_of(q.body1, m1), p2 = detail::pose_of(q.body2, m2);
  const step_body<T>* body[2] = {&q.body1, &q.body2};
  const step_mass<T>* mass[2] = {&m1, &m2};
  const detail::pose<T>* pose[2] = {&p1, &p2};

  // D-STEP-5: gravity first; a static body has zero velocity (D-STEP-1).
  vec2<T> v[2];
  T w[2];
  for (int i = 0; i < 2; ++i) {
    v[i] = body[i]->is_static ? vec2<T>{} : body[i]->velocity + q.dt * q.gravity;
    w[i] = body[i]->is_static ? T(0) : body[i]->angular_velocity;
  }

  step_pair_result<T> out;
  if (q.given_contacts)
    for (const step_contact<T>& c : *q.given_contacts) out.contacts.push_back(detail::given_contact(c));
  else
    out.contacts = detail::contacts_of(q.body1, p1, q.body2, p2);
  const bool both_static = q.body1.is_static && q.body2.is_static;
  if (out.contacts.size() == 1 && !both_static) {  // D-STEP-6: the coupled model
    step_contact<T>& k = out.contacts[0];
    contact_body<T> cb[2];
    for (int i = 0; i < 2; ++i) {
      cb[i].mass = mass[i]->mass;
      cb[i].inertia = mass[i]->inertia;
      cb[i].velocity = v[i];
      cb[i].angular_velocity = w[i];
      cb[i].r = k.point - pose[i]->center;
      cb[i].is_static = body[i]->is_static;
    }
    const T e = q.restitution_threshold > 0 && !detail::approaches_faster(cb[0], cb[1], k.normal, q.restitution_threshold)
                    ? T(0)
                    : q.restitution;
    const pair_impulse_result<T> r = impulse_pair<T>(cb[0], cb[1], k.normal, e, q.friction, impulse_model::coupled);
    k.jn = r.jn;
    k.jt = r.jt;
    v[0] = r.body1_after.velocity;
    w[0] = r.body1_after.angular_velocity;
    v[1] = r.body2_after.velocity;
    w[1] = r.body2_after.angular_velocity;
  } else if (out.contacts.size() > 1 && !both_static) {  // D-STEP-7: sweeps to the LCP solution
    std::vector<solver_body<T>> sb(2);
    for (int i = 0; i < 2; ++i) {
      sb[i].mass = mass[i]->mass;
      sb[i].inertia = mass[i]->inertia;
      sb[i].position = pose[i]->center;
      sb[i].velocity = v[i];
      sb[i].angular_velocity = w[i];
      sb[i].is_static = body[i]->is_static;
    }
    std::vector<solver_contact<T>> sc;
    std::vector<contact_coefficients<T>> k;
    for (const auto& c : out.contacts) {
      solver_contact<T> s;
      s.body_a = 0;
      s.body_b = 1;
      s.point = c.point;
      s.normal = c.normal;
      sc.push_back(s);
      k.push_back({q.friction, q.restitution});
    }
    solver_params<T> sp;
    sp.iterations = 64;
    sp.dt = q.dt;
    sp.warm_start = true;  // each chunk continues from the last chunk's impulses
    // Velocity scale of the problem: the residual is a velocity (D-SOLVER-7).
    T scale{0};
    using std::abs;
    for (int i = 0; i < 2; ++i) {
      T reach{0};
      for (const auto& c : out.contacts) {
        const vec2<T> r = c.point - pose[i]->center;
        reach = std::max(reach, T(abs(r.x) + abs(r.y)));
      }
      scale = std::max(scale, T(abs(v[i].x) + abs(v[i].y) + abs(w[i]) * reach));
    }
    const T tolerance = T(64 * epsilon<T>() * (1 + q.restitution) * scale);
    solver_result<T> r;
    for (out.sweeps = 0;;) {
      r = solve_contacts(sb, sc, k, q.restitution_threshold, sp);
      out.sweeps += sp.iterations;
      if (r.residual <= tolerance) break;
      if (out.sweeps >= q.max_sweeps)
        throw no_convergence("step.pair: sequential impulses did not reach the LCP solution in " +
                             std::to_string(out.sweeps) + " sweeps (residual " + to_string(to_exact(r.residual)) + ")");
      for (std::size_t j = 0; j < sc.size(); ++j) {
        sc[j].normal_impulse = r.contacts[j].normal_impulse;
        sc[j].tangent_impulse = r.contacts[j].tangent_impulse;
      }
    }
    for (std::size_t j = 0; j < out.contacts.size(); ++j) {
      out.contacts[j].jn = r.contacts[j].normal_impulse;
      out.contacts[j].jt = r.contacts[j].tangent_impulse;
    }
    for (int i = 0; i < 2; ++i) {
      if (body[i]->is_static) continue;
      v[i] = r.velocity[i];
      w[i] = r.angular_velocity[i];
    }
  }

  // D-STEP-5: semi-implicit Euler about the centre of mass, then the origin.
  step_body_state<T>* after[2] = {&out.body1_after, &out.body2_after};
  for (int i = 0; i < 2; ++i) {
    const std::string who = i == 0 ? "body1_after" : "body2_after";
    step_body_state<T>& a = *after[i];
    if (body[i]->is_static) {
      a = {body[i]->position, body[i]->angle, vec2<T>{}, T(0)};
      continue;
    }
    a.velocity = v[i];
    a.angular_velocity = w[i];
    a.angle = T(body[i]->angle + q.dt * w[i]);
    const vec2<T> center = pose[i]->center + q.dt * v[i];
    using std::cos;
    using std::sin;
    const T c = T(cos(a.angle)), s = T(sin(a.angle));
    a.position = center - detail::rotate(c, s, mass[i]->centroid);
    for (const T* x : {&a.position.x, &a.position.y, &a.angle, &a.velocity.x, &a.velocity.y, &a.angular_velocity})
      step_require_finite_result(*x, who);
  }
  return out;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
