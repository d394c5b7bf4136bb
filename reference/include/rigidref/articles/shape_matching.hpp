// Faithful port of the ShapeMatching article's BodyShapeMatching.js (seed
// 001): the module-private centerOfMass, lerp, shapeMatchRotation and
// shapeMatch, and the Body methods worldShape, shapeMatch and
// updateFromShape. Every operation is the JS one, in the JS order, so in
// double (no FMA contraction: detail/fp_begin.hpp) the results are
// bit-identical to the Node-run JS whenever cos, sin and atan2 return V8's
// values (tests/golden_shape_matching_test.cpp, data/golden/shape_matching.json).
//
// The articles' math.js (Vector2, Matrix3) is lost; its arithmetic is that
// of our data/generate/math.js, ported here as `matrix3`: fromValues row by
// row, mulMatrix = this * other, mulVectors = the first two components of
// M * (x, y, w), each sum left to right.
//
// Bookkeeping (D-SHAPE-1, D-SHAPE-2). Call u_i = src_i - src_cm the rest
// offsets (src = the body's worldShape, where the rigid body is) and
// v_i = dst_i - dst_cm the current ones (dst = collisionShape, the points
// after projection). The article's text, after Mueller et al. 2005, uses
// A = sum v_i u_i^T = R S, R the rotation taking the rest shape onto the
// current one. The code sums pqT(p, q) = p q^T with p from src and q from
// dst, i.e. Apq = sum u_i v_i^T = A^T = S R^T. Then
//   S' = sqrt(Apq^T Apq) = sqrt(R S^2 R^T) = R S R^T and
//   shapeMatchRotation = Apq S'^-1 = S R^T R S^-1 R^T = R^T, the TRANSPOSE.
// shapeMatch builds its 3x3 matrices for row vectors (translation in the
// bottom row): x M = (x - src_cm) R^T + dst_cm. Body.shapeMatch transposes
// M (MT) and applies it to column vectors, so
//   goal_i = MT (x_i, 1) = R x_i + (dst_cm - R src_cm) = R (x_i - src_cm) + dst_cm:
// R is applied to the worldShape points, giving the article's goal positions.
// updateFromShape reads atan2(rot[0][1], rot[0][0]) from R^T = [[c, s], [-s, c]],
// which is the angle of R: the two transpositions cancel.
// When det Apq < 0 (a mirror image), the polar factor is a reflection F
// (F^T = F) and is used as it is: the goals are mirrored, and the angle read
// is that of F's first column, 2 alpha for a mirror line at angle alpha.
#pragma once

#include "rigidref/articles/mat2.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/mat2.hpp"
#include "rigidref/vec2.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// ---- math.Matrix3 as data/generate/math.js defines it ----------------------

template <class T>
struct matrix3 {
  std::array<std::array<T, 3>, 3> m{};  // m[r][c] is the JS field mRC

  // Row-major: v0 v1 v2 is the first row.
  static matrix3 from_values(const T& v0, const T& v1, const T& v2, const T& v3, const T& v4, const T& v5, const T& v6,
                             const T& v7, const T& v8) {
    matrix3 r;
    r.m = {{{v0, v1, v2}, {v3, v4, v5}, {v6, v7, v8}}};
    return r;
  }

  // this * o; each entry summed over k = 0, 1, 2 left to right.
  matrix3 mul_matrix(const matrix3& o) const {
    matrix3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = T(m[i][0] * o.m[0][j] + m[i][1] * o.m[1][j] + m[i][2] * o.m[2][j]);
    return r;
  }

  // The first two components of M * (x, y, w); the third row is ignored.
  std::vector<vec2<T>> mul_vectors(const std::vector<vec2<T>>& points, const T& w) const {
    std::vector<vec2<T>> out;
    out.reserve(points.size());
    for (const auto& p : points)
      out.push_back({T(m[0][0] * p.x + m[0][1] * p.y + m[0][2] * w), T(m[1][0] * p.x + m[1][1] * p.y + m[1][2] * w)});
    return out;
  }
};

// ---- the module-private functions ------------------------------------------

// JS: sum = pts.reduce((a, b) => new Vector2(a.x + b.x, a.y + b.y)), then
// (sum.x / length, sum.y / length). reduce starts from the first point; on an
// empty array it throws a TypeError, here invalid_input.
template <class T>
vec2<T> center_of_mass(const std::vector<vec2<T>>& pts) {
  if (pts.empty()) throw invalid_input("centerOfMass of no points (the JS reduce throws a TypeError)");
  vec2<T> sum = pts[0];
  for (std::size_t i = 1; i < pts.size(); ++i) sum = {T(sum.x + pts[i].x), T(sum.y + pts[i].y)};
  const T n = T(pts.size());
  return {T(sum.x / n), T(sum.y / n)};
}

// JS: ax + t * (b.x - ax). (The article's lerp assigns the undeclared globals
// out_x, out_y; harmless in a browser's sloppy-mode script.)
template <class T>
vec2<T> lerp(const vec2<T>& a, const vec2<T>& b, const T& t) {
  return {T(a.x + t * (b.x - a.x)), T(a.y + t * (b.y - a.y))};
}

// p q^T = [[p0 q0, p0 q1], [p1 q0, p1 q1]]
template <class T>
mat2<T> pq_transpose(const vec2<T>& p, const vec2<T>& q) {
  return {T(p.x * q.x), T(p.x * q.y), T(p.y * q.x), T(p.y * q.y)};
}

// JS shapeMatchRotation(srcVectors, dstVectors): Apq * sqrt(Apq^T Apq)^-1.
// Returns R^T, the transpose of the rotation taking src onto dst (see the top
// of this file); a reflection when det Apq < 0; NaN (or garbage from a nearly
// singular S) when the points are coincident or collinear. Extra dst entries
// are ignored, as in JS (it maps over src); fewer would make JS throw.
template <class T>
mat2<T> shape_match_rotation(const std::vector<vec2<T>>& src, const std::vector<vec2<T>>& dst) {
  if (src.empty()) throw invalid_input("shapeMatchRotation of no points (the JS reduce throws a TypeError)");
  if (dst.size() < src.size()) throw invalid_input("shapeMatchRotation: fewer dst than src vectors (the JS throws)");
  // D-SHAPE-1: Apq = sum src_i dst_i^T, reduced with mat2sum in array order;
  // the transpose of the A = sum dst_i src_i^T of the article's text.
  mat2<T> apq = articles::pq_transpose(src[0], dst[0]);
  for (std::size_t i = 1; i < src.size(); ++i) apq = articles::mat2sum(apq, articles::pq_transpose(src[i], dst[i]));
  // Bit-for-bit symmetric (the off-diagonal products are the same products,
  // commuted), hence so is S, and mat2inv's transposition does not show.
  const mat2<T> ata = articles::mat2mul(articles::mat2transpose(apq), apq);
  const mat2<T> s = articles::mat2sqrt(ata);
  const mat2<T> s_inv = articles::mat2inv(s);
  // D-SHAPE-2: Apq S^-1 = R^T.
  return articles::mat2mul(apq, s_inv);
}

// JS shapeMatch(srcPoints, dstPoints): the Matrix3 transformMatrix =
// trans.mulMatrix(rot), written for row vectors: x M = (x - srcCenter) Q + dstCenter
// with Q = shape_match_rotation(...) = R^T.
template <class T>
matrix3<T> shape_match(const std::vector<vec2<T>>& src_points, const std::vector<vec2<T>>& dst_points) {
  const vec2<T> src_center = articles::center_of_mass(src_points);
  std::vector<vec2<T>> src_vectors;
  for (const auto& p : src_points) src_vectors.push_back(p - src_center);
  const vec2<T> dst_center = articles::center_of_mass(dst_points);
  std::vector<vec2<T>> dst_vectors;
  for (const auto& p : dst_points) dst_vectors.push_back(p - dst_center);
  const mat2<T> q = articles::shape_match_rotation(src_vectors, dst_vectors);
  const matrix3<T> rot = matrix3<T>::from_values(q.a, q.b, T(0), q.c, q.d, T(0), dst_center.x, dst_center.y, T(1));
  const matrix3<T> trans =
      matrix3<T>::from_values(T(1), T(0), T(0), T(0), T(1), T(0), T(-src_center.x), T(-src_center.y), T(1));
  return trans.mul_matrix(rot);
}

// ---- the Body ----------------------------------------------------------------

// The libm functions the Body calls (Math.cos, Math.sin, Math.atan2). The
// default is the C++ library's; a test passes V8's recorded values instead,
// since V8's libm is not glibc's.
template <class T>
struct std_libm {
  T cos(const T& x) const {
    using std::cos;
    return cos(x);
  }
  T sin(const T& x) const {
    using std::sin;
    return sin(x);
  }
  T atan2(const T& y, const T& x) const {
    using std::atan2;
    return atan2(y, x);
  }
};

// const shapeMatchAttenuation = 0.98; 49/50 rounds once, to the JS double in double.
template <class T>
T shape_match_attenuation() {
  return T(49) / T(50);
}

// The state the three methods use. mass, velocities and oldPos/oldAng are
// not read by them.
template <class T>
struct body_state {
  std::vector<vec2<T>> shape;  // rest shape, centred on its center of mass
  vec2<T> pos;
  T ang;
};

// The constructor's part: shape.shape moved so that its center of mass is
// the origin, as new Vector2(p.x - center.x, p.y - center.y). (The JS default
// pos = new Vector2(0, 0) names an undefined global: pos must be passed.)
template <class T>
body_state<T> make_body(const std::vector<vec2<T>>& shape, const vec2<T>& pos, const T& ang) {
  const vec2<T> center = articles::center_of_mass(shape);
  body_state<T> b{{}, pos, ang};
  for (const auto& p : shape) b.shape.push_back({T(p.x - center.x), T(p.y - center.y)});
  return b;
}

// get worldShape: fromValues(c, -s, pos.x, s, c, pos.y, 0, 0, 0).mulVectors(shape, 1),
// i.e. the shape rotated by ang, then translated by pos.
template <class T, class Libm = std_libm<T>>
std::vector<vec2<T>> world_shape(const std::vector<vec2<T>>& shape, const vec2<T>& pos, const T& ang,
                                 const Libm& libm = {}) {
  const T c = libm.cos(ang);
  const T s = libm.sin(ang);
  return matrix3<T>::from_values(c, T(-s), pos.x, s, c, pos.y, T(0), T(0), T(0)).mul_vectors(shape, T(1));
}

template <class T, class Libm = std_libm<T>>
std::vector<vec2<T>> world_shape(const body_state<T>& body, const Libm& libm = {}) {
  return articles::world_shape(body.shape, body.pos, body.ang, libm);
}

// Body.shapeMatch() with this.collisionShape = collision: returns the new
// collisionShape, the goal positions. D-SHAPE-2: MT, the transpose of
// shapeMatch's row-vector matrix, applied to the worldShape points as
// columns, is R x + (dst_cm - R src_cm) = R (x - src_cm) + dst_cm.
template <class T, class Libm = std_libm<T>>
std::vector<vec2<T>> shape_match_goals(const body_state<T>& body, const std::vector<vec2<T>>& collision,
                                       const Libm& libm = {}) {
  const std::vector<vec2<T>> world = articles::world_shape(body, libm);
  const matrix3<T> m = articles::shape_match(world, collision);
  const auto& e = m.m;
  const matrix3<T> mt =
      matrix3<T>::from_values(e[0][0], e[1][0], e[2][0], e[0][1], e[1][1], e[2][1], e[0][2], e[1][2], e[2][2]);
  return mt.mul_vectors(world, T(1));  // JS calls the worldShape getter again: same values
}

template <class T>
struct shape_update {
  body_state<T> body;  // pos and ang updated, shape unchanged
  vec2<T> center;      // centerOfMass(shape)
  mat2<T> rotation;    // shapeMatchRotation(worldShape - pos, shape - center) = R^T
  bool rotated;        // false when rotation[0][0] is NaN: ang was kept
};

// Body.updateFromShape(shape). D-SHAPE-3:
//   rot = shapeMatchRotation(worldShape - pos, shape - center)
//   if rot[0][0] is not NaN: ang += atan2(rot[0][1], rot[0][0]) * 0.98
//   pos = lerp(pos, center, 0.98)
// The source offsets are taken from pos, not from the world shape's computed
// center of mass. Only rot[0][0] is tested for NaN; infinities pass.
template <class T, class Libm = std_libm<T>>
shape_update<T> update_from_shape(const body_state<T>& body, const std::vector<vec2<T>>& shape, const Libm& libm = {}) {
  using std::isnan;
  const vec2<T> center = articles::center_of_mass(shape);
  std::vector<vec2<T>> src;
  for (const auto& p : articles::world_shape(body, libm)) src.push_back(p - body.pos);
  std::vector<vec2<T>> dst;
  for (const auto& p : shape) dst.push_back(p - center);
  shape_update<T> out{body, center, articles::shape_match_rotation(src, dst), false};
  const T attenuation = shape_match_attenuation<T>();
  if (!isnan(out.rotation.a)) {
    const T dang = libm.atan2(out.rotation.b, out.rotation.a);
    out.body.ang = T(body.ang + dang * attenuation);
    out.rotated = true;
  }
  out.body.pos = articles::lerp(body.pos, center, attenuation);
  return out;
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
