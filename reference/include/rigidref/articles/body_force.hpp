// Faithful port of BodyForce.js (seed 000, 物理シミュレーション 剛体の衝突 2
// (Force Based), the articles' BodyForce.js) `projectWalls` and
// `projectCollision`, and of the integration step of the page's
// `simulate()` (collision-force.html), as the article codes them. Every quirk
// is kept and commented; derivations/solver.md D-BODYFORCE-1..8 states what
// each one breaks and tests/body_force_test.cpp measures it.
//
// Not ported: `Gjk.gjk` / `Gjk.epa` (gjk_epa.js is not in the seeds) and the
// `supportEdge` / `closestSegmentPoint` step that turns EPA's normal into
// contact points. Their output (unit normal n from A to B, A's and B's
// contact points, the penetration depth) is an INPUT here: bf_contact.
//
// Arithmetic is done in T in the JS operation order, so in double this is
// what the JS computes (up to math.js, which is also missing: its Vector2
// operations are assumed to be the plain componentwise ones the README
// lists). Constants are the JS decimal literals converted once
// (from_string<T>), so T = exact runs the article's formulas exactly, with
// 0.4 = 2/5 etc. The only non-rational steps are `normalize()` (a square
// root) and `worldShape` (cos, sin): in exact they must come out rational
// (unsupported otherwise).
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// What `Vector2.normalize()` does to a zero vector. math.js is not in the
// seeds (README "Missing modules"). A normalize that divides by the length
// gives NaN components (0/0); one written like gl-matrix's leaves the zero
// vector. D-BODYFORCE-8.
enum class zero_normalize { nan_error, keep_zero };

template <class T>
struct bf_constants {
  T g = from_string<T>("9.8");             // BodyForce.js `const g = 9.8`
  T dt = from_string<T>("0.02");           // `const dt = 0.02`
  T restitution = from_string<T>("0.5");   // walls: `const restitution = 0.5`
  T restitution2 = from_string<T>("0.4");  // pairs: `const restitution2 = 0.4`
  T mu_wall = from_string<T>("0.1");       // projectWalls `let muK = 0.1`
  T mu_pair = from_string<T>("0.5");       // projectCollision `let muK = 0.5`
  T c = from_string<T>("0.4");             // projectWalls `var c = 0.4` (D-BODYFORCE-1)
  T gate = from_string<T>("-0.3");         // projectWalls `this.vel.y < -0.3` (D-BODYFORCE-3)
  T gravity_torque_factor = from_string<T>("0.5");  // `* 0.5` (D-BODYFORCE-2)
  T push_divisor = from_string<T>("4.0");   // `penetration/4.0` (D-BODYFORCE-6)
  T push_extra = from_string<T>("0.01");    // `+0.01`
  zero_normalize normalize = zero_normalize::nan_error;
};

// The article's Body, as far as the two methods use it.
template <class T>
struct bf_body {
  T mass{1};
  T inertia{1};  // the article's this.inertia = mass * shape.inertia; invInertia = 1 / inertia
  vec2<T> pos{};
  T ang{0};
  vec2<T> vel{};
  T ang_vel{0};
  vec2<T> force{};
  vec2<T> force0{};
  T torque{0};
  vec2<T> r{};                // this.vGravityToPoint
  std::vector<vec2<T>> shape;  // local vertices, the vertex mean subtracted (the constructor)
};

template <class T>
struct bf_wall {
  vec2<T> position{};
  vec2<T> normal{};  // unit, out of the wall (page: (-sin a, cos a))
  T dist(const vec2<T>& p) const { return dot(normal, p - position); }  // page: Wall.dist
};

// What gjk_epa.js + supportEdge/closestSegmentPoint hand to the impulse code
// of projectCollision (D-BODYFORCE-7).
template <class T>
struct bf_contact {
  vec2<T> n{};          // unit, from A (this) to B (other)
  vec2<T> a_contact{};  // aContact (or aPoints[0] in the vertex case)
  vec2<T> b_contact{};  // bContact (or bPoints[0])
  T penetration{0};     // |aContact - bContact| in the JS
};

// Per wall: what projectWalls did (for the tests and the report).
template <class T>
struct bf_wall_trace {
  int count = 0;       // cnt: vertices with dist <= 0
  T dist_min{0};
  bool impulse = false;         // the gated impulse branch ran (flagCollisionF)
  bool stick = false;
  T rikiseki{0}, B{0};
  T gravity_torque{0};          // the 0.5 term added (when no impulse)
  T y_correction{0};            // -dist_min added to pos.y
};

template <class T>
struct bf_collision_trace {
  vec2<T> a_displaced{}, b_displaced{};
  T rikiseki{0}, B{0};
  bool stick = false;
  T push{0};  // penetration / 4 + 0.01
};

namespace detail {

template <class T>
T bf_abs(const T& x) { return x < 0 ? T(-x) : x; }

template <class T>
T bf_sqrt(const T& x) {
  if constexpr (is_exact_v<T>) {
    const big_int p = numerator(x), q = denominator(x);
    const big_int sp = sqrt(p), sq = sqrt(q);
    if (sp * sp != p || sq * sq != q)
      throw unsupported("BodyForce port: a length sqrt(" + brief_text(x) + ") is irrational; exact cannot run this case");
    return T(sp) / T(sq);
  } else {
    using std::sqrt;
    return sqrt(x);
  }
}

// `v.normalize()` in place (D-BODYFORCE-8).
template <class T>
void bf_normalize(vec2<T>& v, zero_normalize policy, const char* where) {
  const T len2 = T(v.x * v.x + v.y * v.y);
  if (len2 == 0) {
    if (policy == zero_normalize::keep_zero) return;
    throw unsupported(std::string("BodyForce port: ") + where +
                      ".normalize() of a zero vector (no slip at the contact): the JS gives NaN (0/0) there");
  }
  const T len = bf_sqrt(len2);
  v = {T(v.x / len), T(v.y / len)};
}

}  // namespace detail

// The constructor: shape minus its vertex mean (centerOfMass averages the
// vertices; for the article's regular polygons that is the area centroid).
template <class T>
bf_body<T> make_bf_body(const std::vector<vec2<T>>& shape, const T& shape_inertia, const vec2<T>& pos, const T& ang,
                        const T& mass) {
  if (shape.empty()) throw invalid_input("BodyForce port: empty shape");
  if (!(mass > 0) || !(shape_inertia > 0)) throw invalid_input("BodyForce port: mass and inertia must be > 0");
  bf_body<T> b;
  b.mass = mass;
  b.inertia = T(mass * shape_inertia);
  b.pos = pos;
  b.ang = ang;
  vec2<T> sum = shape[0];
  for (std::size_t i = 1; i < shape.size(); ++i) sum = {T(sum.x + shape[i].x), T(sum.y + shape[i].y)};
  const T n = T(static_cast<int>(shape.size()));
  const vec2<T> center{T(sum.x / n), T(sum.y / n)};
  for (const auto& p : shape) b.shape.push_back({T(p.x - center.x), T(p.y - center.y)});
  return b;
}

// `get worldShape()`: R(ang) p + pos. In exact only ang = 0 (cos, sin).
template <class T>
std::vector<vec2<T>> world_shape(const bf_body<T>& b) {
  T c{1}, s{0};
  if constexpr (is_exact_v<T>) {
    if (b.ang != 0) throw unsupported("BodyForce port: worldShape needs cos/sin of a nonzero angle (not rational)");
  } else {
    using std::cos;
    using std::sin;
    c = cos(b.ang);
    s = sin(b.ang);
  }
  std::vector<vec2<T>> out;
  for (const auto& p : b.shape) out.push_back({T(c * p.x - s * p.y + b.pos.x), T(s * p.x + c * p.y + b.pos.y)});
  return out;
}

// The page's simulate(), first loop: force = force0 + (0, -m g), torque = 0.
template <class T>
void begin_frame(bf_body<T>& b, const bf_constants<T>& k = {}) {
  b.force = b.force0 + vec2<T>{T(0), T(-b.mass * k.g)};
  b.torque = 0;
}

// The page's simulate(), last loop: semi-implicit Euler.
template <class T>
void integrate(bf_body<T>& b, const bf_constants<T>& k = {}) {
  const vec2<T> acc{T(b.force.x / b.mass), T(b.force.y / b.mass)};
  b.vel = b.vel + acc * k.dt;
  b.pos = b.pos + b.vel * k.dt;
  const T ang_acc = T((T(1) / b.inertia) * b.torque);
  b.ang_vel = T(b.ang_vel + ang_acc * k.dt);
  b.ang = T(b.ang + b.ang_vel * k.dt);
}

// projectWalls (D-BODYFORCE-1..5). Mutates force, torque, r, pos.
template <class T>
std::vector<bf_wall_trace<T>> project_walls(bf_body<T>& body, const std::vector<bf_wall<T>>& walls,
                                            const bf_constants<T>& k = {}) {
  std::vector<bf_wall_trace<T>> trace;
  const T inv_inertia = T(T(1) / body.inertia);
  // Quirk (D-BODYFORCE-5): the vertices are taken once, before the wall loop;
  // a pos.y correction made for one wall is not seen by the next.
  const std::vector<vec2<T>> world = world_shape(body);
  for (const bf_wall<T>& wall : walls) {
    bf_wall_trace<T> tr;
    vec2<T> point{};
    bool first = true;
    for (const auto& v : world) {
      const T d = wall.dist(v);
      if (first || d < tr.dist_min) tr.dist_min = d;  // dist_min starts at +infinity
      first = false;
      if (d <= 0) {
        point = point + v;
        ++tr.count;
      }
    }
    bool fired = false;
    if (tr.count != 0) {
      // The mean of the penetrating vertices (1 = vertex, 2 = edge contact).
      const T cnt = T(tr.count);
      point = {T(point.x / cnt), T(point.y / cnt)};
      body.r = point - body.pos;
      const vec2<T>& r = body.r;
      const vec2<T>& n = wall.normal;
      // Quirk (D-BODYFORCE-3): gated on the centre's world y velocity, not on
      // the approach speed n.v_p: no impulse below 0.3 m/s downwards (a slow
      // or sideways hit, or any hit on a wall facing sideways), and an impulse
      // that pulls when the contact point separates but the body falls.
      if (tr.dist_min <= 0 && body.vel.y < k.gate) {
        const vec2<T> vrot{T(-body.ang_vel * r.y), T(body.ang_vel * r.x)};
        const vec2<T> vp = body.vel + vrot;
        const T vpxn = cross(vp, n);
        vec2<T> tangent{T(n.y * vpxn), T(-n.x * vpxn)};  // n x (v_p x n), 2D
        detail::bf_normalize(tangent, k.normalize, "vTangent");
        const T rxn = cross(r, n);
        const T a2 = T(inv_inertia * rxn);
        const vec2<T> a3{T(-a2 * r.y), T(a2 * r.x)};
        const T rikiseki = T(-(k.restitution + T(1)) * dot(n, vp) / (T(1) / body.mass + dot(n, a3)));
        body.force = body.force + n * T(rikiseki / k.dt);
        // Quirk (D-BODYFORCE-1): the torque of the normal impulse is scaled
        // by c = 0.4 while the force is not: the angular impulse is 0.4 r x J.
        body.torque = T(body.torque + T(rxn * k.c * rikiseki / k.dt));
        // Friction (the article's B and mu_cr, D-IMPULSE-5).
        const T rxt = T(inv_inertia * cross(r, tangent));
        const T rxt2 = cross(r, tangent);
        const T c2 = dot(tangent, vec2<T>{T(-rxt * r.y), T(rxt * r.x)});
        const T B = T(-dot(tangent, vp) / (T(1) / body.mass + c2));
        // muC = |B / rikiseki|; JS: B/0 is +-Infinity or NaN and muK >= either is false.
        const bool stick = rikiseki != 0 && k.mu_wall >= detail::bf_abs(T(B / rikiseki));
        if (stick) {
          body.force = body.force + tangent * T(B / k.dt);
          body.torque = T(body.torque + T(rxt2 * k.c * B / k.dt));  // c again (D-BODYFORCE-1)
        } else {
          body.force = body.force + tangent * T(-k.mu_wall * rikiseki / k.dt);
          body.torque = T(body.torque + T(-rxt2 * k.c * k.mu_wall * rikiseki / k.dt));
        }
        fired = true;
        tr.impulse = true;
        tr.stick = stick;
        tr.rikiseki = rikiseki;
        tr.B = B;
      }
      if (!fired) {
        // Quirk (D-BODYFORCE-2): "torque of gravity and the normal force":
        // r x (0, m g) times 0.5, whatever the wall's direction, with no
        // matching force (the normal force itself is never applied).
        tr.gravity_torque = T(cross(body.r, vec2<T>{T(0), T(body.mass * k.g)}) * k.gravity_torque_factor);
        body.torque = T(body.torque + tr.gravity_torque);
      }
    }
    // Quirk (D-BODYFORCE-4): the penetration is removed along y only, by
    // |dist_min|, whatever the wall normal.
    if (tr.dist_min < 0) {
      tr.y_correction = T(-tr.dist_min);
      body.pos.y = T(body.pos.y - tr.dist_min);
    }
    trace.push_back(tr);
  }
  return trace;
}

// projectCollision from `let aContactDisplaced` on (D-BODYFORCE-6, -7):
// `a` is `this`, `b` is `other`. Mutates force, torque, r and pos of both.
template <class T>
bf_collision_trace<T> project_collision(bf_body<T>& a, bf_body<T>& b, const bf_contact<T>& c,
                                        const bf_constants<T>& k = {}) {
  bf_collision_trace<T> tr;
  const vec2<T>& n = c.n;
  const T mA = a.mass, mB = b.mass;
  // Quirk (D-BODYFORCE-7): A's contact point moves by pen mA/(mA+mB) along
  // -n and B's by pen mB/(mA+mB) along +n; the lever arms come from two
  // different points unless aContact - bContact = pen n exactly.
  tr.a_displaced = c.a_contact + n * T((-c.penetration * mA) / (mA + mB));
  tr.b_displaced = c.b_contact + n * T((c.penetration * mB) / (mA + mB));
  a.r = tr.a_displaced - a.pos;
  b.r = tr.b_displaced - b.pos;
  // Quirk (D-BODYFORCE-6): force and torque of BOTH bodies are reset: the
  // gravity of begin_frame, the wall impulses of projectWalls and any
  // earlier pair's impulses this frame are dropped.
  a.force = {T(0), T(0)};
  a.torque = 0;
  b.force = {T(0), T(0)};
  b.torque = 0;
  const vec2<T> r1 = a.r, r2 = b.r;
  const T mI1 = T(T(1) / a.inertia), mI2 = T(T(1) / b.inertia);
  const vec2<T> vp1 = a.vel + vec2<T>{T(-a.ang_vel * r1.y), T(a.ang_vel * r1.x)};
  const T vn1 = dot(vp1, n);
  const vec2<T> vp2 = b.vel + vec2<T>{T(-b.ang_vel * r2.y), T(b.ang_vel * r2.x)};
  const T vn2 = dot(vp2, n);
  const vec2<T> vp12 = vp1 - vp2;
  const T vp12xn = cross(vp12, n);
  vec2<T> tangent{T(n.y * vp12xn), T(-n.x * vp12xn)};
  detail::bf_normalize(tangent, k.normalize, "vTangential");
  const T a11 = cross(r1, n);
  const T a12 = T(mI1 * a11);
  const vec2<T> a13{T(-a12 * r1.y), T(a12 * r1.x)};
  const T a21 = cross(r2, n);
  const T a22 = T(mI2 * a21);
  const vec2<T> a23{T(-a22 * r2.y), T(a22 * r2.x)};
  // Quirk (D-BODYFORCE-6): no approach test: when the bodies overlap but
  // separate (vn1 - vn2 < 0) rikiseki > 0 pulls them together.
  const T rikiseki = T(-(k.restitution2 + T(1)) * (vn1 - vn2) / (T(1) / mA + T(1) / mB + dot(n, a13) + dot(n, a23)));
  a.force = a.force + n * T(rikiseki / k.dt);
  b.force = b.force - n * T(rikiseki / k.dt);
  a.torque = T(a.torque + T(a11 * rikiseki / k.dt));  // no c here (walls only)
  b.torque = T(b.torque - T(a21 * rikiseki / k.dt));
  const T rxt1 = cross(r1, tangent), rxt2 = cross(r2, tangent);
  const vec2<T> vA1{T(-mI1 * rxt1 * r1.y), T(mI1 * rxt1 * r1.x)};
  const vec2<T> vA2{T(-mI2 * rxt2 * r2.y), T(mI2 * rxt2 * r2.x)};
  const T B = T(-dot(tangent, vp12) / (T(1) / mA + T(1) / mB + dot(tangent, vA1 + vA2)));
  const bool stick = rikiseki != 0 && k.mu_pair >= detail::bf_abs(T(B / rikiseki));
  if (stick) {
    a.force = a.force + tangent * T(B / k.dt);
    a.torque = T(a.torque + T(rxt1 * B / k.dt));
    b.force = b.force - tangent * T(B / k.dt);
    b.torque = T(b.torque - T(rxt2 * B / k.dt));
  } else {
    a.force = a.force + tangent * T(k.mu_pair * rikiseki / k.dt);
    a.torque = T(a.torque + T(rxt1 * k.mu_pair * rikiseki / k.dt));
    b.force = b.force - tangent * T(k.mu_pair * rikiseki / k.dt);
    b.torque = T(b.torque - T(rxt2 * k.mu_pair * rikiseki / k.dt));
  }
  // Quirk (D-BODYFORCE-6): push-out by penetration/4 + 0.01 each, whatever
  // the masses: half the overlap plus 0.02 in total.
  tr.push = T(c.penetration / k.push_divisor + k.push_extra);
  a.pos = a.pos - n * tr.push;
  b.pos = b.pos + n * tr.push;
  tr.rikiseki = rikiseki;
  tr.B = B;
  tr.stick = stick;
  return tr;
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
