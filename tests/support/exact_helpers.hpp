// Small exact-arithmetic helpers shared by the matrix and shape-matching
// property tests: exact copies of rounded results, the unit roundoffs the
// bounds are written in, and a printer for 2x2 counterexamples.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/mat2.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <ostream>

namespace rigidref {
// Counterexamples print at full precision.
template <class T>
void showValue(const mat2<T>& m, std::ostream& os) {
  os << "[[" << to_string(m.a) << ", " << to_string(m.b) << "], [" << to_string(m.c) << ", " << to_string(m.d)
     << "]]";
}
}  // namespace rigidref

namespace rigidref::testing {

using O = verify::oracle_float;  // 230 digits: oracle values and bound arithmetic
using EM = mat2<exact>;

template <class T>
EM exact_of(const mat2<T>& m) {
  return convert_mat<exact>(m, [](const T& x) { return to_exact(x); });
}
inline EM abs_of(const EM& m) { return {abs(m.a), abs(m.b), abs(m.c), abs(m.d)}; }
inline O to_o(const exact& q) { return O(numerator(q)) / O(denominator(q)); }
inline exact det_of(const EM& m) { return m.a * m.d - m.b * m.c; }

// |x| without relying on which unqualified abs a float finds.
template <class T>
T mag(const T& x) {
  return x < 0 ? T(-x) : x;
}

// u = eps/2 of T, exactly.
template <class T>
exact unit_roundoff() {
  return to_exact(epsilon<T>()) / 2;
}

// Unit roundoff of the accumulator (accumulator<T>::unit()), exactly.
template <class T>
exact accumulator_unit() {
  const auto w = accumulator<T>::unit();
  if constexpr (requires { w.hi; }) return to_exact(w.hi) + to_exact(w.lo);
  else return to_exact(w);
}

}  // namespace rigidref::testing
