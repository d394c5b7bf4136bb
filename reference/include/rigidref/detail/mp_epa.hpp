// EPA's steps after its loop for mp50 / mp100 inputs without rationals where
// a bound settles them (issue 28 item 10): the axis minimum of D-EPA-5 with
// every decision in double on the proved-error inputs of D-GJK-25 (D-EPA-20),
// and the depth, normal and witnesses of the winning axis from an integer
// frame (D-EPA-21), each rounded as the exact route rounds it. Anything not
// proved returns false and the caller runs its exact route unchanged.
// Included by epa_query.hpp after epa_result.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/detail/core_query.hpp"
#include "rigidref/detail/epa_axis.hpp"
#include "rigidref/detail/epa_loop.hpp"
#include "rigidref/detail/gjk_values.hpp"
#include "rigidref/detail/mp_frame_values.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/detail/mp_round.hpp"
#include "rigidref/detail/mp_sqrt.hpp"
#include "rigidref/filter.hpp"

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// Which exact vector a candidate axis is (as epa_axis_key, D-EPA-8): A's edge
// i1, B's edge j1 (negated outward normal), or the face normal of
// (A[i1] - B[j1], A[i2] - B[j2]).
struct mp_axis_cand {
  epa_axis_key key;
  fvec<double> n;
  fv<double> o, n2;
  std::size_t ia = 0, ib = 0;
  std::optional<axis_overlap> ex;  // exact, on demand
};

// D-EPA-8's decisions for mp inputs: each in double on the inputs of
// D-GJK-25 (value and proved bound), exactly on the rationals of the
// core_contact when the bound does not decide. D-EPA-20
template <class T>
struct mp_epa_filter {
  std::span<const vec2<T>> a, b;
  const std::vector<fvec<double>>& fa;
  const std::vector<fvec<double>>& fb;
  const core_contact<T>& cc;

  evec exact_normal(const epa_axis_key& k) const { return epa_exact_normal(cc, k); }

  fvec<double> filtered_normal(const epa_axis_key& k) const {
    const std::size_t na = a.size(), nb = b.size();
    if (k.kind == 0) {
      const fvec<double> e = fsub(fa[(k.i1 + 1) % na], fa[k.i1]);
      return {e.y, fneg(e.x)};
    }
    if (k.kind == 1) {
      const fvec<double> e = fsub(fb[(k.j1 + 1) % nb], fb[k.j1]);
      return {fneg(e.y), e.x};
    }
    const fvec<double> e = fsub(fsub(fa[k.i2], fb[k.j2]), fsub(fa[k.i1], fb[k.j1]));
    return {e.y, fneg(e.x)};
  }

  const axis_overlap& exact_of(mp_axis_cand& c) const {
    if (!c.ex) {
      axis_overlap x;
      x.n = exact_normal(c.key);
      x.o = dot(x.n, cc.A()[c.ia]) - dot(x.n, cc.B()[c.ib]);
      x.ia = c.ia;
      x.ib = c.ib;
      c.ex = std::move(x);
    }
    return *c.ex;
  }

  // Sign of n . (P[j] - P[i]), P = A (on_a) or B.
  int compare(const epa_axis_key& k, const fvec<double>& n, bool on_a, std::size_t j, std::size_t i) const {
    const std::size_t count = on_a ? a.size() : b.size();
    if (k.kind == (on_a ? 0 : 1)) {  // an edge's own normal at its end points: 0 (D-EPA-8)
      const std::size_t e0 = on_a ? k.i1 : k.j1, e1 = (e0 + 1) % count;
      if ((i == e0 && j == e1) || (i == e1 && j == e0)) return 0;
    }
    const auto& P = on_a ? fa : fb;
    const int s = fsign(fdot(n, fsub(P[j], P[i])));
    if (s != 0) return s;
    const epoly& E = on_a ? cc.A() : cc.B();
    const exact d = dot(exact_normal(k), E[j] - E[i]);
    return d > 0 ? 1 : (d < 0 ? -1 : 0);
  }

  std::size_t argmax(const epa_axis_key& k, const fvec<double>& n, bool on_a, int sign, std::size_t start) const {
    return uphill_walk(on_a ? a.size() : b.size(), start,
                       [&](std::size_t j, std::size_t i) { return sign * compare(k, n, on_a, j, i) > 0; });
  }

  mp_axis_cand candidate(const epa_axis_key& k, const fvec<double>& n, std::size_t ia0, std::size_t ib0) const {
    mp_axis_cand c;
    c.key = k;
    c.n = n;
    c.ia = k.kind == 0 ? k.i1 : argmax(k, n, true, 1, ia0);  // D-EPA-8: an edge's own polygon
    c.ib = k.kind == 1 ? k.j1 : argmax(k, n, false, -1, ib0);
    c.o = fdot(n, fsub(fa[c.ia], fb[c.ib]));
    c.n2 = fdot(n, n);
    return c;
  }

  int o_sign(mp_axis_cand& c) const {
    const int s = fsign(c.o);
    if (s != 0) return s;
    const exact& o = exact_of(c).o;
    return o > 0 ? 1 : (o < 0 ? -1 : 0);
  }

  bool smaller(mp_axis_cand& x, mp_axis_cand& y) const {
    const bool xn = o_sign(x) < 0, yn = o_sign(y) < 0;
    if (xn != yn) return xn;
    const int s = fsign(fsub(fmul(fmul(x.o, x.o), y.n2), fmul(fmul(y.o, y.o), x.n2)));
    if (s != 0) return xn ? s > 0 : s < 0;
    return smaller_overlap(exact_of(x), exact_of(y));
  }
};

// epa_exact_axis's winner, candidate for candidate in its order (the
// repeated vectors skipped as D-EPA-8 does). D-EPA-20
template <class T>
mp_axis_cand mp_epa_best(const mp_epa_filter<T>& f, const epa_run<T>& run) {
  const std::size_t na = f.a.size(), nb = f.b.size();
  static thread_local std::vector<epa_axis_key> seen;
  seen.clear();
  bool have = false;
  mp_axis_cand best;
  auto consider = [&](const epa_axis_key& k, std::size_t ia, std::size_t ib) {
    for (const auto& s : seen)
      if (s == k) return;
    seen.push_back(k);
    const fvec<double> n = f.filtered_normal(k);
    if (k.kind == 2 && fsign(n.x) == 0 && fsign(n.y) == 0 && is_zero_vec(f.exact_normal(k))) return;
    mp_axis_cand c = f.candidate(k, n, ia, ib);
    if (!have || f.smaller(c, best)) {
      have = true;
      best = std::move(c);
    }
  };
  for (const auto& face : run.shortlist) {
    const std::size_t ia = face[0].ia, ib = face[0].ib;
    epa_axis_key fk{2, face[0].ia, face[0].ib, face[1].ia, face[1].ib};
    if (fk.j1 == fk.j2 && na > 1 && fk.i2 == (fk.i1 + 1) % na) fk = {0, fk.i1, 0, 0, 0};
    else if (fk.i1 == fk.i2 && nb > 1 && fk.j2 == (fk.j1 + 1) % nb) fk = {1, 0, fk.j1, 0, 0};
    consider(fk, ia, ib);
    for (const auto& m : face) {
      if (na > 1)
        for (std::size_t k : {(m.ia + na - 1) % na, m.ia}) consider({0, k, 0, 0, 0}, ia, ib);
      if (nb > 1)
        for (std::size_t k : {(m.ib + nb - 1) % nb, m.ib}) consider({1, 0, k, 0, 0}, ia, ib);
    }
  }
  for (const auto& m : run.near_supports) {
    if (na > 1)
      for (std::size_t k : {(m.ia + na - 1) % na, m.ia}) consider({0, k, 0, 0, 0}, m.ia, m.ib);
    if (nb > 1)
      for (std::size_t k : {(m.ib + nb - 1) % nb, m.ib}) consider({1, 0, k, 0, 0}, m.ia, m.ib);
  }
  if (!have) throw std::logic_error("EPA: empty shortlist (internal error)");
  return best;
}

// The mp inputs of a polygon as filtered doubles (D-GJK-25), into `out`;
// false when one is out of range.
template <class T>
bool mp_filtered_points(std::span<const vec2<T>> v, std::vector<fvec<double>>& out) {
  out.resize(v.size());
  for (std::size_t k = 0; k < v.size(); ++k)
    if (!mp_filtered_point(v[k], out[k])) return false;
  return true;
}

// unit_rounded's coordinate RN_T(RN_W(x 2^k) / sqrt_W(RN_W(n2 2^(2k)))) of
// an integer vector (x one coordinate, n2 its squared length): 0 gives +0,
// else sign(x) sqrt(x^2 / n2) rounded by D-EPA-22 when proved, else the W
// operations themselves. D-EPA-21, D-EPA-22
template <class T>
T mp_unit_component(const big_int& x, const big_int& n2, long k) {
  using A = accumulator<T>;
  using W = typename A::type;
  if (x == 0) return T(0);
  T r;
  if (mp_sqrt_quotient<T>(big_int(x * x), n2, 0, r)) return x < 0 ? T(-r) : r;
  const W len = A::sqrt(round_quotient<W>(n2, big_int(1), 2 * k));
  return round_accumulated<T>(round_quotient<W>(x, big_int(1), k) / len);
}

// Depth, normal and witnesses of the winning axis from an integer frame,
// rounded as penetration_from_core rounds them from the exact axis
// (D-EPA-6, D-EPA-7 with ra = rb = 0); o > 0 is proved by the caller. False
// (exact route) for parallel extreme edges on both sides or a refused frame.
// D-EPA-21
template <class T>
bool mp_epa_axis_values(const mp_epa_filter<T>& f, mp_axis_cand& c, epa_result<T>& out) {
  using A = accumulator<T>;
  using W = typename A::type;
  const std::size_t na = f.a.size(), nb = f.b.size();
  // Partners at the same level along n (epa_witnesses), decided as D-EPA-8.
  auto partner = [&](bool on_a, std::size_t k) -> std::size_t {
    const std::size_t count = on_a ? na : nb;
    if (count == 1) return k;
    const std::size_t next = (k + 1) % count, prev = (k + count - 1) % count;
    if (f.compare(c.key, c.n, on_a, next, k) == 0) return next;
    if (f.compare(c.key, c.n, on_a, prev, k) == 0) return prev;
    return k;
  };
  const bool vertex_a = partner(true, c.ia) == c.ia;
  if (!vertex_a && partner(false, c.ib) != c.ib) return false;  // parallel edges: exact route
  // The points of n (two of one polygon, or four for a face), then A[ia], B[ib].
  const vec2<T>*p0, *p1, *p2 = nullptr, *p3 = nullptr;
  if (c.key.kind == 0) {
    p0 = &f.a[c.key.i1];
    p1 = &f.a[(c.key.i1 + 1) % na];
  } else if (c.key.kind == 1) {
    p0 = &f.b[c.key.j1];
    p1 = &f.b[(c.key.j1 + 1) % nb];
  } else {
    p0 = &f.a[c.key.i1];
    p1 = &f.b[c.key.j1];
    p2 = &f.a[c.key.i2];
    p3 = &f.b[c.key.j2];
  }
  const vec2<T>& va = f.a[c.ia];
  const vec2<T>& vb = f.b[c.ib];
  std::array<big_int, 12> X;
  long k = 0;
  const T zero(0);
  const vec2<T> z{zero, zero};
  if (!p2) p2 = p3 = &z;
  if (!mp_to_frame<T, 12>({&p0->x, &p0->y, &p1->x, &p1->y, &p2->x, &p2->y, &p3->x, &p3->y, &va.x, &va.y, &vb.x, &vb.y},
                          X, k))
    return false;
  big_int nx, ny;  // n in the frame (scale 2^k)
  if (c.key.kind == 0) {
    nx = X[3] - X[1];
    ny = X[0] - X[2];
  } else if (c.key.kind == 1) {
    nx = X[1] - X[3];
    ny = X[2] - X[0];
  } else {  // e = (A[i2] - B[j2]) - (A[i1] - B[j1]); n = (e.y, -e.x)
    const big_int ex = (X[4] - X[6]) - (X[0] - X[2]), ey = (X[5] - X[7]) - (X[1] - X[3]);
    nx = ey;
    ny = -ex;
  }
  const big_int dx = X[8] - X[10], dy = X[9] - X[11];
  const big_int o = nx * dx + ny * dy;  // scale 2^(2k)
  const big_int n2 = nx * nx + ny * ny;  // scale 2^(2k)
  if (o <= 0 || n2 == 0) return false;  // proved otherwise by the caller; kept as a guard
  // depth = RN_T(sqrt_W(RN_W(o^2 / n2)) + ra + rb), ra = rb = 0 (D-EPA-6,
  // D-EPA-7): the root o / sqrt(n2) 2^k when D-EPA-22 proves its rounding,
  // else those W operations. normal = unit_rounded(n):
  // RN_T(RN_W(n_i) / sqrt_W(RN_W(n2))), n_i / |n| = sign(n_i) |n_i| / sqrt(n2)
  // (D-EPA-22), else the W operations. The three roots share n2: their
  // candidates come from one reciprocal root (mp_shared_roots).
  std::array<T, 3> root;
  std::array<bool, 3> proved{};
  mp_shared_roots<T, 3>({&o, &nx, &ny}, n2, {k, 0, 0}, root, proved);
  if (proved[0]) {
    out.depth = root[0];
  } else if (!mp_sqrt_quotient<T>(big_int(o * o), n2, 2 * k, out.depth)) {
    const W core_depth = A::sqrt(round_quotient<W>(big_int(o * o), n2, 2 * k));
    out.depth = round_accumulated<T>(core_depth + A::from(T(0)) + A::from(T(0)));
  }
  out.normal = {proved[1] ? (nx < 0 ? T(-root[1]) : root[1]) : mp_unit_component<T>(nx, n2, k),
                proved[2] ? (ny < 0 ? T(-root[2]) : root[2]) : mp_unit_component<T>(ny, n2, k)};
  // Witnesses (epa_witnesses, offset_rounded with s = 0: round_vec): the
  // vertex itself and the vertex -+ (o / n2) n, numerators at scale 2^(3k).
  const big_int& vx = vertex_a ? X[8] : X[10];
  const big_int& vy = vertex_a ? X[9] : X[11];
  const vec2<T>& vertex = vertex_a ? va : vb;  // RN_T of an input is itself, +0 for a zero
  const vec2<T> rv{vertex.x == 0 ? T(0) : vertex.x, vertex.y == 0 ? T(0) : vertex.y};
  const big_int wx = o * nx, wy = o * ny;
  const vec2<T> ro{round_quotient<T>(vertex_a ? big_int(vx * n2 - wx) : big_int(vx * n2 + wx), n2, k),
                   round_quotient<T>(vertex_a ? big_int(vy * n2 - wy) : big_int(vy * n2 + wy), n2, k)};
  out.point_a = vertex_a ? rv : ro;
  out.point_b = vertex_a ? ro : rv;
  return true;
}

// penetration_from_core's steps after a converged EPA loop for mp inputs:
// true with depth, normal, witnesses and status filled when the winner's
// o > 0 is proved and its values come from the frame (two polygons, no
// radii); otherwise false, with `ax` set to the winner's exact axis when the
// decisions ran (the axis epa_exact_axis gives, D-EPA-8) and left empty when
// they did not (then the caller runs epa_exact_axis). D-EPA-20, D-EPA-21
template <class T>
bool mp_epa_overlap(const core_contact<T>& cc, std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                    const epa_run<T>& run, const T& ra, const T& rb, std::optional<axis_overlap>& ax,
                    epa_result<T>& out) {
  if constexpr (!is_cpp_bin_float_v<T>) {
    return false;
  } else {
    if (filter_force_exact()) return false;
    static thread_local std::vector<fvec<double>> fa, fb;
    if (!mp_filtered_points(a, fa) || !mp_filtered_points(b, fb)) return false;
    const mp_epa_filter<T> f{a, b, fa, fb, cc};
    mp_axis_cand best = mp_epa_best(f, run);
    ++mp_route_stats().epa_axis;
    if (ra == 0 && rb == 0 && a.size() > 1 && b.size() > 1 && f.o_sign(best) > 0) {
      epa_result<T> r = out;
      if (mp_epa_axis_values(f, best, r)) {
        ++mp_route_stats().frame_values;
        r.status = collision_status::converged;  // not capped (else the fallback ran), o > 0
        out = r;
        return true;
      }
    }
    ax = f.exact_of(best);
    return false;
  }
}

// penetration_from_core's values for two mp polygons (no radii) proved apart
// by the certificate of D-GJK-25: distance and closest points as
// distance_from_core's frame (D-GJK-26), and the unit normal of q - p from
// the same frame; false hands over to the exact route. D-EPA-21
template <class T>
bool mp_epa_separated(const core_contact<T>& c, const T& ra, const T& rb, epa_result<T>& out) {
  if constexpr (!is_cpp_bin_float_v<T>) {
    return false;
  } else {
    if (!c.lazy_closest || ra != 0 || rb != 0 || filter_force_exact()) return false;
    epa_result<T> r = out;
    if (!mp_separated_values<T>(c.a, c.b, c.fa, c.fb, r.distance, r.point_a, r.point_b, &r.normal)) return false;
    ++mp_route_stats().frame_values;
    r.intersecting = false;  // |q - p|^2 > 0 = (ra + rb)^2
    r.depth = T(0);
    r.status = status_of(c.capped, false);
    out = r;
    return true;
  }
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
