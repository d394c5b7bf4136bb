// The vocabulary shared by the collision machinery (gjk.hpp, epa.hpp): exact
// points, the vertex pairs a simplex names, a polygon's feature, a point as a
// one-vertex core, and the exact conversion of the inputs.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

using evec = vec2<exact>;
using epoly = std::vector<evec>;

// Pairs (vertex of A, vertex of B): a simplex's (at most 3) and the two that
// interior_by_chord adds, EPA's seed. Fixed capacity, so a query allocates
// nothing for them.
class vertex_pairs {
 public:
  using value_type = std::pair<std::size_t, std::size_t>;
  static constexpr std::size_t capacity = 5;
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const value_type& operator[](std::size_t i) const { return v_[i]; }
  value_type& operator[](std::size_t i) { return v_[i]; }
  const value_type* begin() const { return v_.data(); }
  const value_type* end() const { return v_.data() + n_; }
  void push_back(const value_type& p) {
    if (n_ == capacity) throw std::logic_error("vertex_pairs: more than 5 pairs (internal error)");
    v_[n_++] = p;
  }

 private:
  std::array<value_type, capacity> v_{};
  std::size_t n_ = 0;
};

template <class T>
bool is_zero_vec(const vec2<T>& v) {
  return v.x == 0 && v.y == 0;
}

struct feature {
  bool edge = false;  // false: vertex i; true: the open edge (i, i + 1)
  std::size_t i = 0;
  bool operator==(const feature&) const = default;
};

// ---- the inputs as exact rationals -------------------------------------------

// to_exact for the builtin types: the significand as one integer M (odd after
// removing trailing zeros) and a power of two, M 2^p; M / 2^-p is already in
// lowest terms, so the rational is the same canonical value to_exact gives.
template <class T>
exact fast_to_exact(const T& x) {
  static_assert(std::is_floating_point_v<T> && std::numeric_limits<T>::digits <= 64);
  using std::frexp;
  using std::isfinite;
  using std::ldexp;
  if (!isfinite(x)) return to_exact(x);  // throws invalid_input, as before
  if (x == 0) return exact(0);
  int e = 0;
  const T m = frexp(x < 0 ? T(-x) : x, &e);  // [0.5, 1), exact
  constexpr int digits = std::numeric_limits<T>::digits;
  std::uint64_t M = static_cast<std::uint64_t>(ldexp(m, digits));  // exact integer < 2^digits
  int p = e - digits;
  while ((M & 1u) == 0) {
    M >>= 1;
    ++p;
  }
  exact q = p >= 0 ? exact(big_int(M) << p) : exact(big_int(M), big_int(1) << (-p));
  return x < 0 ? exact(-q) : q;
}

template <class T>
epoly exact_points(std::span<const vec2<T>> v) {
  epoly out;
  out.reserve(v.size());
  if constexpr (filter_enabled_v<T>) {
    for (const auto& p : v) out.push_back({fast_to_exact(p.x), fast_to_exact(p.y)});
  } else {
    for (const auto& p : v) out.push_back({to_exact(p.x), to_exact(p.y)});
  }
  return out;
}

// A circle's centre as a one-vertex core (D-GJK-9).
template <class T>
std::span<const vec2<T>> one_point(const vec2<T>& p) {
  return std::span<const vec2<T>>(&p, 1);
}

// ---- the uphill walk of every argmax -------------------------------------------

// Index of a vertex of a polygon with `count` vertices maximising n . v,
// walking uphill from `start`. On a strictly convex polygon n . v_i is
// unimodal around the cycle, so a vertex no lower than both neighbours is a
// global maximum (D-GJK-7). rises(j, i): vertex j is strictly higher than the
// current vertex i (the walk then moves to j, so rises may cache j's value).
// stopped(): the caller gave up (a filtered comparison not proved); the walk
// ends where it is.
template <class Rises, class Stopped>
std::size_t uphill_walk(std::size_t count, std::size_t start, Rises&& rises, Stopped&& stopped) {
  if (count == 1) return 0;
  std::size_t i = start % count;
  for (std::size_t step = 0; step < count && !stopped(); ++step) {
    const std::size_t next = (i + 1) % count, prev = (i + count - 1) % count;
    if (rises(next, i)) {
      i = next;
      continue;
    }
    if (stopped()) break;
    if (rises(prev, i)) {
      i = prev;
      continue;
    }
    break;
  }
  return i;
}

template <class Rises>
std::size_t uphill_walk(std::size_t count, std::size_t start, Rises&& rises) {
  return uphill_walk(count, start, rises, [] { return false; });
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
