// A 2D vector value type, generic over the scalar.
#pragma once

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct vec2 {
  T x{0};
  T y{0};

  friend vec2 operator+(const vec2& a, const vec2& b) { return {T(a.x + b.x), T(a.y + b.y)}; }
  friend vec2 operator-(const vec2& a, const vec2& b) { return {T(a.x - b.x), T(a.y - b.y)}; }
  friend vec2 operator-(const vec2& a) { return {T(-a.x), T(-a.y)}; }
  friend vec2 operator*(const T& s, const vec2& a) { return {T(s * a.x), T(s * a.y)}; }
  friend vec2 operator*(const vec2& a, const T& s) { return {T(a.x * s), T(a.y * s)}; }
  friend bool operator==(const vec2& a, const vec2& b) { return a.x == b.x && a.y == b.y; }
};

template <class T>
T dot(const vec2<T>& a, const vec2<T>& b) {
  return a.x * b.x + a.y * b.y;
}

// The z component of the 3D cross product: a.x*b.y - a.y*b.x.
template <class T>
T cross(const vec2<T>& a, const vec2<T>& b) {
  return a.x * b.y - a.y * b.x;
}

template <class T>
T length_squared(const vec2<T>& a) {
  return dot(a, a);
}

// Element-wise conversion, e.g. vec2<double> -> vec2<exact>.
template <class To, class From, class Convert>
vec2<To> convert_vec(const vec2<From>& v, Convert&& f) {
  return {f(v.x), f(v.y)};
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
