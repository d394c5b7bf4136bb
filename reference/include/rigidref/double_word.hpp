// Error-free transformations and double-word arithmetic (D-EFT-1..5).
//
// A double_word<T> is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2, so it
// carries about 2*digits(T) bits. The algorithms and their error bounds are
// those of Joldes, Muller and Popescu, "Tight and rigorous error bounds for
// basic building blocks of double-word arithmetic", ACM TOMS 44(2), 2017;
// derivations/double_word.md restates them. They need round-to-nearest
// arithmetic and no FMA contraction: the region of detail/fp_begin.hpp, and
// detail::rounded where a product must stay rounded whatever the flags of
// the code these always-inline helpers are inlined into.
#pragma once

#include "rigidref/detail/fp_barrier.hpp"
#include "rigidref/detail/hot.hpp"
#include "rigidref/scalar.hpp"

#include <cmath>
#include <limits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct double_word {
  T hi{0};
  T lo{0};
  double_word() = default;
  double_word(const T& h) : hi(h), lo(0) {}  // NOLINT: implicit on purpose
  double_word(const T& h, const T& l) : hi(h), lo(l) {}
};

namespace eft {

// D-EFT-1: s + e == a + b exactly, when |a| >= |b| or a == 0.
template <class T>
RIGIDREF_HOT double_word<T> fast_two_sum(const T& a, const T& b) {
  T s = a + b;
  T z = s - a;
  return {s, T(b - z)};
}

// D-EFT-1: s + e == a + b exactly, for any a, b (Knuth's TwoSum).
template <class T>
RIGIDREF_HOT double_word<T> two_sum(const T& a, const T& b) {
  T s = a + b;
  T ap = s - b;
  T bp = s - ap;
  T da = a - ap;
  T db = b - bp;
  return {s, T(da + db)};
}

// Veltkamp's split: a == high + low, each fitting in about digits/2 bits.
template <class T>
RIGIDREF_HOT double_word<T> split(const T& a) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  constexpr int s = (std::numeric_limits<T>::digits + 1) / 2;
  static const T factor = ldexp(T(1), s) + 1;
  T c = detail::rounded(T(factor * a));  // fused into c - a, high would be a itself
  T high = c - (c - a);
  return {high, T(a - high)};
}

// D-EFT-2: Dekker's product of the split halves, p + e == a * b exactly
// (barring underflow), for any T with correctly rounded + - *.
template <class T>
RIGIDREF_HOT double_word<T> two_prod_dekker(const T& a, const T& b) {
  T p = detail::rounded(T(a * b));  // the four half products are exact, p is not
  auto [ah, al] = split(a);
  auto [bh, bl] = split(b);
  T e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return {p, e};
}

// D-EFT-2: p + e == a * b exactly: FMA where it is a single rounding, else
// Dekker's product.
template <class T>
RIGIDREF_HOT double_word<T> two_prod(const T& a, const T& b) {
  if constexpr (has_fused_fma_v<T>) {
    using std::fma;
    T p = a * b;
    return {p, T(fma(a, b, T(-p)))};
  } else {
    return two_prod_dekker(a, b);
  }
}

}  // namespace eft

// D-EFT-3: AccurateDWPlusDW (JMP 2017, Alg. 6), relative error <= 3u^2/(1-4u).
template <class T>
RIGIDREF_HOT double_word<T> operator+(const double_word<T>& x, const double_word<T>& y) {
  auto [sh, sl] = eft::two_sum(x.hi, y.hi);
  auto [th, tl] = eft::two_sum(x.lo, y.lo);
  T c = sl + th;
  auto [vh, vl] = eft::fast_two_sum(sh, c);
  T w = tl + vl;
  return eft::fast_two_sum(vh, w);
}

template <class T>
RIGIDREF_HOT double_word<T> operator-(const double_word<T>& x) {
  return {T(-x.hi), T(-x.lo)};
}

template <class T>
RIGIDREF_HOT double_word<T> operator-(const double_word<T>& x, const double_word<T>& y) {
  return x + (-y);
}

// D-EFT-4: DWTimesDW (JMP 2017, Alg. 11 without FMA, Alg. 12 with it);
// relative error <= 7u^2 (without FMA) and 5u^2 (with).
template <class T>
RIGIDREF_HOT double_word<T> operator*(const double_word<T>& x, const double_word<T>& y) {
  auto [ch, cl1] = eft::two_prod(x.hi, y.hi);
  T cl2;
  if constexpr (has_fused_fma_v<T>) {
    using std::fma;
    T tl0 = x.lo * y.lo;
    T tl1 = fma(x.hi, y.lo, tl0);
    cl2 = fma(x.lo, y.hi, tl1);
  } else {
    T tl = x.hi * y.lo;
    T tr = x.lo * y.hi;
    cl2 = tl + tr;
  }
  T cl3 = cl1 + cl2;
  return eft::fast_two_sum(ch, cl3);
}

// DWTimesFP (JMP 2017, Alg. 9), relative error <= 2u^2.
template <class T>
RIGIDREF_HOT double_word<T> times(const double_word<T>& x, const T& y) {
  auto [ch, cl1] = eft::two_prod(x.hi, y);
  T cl2 = detail::rounded(T(x.lo * y));  // fast_two_sum below needs it rounded
  auto [th, tl1] = eft::fast_two_sum(ch, cl2);
  T tl2 = tl1 + cl1;
  return eft::fast_two_sum(th, tl2);
}

// D-EFT-5: DWDivDW (JMP 2017, Alg. 17), relative error <= 15u^2 + 56u^3.
template <class T>
RIGIDREF_HOT double_word<T> operator/(const double_word<T>& x, const double_word<T>& y) {
  T th = x.hi / y.hi;
  auto [rh, rl] = times(y, th);
  T pih = x.hi - rh;
  T dl = x.lo - rl;
  T d = pih + dl;
  T tl = d / y.hi;
  return eft::fast_two_sum(th, tl);
}

// D-EFT-6: square root of a double word: one Newton correction of the
// T square root of hi, r = x - hi^2 computed in double words (hi^2 exact by
// TwoProd), lo = r / (2 hi). Relative error a few u^2 (x >= 0).
template <class T>
RIGIDREF_HOT double_word<T> sqrt(const double_word<T>& x) {
  using std::sqrt;
  if (x.hi <= 0) return double_word<T>(T(0));  // callers pass x >= 0; 0 stays 0
  const T h = sqrt(x.hi);
  const double_word<T> r = x - eft::two_prod(h, h);
  return eft::fast_two_sum(h, T(r.hi / (2 * h)));
}

template <class T>
RIGIDREF_HOT bool is_negative(const double_word<T>& x) {
  return x.hi < 0 || (x.hi == 0 && x.lo < 0);
}

template <class T>
RIGIDREF_HOT double_word<T> abs(const double_word<T>& x) {
  return is_negative(x) ? -x : x;
}

// The double word rounded to Out, to nearest. For Out == T the normalised hi
// is already RN(hi + lo). For a narrower Out (float from double_word<double>)
// the one extra case is hi exactly halfway between two Out values: then lo
// decides the side, which a plain conversion of hi would ignore.
template <class Out, class T>
Out round_to_nearest(const double_word<T>& x) {
  if constexpr (std::is_same_v<Out, T>) {
    return x.hi;
  } else {
    static_assert(std::numeric_limits<Out>::digits < std::numeric_limits<T>::digits);
    Out r = static_cast<Out>(x.hi);
    T back = static_cast<T>(r);
    T rest = x.hi - back;  // exact: both are T values within one Out-ulp
    if (rest != 0 && x.lo != 0 && std::isfinite(r)) {
      Out toward = rest > 0 ? std::numeric_limits<Out>::infinity() : -std::numeric_limits<Out>::infinity();
      Out neighbour = std::nextafter(r, toward);
      T half = (static_cast<T>(neighbour) - back) / 2;
      // hi sits exactly on the midpoint and lo pushes past it: round away.
      if (rest == half && ((x.lo > 0) == (rest > 0))) r = neighbour;
    }
    return r;
  }
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
