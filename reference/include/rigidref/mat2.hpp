// A 2x2 matrix value type, generic over the scalar. Row-major, as the eval
// protocol writes matrices: [[a, b], [c, d]] is {a, b, c, d}.
#pragma once

#include "rigidref/vec2.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct mat2 {
  T a{0}, b{0};  // first row
  T c{0}, d{0};  // second row

  static mat2 identity() { return {T(1), T(0), T(0), T(1)}; }

  friend mat2 operator+(const mat2& x, const mat2& y) { return {T(x.a + y.a), T(x.b + y.b), T(x.c + y.c), T(x.d + y.d)}; }
  friend mat2 operator-(const mat2& x, const mat2& y) { return {T(x.a - y.a), T(x.b - y.b), T(x.c - y.c), T(x.d - y.d)}; }
  friend mat2 operator*(const mat2& x, const mat2& y) {
    return {T(x.a * y.a + x.b * y.c), T(x.a * y.b + x.b * y.d), T(x.c * y.a + x.d * y.c), T(x.c * y.b + x.d * y.d)};
  }
  friend mat2 operator*(const T& s, const mat2& x) { return {T(s * x.a), T(s * x.b), T(s * x.c), T(s * x.d)}; }
  friend vec2<T> operator*(const mat2& m, const vec2<T>& v) { return {T(m.a * v.x + m.b * v.y), T(m.c * v.x + m.d * v.y)}; }
  friend bool operator==(const mat2& x, const mat2& y) { return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d; }
};

template <class T>
mat2<T> transpose(const mat2<T>& m) {
  return {m.a, m.c, m.b, m.d};
}

template <class T>
T determinant(const mat2<T>& m) {
  return m.a * m.d - m.b * m.c;
}

template <class T>
T trace(const mat2<T>& m) {
  return m.a + m.d;
}

// Element-wise conversion, e.g. mat2<double> -> mat2<exact>.
template <class To, class From, class Convert>
mat2<To> convert_mat(const mat2<From>& m, Convert&& f) {
  return {f(m.a), f(m.b), f(m.c), f(m.d)};
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
