// The article's contact points (seed 000, BodyForce.js, Body.projectCollision),
// ported as coded, every quirk kept and commented (derivations/contact.md,
// D-CONTACT-7..10). Written in C++ from the article's code, not copied.
//
// After GJK/EPA gives the unit normal n (from A to B), the article:
//   1. classifies the contact by supportEdge (0.01 absolute tolerance,
//      articles::support_edge) of A along n and of B along -n;
//   2. 2 + 2 points, "edge-edge": the centroid c of the four support points,
//      aContact / bContact = closestSegmentPoint(c, edge) on each edge;
//      2 + 1 or 1 + 2, "vertex-edge": the edge's closest point to the other
//      body's vertex, and the vertex itself;
//      1 + 1: `throw "Weird collision"` (here: articles::weird_collision);
//   3. recomputes the penetration as |aContact - bContact| (EPA's depth is
//      destructured as `dist` and never used);
//   4. displaces A's point by -n pen mA/(mA + mB) and B's by
//      +n pen mB/(mA + mB); the displaced points are what the impulse code
//      uses (vGravityToPoint = displaced - pos).
//
// Floating T only (closestSegmentPoint and getLength take square roots);
// exact throws unsupported. The double instantiation is the JS's arithmetic.
#pragma once

#include "rigidref/articles/collision_helpers.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// What the JS throws as the string "Weird collision": both supportEdge calls
// returned a single vertex (D-CONTACT-9). A domain_error: for this input the
// article's construction has no answer (the eval protocol's domain_error).
struct weird_collision : rigidref::domain_error {
  weird_collision() : rigidref::domain_error("Weird collision") {}
};

enum class article_contact_kind {
  edge_edge,    // 2 + 2 support points
  edge_vertex,  // A's support is an edge, B's a vertex (the JS's aPoints.length == 2)
  vertex_edge,  // A's support is a vertex, B's an edge ("bPoints.length == 2!")
};

template <class T>
struct article_contact {
  article_contact_kind kind = article_contact_kind::edge_edge;
  std::vector<std::size_t> a_support, b_support;  // supportEdge's indices, in its order [best2, best] / [best]
  // The contact points before displacement. In the vertex-edge branches the
  // JS leaves the vertex side's variable undefined and uses the vertex
  // itself; it is reported here as that vertex.
  vec2<T> a_contact, b_contact;
  // The displaced points (aContactDisplaced, bContactDisplaced).
  vec2<T> a_displaced, b_displaced;
  // |aContact - bContact| as the JS recomputes it (not EPA's depth).
  T penetration{0};
};

namespace detail {

// getLength(): sqrt(x*x + y*y) (math.js assumed, as in closest_segment_point).
template <class T>
T length(const vec2<T>& v) {
  using std::sqrt;
  return T(sqrt(T(v.x * v.x + v.y * v.y)));
}
template <class T>
vec2<T> add(const vec2<T>& a, const vec2<T>& b) {  // addV
  return {T(a.x + b.x), T(a.y + b.y)};
}
template <class T>
vec2<T> sub(const vec2<T>& a, const vec2<T>& b) {  // subV
  return {T(a.x - b.x), T(a.y - b.y)};
}
template <class T>
vec2<T> mul(const vec2<T>& a, const T& s) {  // mulS
  return {T(a.x * s), T(a.y * s)};
}

}  // namespace detail

// The article's construction. `depth` is accepted because the JS receives
// it from EPA, and ignored as the JS ignores it (D-CONTACT-8). Throws
// weird_collision (D-CONTACT-9); invalid_input for empty vertex lists,
// non-finite numbers or masses that are not > 0 (the JS checks nothing and
// would produce NaN or Infinity there); unsupported in exact.
template <class T>
article_contact<T> contact_points(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b, const vec2<T>& n,
                                  const T& depth, const T& mass_a, const T& mass_b) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("the article's contact points take square roots: not available in exact");
  } else {
    using detail::add, detail::length, detail::mul, detail::sub;
    (void)depth;  // `let { p, q, dist, n } = Gjk.epa(...)`: dist is never read
    if (a.empty() || b.empty()) throw invalid_input("contact points: empty vertex list");
    for (const auto* poly : {&a, &b})
      for (const auto& p : *poly)
        if (!is_finite(p.x) || !is_finite(p.y)) throw invalid_input("contact points: non-finite vertex");
    if (!is_finite(n.x) || !is_finite(n.y)) throw invalid_input("contact points: non-finite normal");
    if (!is_finite(mass_a) || !is_finite(mass_b) || !(mass_a > 0) || !(mass_b > 0))
      throw invalid_input("contact points: masses must be finite and > 0");

    article_contact<T> out;
    // D-CONTACT-7: supportEdge(a, n), supportEdge(b, n.mulS(-1)).
    out.a_support = support_edge(a, n);
    out.b_support = support_edge(b, mul(n, T(-1)));
    std::vector<vec2<T>> ap, bp;
    for (std::size_t i : out.a_support) ap.push_back(a[i]);
    for (std::size_t i : out.b_support) bp.push_back(b[i]);
    const T ma = mass_a, mb = mass_b;
    const std::size_t count = ap.size() + bp.size();
    if (count == 4) {
      // D-CONTACT-8, edge-edge: centerOfMass([...aPoints, ...bPoints]) is a
      // reduce (((p0 + p1) + p2) + p3), then each coordinate / 4. Quirk: the
      // centroid of the four END POINTS, not the middle of the overlap of the
      // two edges; closestSegmentPoint then clamps it onto each edge, so when
      // the edges differ in length or are offset, the two points are far
      // apart along the edges and the "penetration" |aContact - bContact|
      // includes that tangential distance (D-CONTACT-8).
      vec2<T> sum = ap[0];
      for (const auto& p : {ap[1], bp[0], bp[1]}) sum = vec2<T>{T(sum.x + p.x), T(sum.y + p.y)};
      const vec2<T> center{T(sum.x / T(4)), T(sum.y / T(4))};  // pts.length = 4
      out.kind = article_contact_kind::edge_edge;
      out.a_contact = closest_segment_point(center, ap[0], ap[1]);
      out.b_contact = closest_segment_point(center, bp[0], bp[1]);
      out.penetration = length(sub(out.a_contact, out.b_contact));
      // D-CONTACT-10: (-penetration * massA) / (massA + massB), JS order.
      out.a_displaced = add(out.a_contact, mul(n, T(T(T(-out.penetration) * ma) / T(ma + mb))));
      out.b_displaced = add(out.b_contact, mul(n, T(T(out.penetration * mb) / T(ma + mb))));
      return out;
    }
    // Quirk: `!= 3` after `== 4` leaves only 1 + 1, a vertex against a
    // vertex: no contact is built at all (D-CONTACT-9).
    if (count != 3) throw weird_collision();
    if (ap.size() == 2) {
      out.kind = article_contact_kind::edge_vertex;
      out.a_contact = closest_segment_point(bp[0], ap[0], ap[1]);
      out.b_contact = bp[0];  // the JS's bContact stays undefined; bPoints[0] is used
      out.penetration = length(sub(out.a_contact, bp[0]));
      out.a_displaced = add(out.a_contact, mul(n, T(T(T(-out.penetration) * ma) / T(ma + mb))));
      out.b_displaced = add(bp[0], mul(n, T(T(out.penetration * mb) / T(ma + mb))));
    } else {
      //// bPoints.length == 2!
      out.kind = article_contact_kind::vertex_edge;
      out.b_contact = closest_segment_point(ap[0], bp[0], bp[1]);
      out.a_contact = ap[0];  // the JS's aContact stays undefined; aPoints[0] is used
      out.penetration = length(sub(ap[0], out.b_contact));
      // JS order: bContactDisplaced first, then aContactDisplaced (no effect).
      out.b_displaced = add(out.b_contact, mul(n, T(T(out.penetration * mb) / T(ma + mb))));
      out.a_displaced = add(ap[0], mul(n, T(T(T(-out.penetration) * ma) / T(ma + mb))));
    }
    return out;
  }
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
