// The collision oracle computes in an integer frame (verify/integer_frame.hpp,
// D-SAT-11). Here it is compared, field by field and exactly, with the
// textbook formulation in rational arithmetic (rational coordinates, the
// clamped projection parameter t, one rational per overlap), on the
// campaign's own pairs of every kind and every scalar type, and on rational
// inputs that are not dyadic.
//
// RIGIDREF_ORACLE_FRAME_PAIRS sets the pairs per kind and type (default 24;
// the one-off check of issue 18 ran 375, the campaign's --pairs 3000).
#include "rigidref/internal/collision_campaign.hpp"
#include "rigidref/verify/collision_oracle.hpp"
#include "support/chord_before.hpp"
#include "support/min_overlap_before.hpp"
#include "support/simplex_contains_before.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace collision_oracle_frames_test {

using namespace rigidref;

namespace {

using EP = std::vector<vec2<exact>>;

exact textbook_segment_distance_squared(const vec2<exact>& p, const vec2<exact>& a, const vec2<exact>& b) {
  const vec2<exact> ab = b - a;
  const exact len2 = length_squared(ab);
  exact t = len2 == 0 ? exact(0) : exact(dot(p - a, ab) / len2);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  const vec2<exact> q = a + t * ab;
  return length_squared(p - q);
}

// Every axis, its overlap o^2 / |n|^2 as a rational, the minimum, ties.
verify::exact_collision textbook_collision(const EP& a, const EP& b) {
  verify::exact_collision out;
  bool have = false, separated = false;
  std::vector<vec2<exact>> minimisers;
  for (const EP* poly : {&a, &b})
    for (std::size_t i = 0; i < poly->size(); ++i) {
      const vec2<exact> e = (*poly)[(i + 1) % poly->size()] - (*poly)[i];
      if (e.x == 0 && e.y == 0) continue;
      const vec2<exact> n{e.y, exact(-e.x)};
      const auto [alo, ahi] = verify::project(a, n);
      const auto [blo, bhi] = verify::project(b, n);
      const exact forward = ahi - blo, backward = bhi - alo;
      if (forward < 0 || backward < 0) separated = true;
      const exact o = forward <= backward ? forward : backward;
      const vec2<exact> axis = forward <= backward ? n : -n;
      if (o < 0) continue;
      const exact value = o * o / length_squared(n);
      if (!have || value < out.depth_squared) {
        have = true;
        out.depth_squared = value;
        out.normal_axis = axis;
        minimisers.assign(1, axis);
      } else if (value == out.depth_squared) {
        bool seen = false;
        for (const auto& m : minimisers) seen = seen || (cross(m, axis) == 0 && dot(m, axis) > 0);
        if (!seen) minimisers.push_back(axis);
      }
    }
  if (separated) {
    verify::exact_collision sep;
    exact best = -1;
    for (const auto& [points, edges] : {std::pair<const EP*, const EP*>{&a, &b}, {&b, &a}})
      for (std::size_t i = 0; i < edges->size(); ++i)
        for (const auto& p : *points) {
          const exact d = textbook_segment_distance_squared(p, (*edges)[i], (*edges)[(i + 1) % edges->size()]);
          if (best < 0 || d < best) best = d;
        }
    sep.distance_squared = best;
    return sep;
  }
  out.intersecting = true;
  out.touching = out.depth_squared == 0;
  out.minimising_axes = minimisers.size();
  return out;
}

std::size_t pairs_per_kind() {
  const char* env = std::getenv("RIGIDREF_ORACLE_FRAME_PAIRS");
  return env != nullptr ? static_cast<std::size_t>(std::stoul(env)) : 24;
}

void require_same(const verify::exact_collision& got, const verify::exact_collision& want, const std::string& where) {
  INFO(where);
  REQUIRE(got.intersecting == want.intersecting);
  REQUIRE(got.touching == want.touching);
  REQUIRE(got.distance_squared == want.distance_squared);
  REQUIRE(got.depth_squared == want.depth_squared);
  REQUIRE(got.normal_axis == want.normal_axis);
  REQUIRE(got.minimising_axes == want.minimising_axes);
}

// fn(pair, where) on the campaign's pairs of type T from `seed`,
// pairs_per_kind() of each kind; `where` names the type, the kind and the index.
template <class T, class F>
void for_each_campaign_pair(std::uint64_t seed, F&& fn) {
  const std::size_t count = pairs_per_kind();
  for (std::size_t kind = 0; kind < verify::campaign_kind_count; ++kind)
    for (std::size_t index = 0; index < count; ++index) {
      verify::rng g = verify::campaign_rng(seed, kind, index);
      const verify::campaign_pair<T> p = verify::campaign_generate<T>(g, verify::campaign_kinds[kind]);
      fn(p, std::string(scalar_name<T>()) + " " + verify::campaign_kinds[kind] + " #" + std::to_string(index));
    }
}

// The polygon scaled by 1/3 and moved by (dx, 0): denominators that are not
// powers of two, for the frame's general (lcm) path.
detail::epoly thirds(const detail::epoly& v, const exact& dx) {
  detail::epoly out;
  for (const auto& q : v) out.push_back({exact(q.x / 3 + dx), exact(q.y / 3)});
  return out;
}

template <class T>
void compare_on_campaign_pairs(std::size_t& compared) {
  for_each_campaign_pair<T>(7, [&](const verify::campaign_pair<T>& p, const std::string& where) {
    const std::span<const vec2<T>> a(p.a), b(p.b);
    const verify::exact_collision fast = verify::exact_convex_collision<T>(a, b);
    const verify::exact_collision slow = textbook_collision(verify::exact_polygon<T>(a), verify::exact_polygon<T>(b));
    require_same(fast, slow, where + " " + verify::describe_pair(p));
    ++compared;
  });
}

// EPA's exact minimum overlap (D-GJK-28) against the former all-rational
// code, field by field, on cores of 1, 2 and all points of A and B (not two
// points: no axis), as given and scaled by 1/3 with B moved by 1/7 (a frame
// scale that is not a power of two).
void compare_min_overlap(const detail::epoly& A, const detail::epoly& B, const std::string& where,
                         std::size_t& compared) {
  const auto prefix = [](const detail::epoly& v, std::size_t k) {
    return detail::epoly(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(k, v.size())));
  };
  const auto rescaled = [](const detail::epoly& v, const exact& shift) {
    detail::epoly out;
    for (const auto& p : v) out.push_back({exact(p.x / 3 + shift), exact(p.y / 3 - shift)});
    return out;
  };
  for (int scaled = 0; scaled < 2; ++scaled) {
    const detail::epoly a = scaled ? rescaled(A, exact(0)) : A, b = scaled ? rescaled(B, exact(1, 7)) : B;
    for (std::size_t ka : {std::size_t(1), std::size_t(2), a.size()})
      for (std::size_t kb : {std::size_t(1), std::size_t(2), b.size()}) {
        const detail::epoly ca = prefix(a, ka), cb = prefix(b, kb);
        if (ca.size() < 2 && cb.size() < 2) continue;
        const detail::axis_overlap got = detail::exact_min_overlap(ca, cb);
        const detail::axis_overlap want = min_overlap_before::exact_min_overlap(ca, cb);
        INFO(where << " scaled " << scaled << " cores " << ca.size() << " x " << cb.size());
        REQUIRE(got.n == want.n);
        REQUIRE(got.o == want.o);
        REQUIRE(got.ia == want.ia);
        REQUIRE(got.ib == want.ib);
        ++compared;
      }
  }
}

template <class T>
void compare_min_overlap_on_campaign_pairs(std::size_t& compared) {
  for_each_campaign_pair<T>(11, [&](const verify::campaign_pair<T>& p, const std::string& where) {
    const std::span<const vec2<T>> a(p.a), b(p.b);
    compare_min_overlap(verify::exact_polygon<T>(a), verify::exact_polygon<T>(b),
                        where + " " + verify::describe_pair(p), compared);
  });
}

// The integer frame as first written (D-GJK-12): s the lcm of every
// denominator, X = numerator(x) (s / denominator(x)) - o s. The dyadic
// shortcut of make_int_frame must give the same integers (D-GJK-29).
detail::int_frame lcm_frame(const detail::epoly& A, const detail::epoly& B) {
  detail::int_frame f;
  for (const detail::epoly* v : {&A, &B})
    for (const detail::evec& p : *v) {
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.x)));
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.y)));
    }
  f.origin = A.front();
  const auto at = [&](const exact& x) { return big_int(numerator(x) * (f.scale / denominator(x))); };
  for (const detail::evec& p : A) f.A.push_back({big_int(at(p.x) - at(f.origin.x)), big_int(at(p.y) - at(f.origin.y))});
  for (const detail::evec& p : B) f.B.push_back({big_int(at(p.x) - at(f.origin.x)), big_int(at(p.y) - at(f.origin.y))});
  return f;
}

// The frame compared with lcm_frame, and to_exact_pair (one fraction) with
// the sum of quotients o + P / (w s), on pairs of points of the frame and of
// segment points with weights w > 1.
void compare_int_frame(const detail::epoly& A, const detail::epoly& B, const std::string& where,
                       std::size_t& compared) {
  INFO(where);
  const detail::int_frame got = detail::make_int_frame(A, B), want = lcm_frame(A, B);
  REQUIRE(got.scale == want.scale);
  REQUIRE(got.origin == want.origin);
  REQUIRE(got.A.size() == want.A.size());
  REQUIRE(got.B.size() == want.B.size());
  for (std::size_t i = 0; i < got.A.size(); ++i) REQUIRE((got.A[i].x == want.A[i].x && got.A[i].y == want.A[i].y));
  for (std::size_t i = 0; i < got.B.size(); ++i) REQUIRE((got.B[i].x == want.B[i].x && got.B[i].y == want.B[i].y));
  const auto sum_of_quotients = [&](const detail::hpoint& h) {
    const exact den(h.w * got.scale);
    return detail::evec{got.origin.x + exact(h.P.x) / den, got.origin.y + exact(h.P.y) / den};
  };
  for (std::size_t i = 0; i < got.A.size(); ++i)
    for (std::size_t j = 0; j < got.B.size(); ++j) {
      const std::size_t i2 = (i + 1) % got.A.size();
      // A vertex of A, and the point of B's edge j closest to A's next vertex.
      const detail::hpoint p{got.A[i], big_int(1)};
      const detail::hpoint q =
          detail::closest_on_segment_int(got.B[j], got.B[(j + 1) % got.B.size()], got.A[i2]);
      const detail::int_pair c = detail::make_int_pair(p, q, i, j);
      const detail::exact_pair e = detail::to_exact_pair(got, c);
      REQUIRE(e.p == sum_of_quotients(p));
      REQUIRE(e.q == sum_of_quotients(q));
      REQUIRE(e.d2 == exact(c.N) / exact(c.D * got.scale * got.scale));
      REQUIRE(e.d2 == length_squared(e.q - e.p));
      ++compared;
    }
}

template <class T>
void compare_int_frame_on_campaign_pairs(std::size_t& compared) {
  for_each_campaign_pair<T>(7, [&](const verify::campaign_pair<T>& p, const std::string& where) {
    const std::span<const vec2<T>> a(p.a), b(p.b);
    const detail::epoly A = detail::exact_points(a), B = detail::exact_points(b);
    compare_int_frame(A, B, where, compared);
    // A circle's centre against the polygon, as the circle queries use it.
    compare_int_frame(A, detail::epoly{B.front()}, where + " centre", compared);
    compare_int_frame(detail::epoly{B.back()}, A, where + " centre first", compared);
  });
}

// interior_by_chord on the frame against the rational code (D-GJK-30), on
// every chord [W_i, W_j] of A - B on a line through the origin, alone and
// after another pair; the answer and the seed it leaves must be the same.
void compare_chords(const detail::epoly& A, const detail::epoly& B, const std::string& where,
                    std::size_t& yes, std::size_t& no) {
  std::vector<detail::vertex_pairs::value_type> v;
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t j = 0; j < B.size(); ++j) v.push_back({i, j});
  for (std::size_t x = 0; x < v.size(); ++x)
    for (std::size_t y = x + 1; y < v.size(); ++y) {
      const detail::evec wi = A[v[x].first] - B[v[x].second], wj = A[v[y].first] - B[v[y].second];
      // Collinear with the origin, on both sides of it (the chords that reach
      // the supports) or on one side (the test must refuse them).
      if (wi == wj || cross(wi, wj) != 0) continue;
      for (int lead = 0; lead < 2; ++lead) {
        detail::vertex_pairs got, want;
        if (lead) got.push_back(v[(x + 1) % v.size()]);
        got.push_back(v[x]);
        got.push_back(v[y]);
        want = got;
        const bool g = detail::interior_by_chord(A, B, got), h = chord_before::interior_by_chord(A, B, want);
        INFO(where << " pairs " << x << " " << y << " lead " << lead);
        REQUIRE(g == h);
        REQUIRE(got.size() == want.size());
        for (std::size_t k = 0; k < got.size(); ++k) REQUIRE(got[k] == want[k]);
        ++(g ? yes : no);
      }
    }
}

template <class T>
void compare_chords_on_campaign_pairs(std::size_t& yes, std::size_t& no) {
  for_each_campaign_pair<T>(7, [&](const verify::campaign_pair<T>& p, const std::string& where) {
    const std::span<const vec2<T>> a(p.a), b(p.b);
    const detail::epoly A = detail::exact_points(a), B = detail::exact_points(b);
    compare_chords(A, B, where, yes, no);
    compare_chords(thirds(A, 0), thirds(B, exact(1, 7)), where + " thirds", yes, no);
  });
}

// exact_simplex_contains on the frame against the rational code (D-GJK-31):
// every point and segment of vertex pairs, and triangles (every one through
// A's first pair, and a fixed pseudo-random sample), field by field.
struct contains_counts {
  std::size_t calls = 0, strict = 0, boundary = 0, segment = 0;
};

void compare_contains(const detail::epoly& A, const detail::epoly& B, const std::string& where, contains_counts& n) {
  std::vector<detail::vertex_pairs::value_type> v;
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t j = 0; j < B.size(); ++j) v.push_back({i, j});
  const auto check = [&](std::initializer_list<std::size_t> ks) {
    detail::vertex_pairs idx;
    for (std::size_t k : ks) idx.push_back(v[k]);
    const detail::containment got = detail::exact_simplex_contains(A, B, idx);
    const detail::containment want = simplex_contains_before::exact_simplex_contains(A, B, idx);
    INFO(where << " simplex of " << idx.size());
    REQUIRE(got.contains == want.contains);
    REQUIRE(got.strict == want.strict);
    REQUIRE(got.common == want.common);
    ++n.calls;
    if (got.contains && got.strict) ++n.strict;
    if (got.contains && !got.strict && idx.size() == 3) ++n.boundary;
    if (got.contains && idx.size() == 2) ++n.segment;
  };
  std::uint32_t r = 12345;
  const auto next = [&] { return (r = r * 1664525u + 1013904223u) >> 8; };
  for (std::size_t x = 0; x < v.size(); ++x) {
    check({x});
    for (std::size_t y = 0; y < v.size(); ++y) {
      if (y != x) check({x, y});
      if (x == 0 && y > 0) check({0, y, (y + 1) % v.size()});
    }
    for (int k = 0; k < 8; ++k) check({x, next() % v.size(), next() % v.size()});
  }
}

template <class T>
void compare_contains_on_campaign_pairs(contains_counts& n) {
  for_each_campaign_pair<T>(7, [&](const verify::campaign_pair<T>& p, const std::string& where) {
    const std::span<const vec2<T>> a(p.a), b(p.b);
    const detail::epoly A = detail::exact_points(a), B = detail::exact_points(b);
    compare_contains(A, B, where, n);
    compare_contains(thirds(A, 0), thirds(B, exact(1, 7)), where + " thirds", n);
  });
}

}  // namespace

TEST_CASE("exact_simplex_contains on the integer frame equals the rational one (D-GJK-31)") {
  contains_counts n;
  compare_contains_on_campaign_pairs<double>(n);
  const detail::epoly sq{{exact(0), exact(0)}, {exact(2), exact(0)}, {exact(2), exact(2)}, {exact(0), exact(2)}};
  const detail::epoly half{{exact(1), exact(0)}, {exact(3), exact(0)}, {exact(3), exact(2)}, {exact(1), exact(2)}};
  const detail::epoly side{{exact(2), exact(0)}, {exact(4), exact(0)}, {exact(4), exact(2)}, {exact(2), exact(2)}};
  compare_contains(sq, half, "overlapping squares", n);
  compare_contains(sq, side, "squares side by side", n);
  compare_contains(sq, sq, "a square on itself", n);
  INFO("calls " << n.calls << ", strict " << n.strict << ", on a triangle's side " << n.boundary << ", segments "
                << n.segment);
  CHECK(n.strict > 100);
  CHECK(n.boundary > 10);
  CHECK(n.segment > 10);
}

TEST_CASE("interior_by_chord on the integer frame equals the rational one (D-GJK-30)") {
  std::size_t yes = 0, no = 0;
  compare_chords_on_campaign_pairs<float>(yes, no);
  compare_chords_on_campaign_pairs<double>(yes, no);
  // Squares: overlapping (the origin inside chords of A - B's interior) and
  // side by side (chords along A - B's boundary: not interior).
  const detail::epoly sq{{exact(0), exact(0)}, {exact(2), exact(0)}, {exact(2), exact(2)}, {exact(0), exact(2)}};
  const detail::epoly half{{exact(1), exact(0)}, {exact(3), exact(0)}, {exact(3), exact(2)}, {exact(1), exact(2)}};
  const detail::epoly side{{exact(2), exact(0)}, {exact(4), exact(0)}, {exact(4), exact(2)}, {exact(2), exact(2)}};
  std::size_t y0 = yes, n0 = no;
  compare_chords(sq, half, "overlapping squares", yes, no);
  CHECK(yes > y0);
  compare_chords(sq, side, "squares side by side", yes, no);
  CHECK(no > n0);
  INFO("interior " << yes << ", on the boundary " << no);
  CHECK(yes > 20);  // 44 at the default 24 pairs per kind
  CHECK(no > 100);
}

TEST_CASE("the dyadic integer frame and the one-fraction pair equal the lcm frame and the sum of quotients (D-GJK-29)") {
  std::size_t compared = 0;
  compare_int_frame_on_campaign_pairs<float>(compared);
  compare_int_frame_on_campaign_pairs<double>(compared);
  compare_int_frame_on_campaign_pairs<long double>(compared);
  // Non-dyadic and mixed denominators (the general path), negative
  // coordinates, zeros, and denominators far apart (2^-60 next to 1).
  const detail::epoly thirds{{exact(1, 3), exact(0)}, {exact(1), exact(-2, 7)}, {exact(1), exact(1)}};
  const detail::epoly quarters{{exact(-1), exact(0)}, {exact(1, 4), exact(-3, 8)}, {exact(-1), exact(1)}};
  const detail::epoly mixed{{exact(-1), exact(0)}, {exact(1, 4), exact(1, 3)}, {exact(-1), exact(1)}};
  const detail::epoly far{{exact(big_int(3), big_int(1) << 60), exact(-5)}, {exact(7), exact(0)}, {exact(0), exact(-1, 2)}};
  compare_int_frame(thirds, quarters, "thirds, quarters", compared);
  compare_int_frame(quarters, thirds, "quarters, thirds", compared);
  compare_int_frame(quarters, mixed, "quarters, mixed", compared);
  compare_int_frame(far, quarters, "far, quarters", compared);
  compare_int_frame(quarters, far, "quarters, far", compared);
  compare_int_frame(far, far, "far, far", compared);
  // A scale above one: the origin's own exponent must not be the frame's.
  const detail::int_frame f = detail::make_int_frame(far, quarters);
  CHECK(f.scale == (big_int(1) << 60));
  CHECK(f.A[0].x == 0);
  CHECK(f.B[0].x == big_int(-(big_int(1) << 60) - 3));
  CHECK(compared > 3 * verify::campaign_kind_count * pairs_per_kind() * 9);
}

TEST_CASE("EPA's exact minimum overlap on the integer frame equals the rational one (D-GJK-28)") {
  std::size_t compared = 0;
  compare_min_overlap_on_campaign_pairs<float>(compared);
  compare_min_overlap_on_campaign_pairs<double>(compared);
  compare_min_overlap_on_campaign_pairs<long double>(compared);
  compare_min_overlap_on_campaign_pairs<mp50>(compared);
  compare_min_overlap_on_campaign_pairs<mp100>(compared);
  // Ties: identical squares (every axis overlaps by the same 2), and a square
  // on a square's corner; the first axis (A's first edge) must win.
  const detail::epoly sq{{exact(0), exact(0)}, {exact(2), exact(0)}, {exact(2), exact(2)}, {exact(0), exact(2)}};
  compare_min_overlap(sq, sq, "identical squares", compared);
  const detail::epoly corner{{exact(1), exact(1)}, {exact(3), exact(1)}, {exact(3), exact(3)}, {exact(1), exact(3)}};
  compare_min_overlap(sq, corner, "square on a corner", compared);
  // The same object as A and B (a shape against itself): the frame must
  // still map both (an early version put both into A's side and divided by
  // B's empty size).
  const detail::axis_overlap tie = detail::exact_min_overlap(sq, sq);
  CHECK(tie.n == detail::evec{exact(0), exact(-2)});
  CHECK(tie.o == exact(4));  // max_A n.x - min_B n.x = 0 - (-4): depth 4 / |n| = 2
  CHECK(compared > 5 * verify::campaign_kind_count * pairs_per_kind() * 8);
}

TEST_CASE("integer-frame oracle equals the textbook rational oracle on the campaign's pairs") {
  std::size_t compared = 0;
  compare_on_campaign_pairs<float>(compared);
  compare_on_campaign_pairs<double>(compared);
  compare_on_campaign_pairs<long double>(compared);
  compare_on_campaign_pairs<mp50>(compared);
  compare_on_campaign_pairs<mp100>(compared);
  CHECK(compared == 5 * verify::campaign_kind_count * pairs_per_kind());
}

TEST_CASE("integer-frame oracle on rational, non-dyadic inputs") {
  // Thirds and sevenths: the frame's scale is the lcm of the denominators.
  const EP a{{exact(0), exact(0)}, {exact(1, 3), exact(0)}, {exact(1, 3), exact(2, 7)}, {exact(0), exact(2, 7)}};
  for (const exact& dx : {exact(1, 3), exact(2, 7), exact(1, 2), exact(-1, 21), exact(5, 11)}) {
    EP b;
    for (const auto& p : a) b.push_back({exact(p.x + dx), exact(p.y + dx / 3)});
    require_same(verify::exact_convex_collision(a, b), textbook_collision(a, b), "dx=" + dx.str());
  }
  // Separated by exactly 1/3 - 1/4 along x: distance^2 = (1/12)^2.
  const EP c{{exact(1, 3), exact(0)}, {exact(1), exact(0)}, {exact(1), exact(1)}};
  const EP d{{exact(-1), exact(0)}, {exact(1, 4), exact(0)}, {exact(-1), exact(1)}};
  const verify::exact_collision r = verify::exact_convex_collision(c, d);
  CHECK_FALSE(r.intersecting);
  CHECK(r.distance_squared == exact(1, 144));
}

}  // namespace collision_oracle_frames_test
