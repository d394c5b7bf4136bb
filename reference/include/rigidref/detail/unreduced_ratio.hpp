// A nonnegative rational num / den (den > 0) kept unreduced: the judge's
// budgets of mass.polygon are sums of products of such terms, and reducing
// each intermediate (a gcd of integers of hundreds of bits) cost more than
// the arithmetic itself. Comparisons cross-multiply; a value is reduced
// only where it is handed on as `exact` (D-JUDGE-11).
#pragma once

#include "rigidref/scalar.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge::detail {

struct ratio {
  big_int num, den;
};

inline ratio ratio_of(const exact& x) { return {big_int(numerator(x)), big_int(denominator(x))}; }
inline exact reduced(const ratio& r) { return exact(r.num, r.den); }

inline bool operator<(const ratio& a, const ratio& b) { return a.num * b.den < b.num * a.den; }
// x <= r and x >= r for a rational x (denominators are positive).
inline bool at_most(const exact& x, const ratio& r) { return numerator(x) * r.den <= r.num * denominator(x); }
inline bool at_least(const ratio& r, const exact& x) { return r.num * denominator(x) >= numerator(x) * r.den; }

inline ratio plus(const ratio& a, const ratio& b) { return {big_int(a.num * b.den + b.num * a.den), big_int(a.den * b.den)}; }
inline ratio plus(const ratio& r, const exact& x) {
  const big_int dx(denominator(x));
  return {big_int(r.num * dx + numerator(x) * r.den), big_int(r.den * dx)};
}
// r a, for a rational a >= 0.
inline ratio times(const ratio& r, const exact& a) {
  return {big_int(r.num * numerator(a)), big_int(r.den * denominator(a))};
}

}  // namespace rigidref::judge::detail

#include "rigidref/detail/fp_end.hpp"
