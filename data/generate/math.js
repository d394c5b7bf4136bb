// Our replacement for the articles' missing `math.js` ("剛体の衝突 1" is not
// available). AMD module: loaded as './math' by data/generate/amd_loader.js.
// It provides exactly the members the articles' code uses (data/README.md,
// "`math.js` conventions").
//
// Floating-point note: every operation is written as a fixed sequence of
// IEEE-754 double operations evaluated left to right (JS never fuses a*b+c),
// so a C++ port built with -ffp-contract=off reproduces them bit for bit.
// divS divides (it does not multiply by 1/s) and getLength is sqrt(x*x+y*y)
// (not Math.hypot, whose rounding is implementation-defined).
//
// ---- Matrix3 conventions, and why ----
// The seeds never document fromValues/mulMatrix/mulVectors; these choices are
// the ones that make every call site mean what the articles say:
//
// (1) fromValues(v0..v8) is ROW-MAJOR: m00=v0 m01=v1 m02=v2 / m10=v3 ... m22=v8,
//     where mRC is row R, column C.
// (2) mulVectors(points, w) treats each point as the column vector (x, y, w)
//     and returns the first two components of M*(x, y, w):
//       x' = m00*x + m01*y + m02*w,  y' = m10*x + m11*y + m12*w.
//     The third row is ignored (no division by it): Body.worldShape builds its
//     matrix with a third row of 0, 0, 0, so a projective divide would give
//     NaN; ignoring it is the only reading under which worldShape works.
//     worldShape: fromValues(c, -s, px, s, c, py, 0, 0, 0) with w = 1 gives
//       x' = c*x - s*y + px,  y' = s*x + c*y + py
//     = the shape rotated by ang (counter-clockwise) then translated by pos.
// (3) mulMatrix(other) returns the ordinary product  this * other.
//
// Check of BodyShapeMatching.js with (1)-(3). shapeMatch(src, dst) builds
//   rot   = [[a, b, 0], [c, d, 0], [dcx, dcy, 1]]   ([[a,b],[c,d]] = Q)
//   trans = [[1, 0, 0], [0, 1, 0], [-scx, -scy, 1]]
// i.e. both have their translation in the bottom ROW: they are written for
// row vectors (p' = p * M). M = trans.mulMatrix(rot) = trans * rot, so for a
// row vector p:  p * M = ((p - sc) * Q) + dc, i.e. translate by -srcCenter
// first, then rotate, then translate by +dstCenter. Body.shapeMatch() then
// builds MT with fromValues(M.m00, M.m10, M.m20, M.m01, ...), which under (1)
// is the transpose of M, and applies it with (2) to column vectors:
//   MT * (x, y, 1)^T = (p * M)^T = Q^T (x - sc) + dc.
// Q = shapeMatchRotation(src, dst) = Apq * (Apq^T Apq)^(-1/2) with
// Apq = sum src_i dst_i^T. Writing the polar decomposition of
// A = sum dst_i src_i^T = R S (R the best rotation taking src onto dst, as in
// Mueller et al. 2005), Apq = A^T = S R^T and Q = S R^T (R S^2 R^T)^(-1/2)
// = S R^T R S^-1 R^T = R^T. Hence MT*(x,y,1) = R (x - sc) + dc: the goal
// positions g_i = R (x_i^0 - x_cm^0) + x_cm that the article states.
// Reversing the product in (3) (other * this) would give R x + dc - sc, and a
// column-major fromValues with row-vector mulVectors (which also satisfies
// worldShape) loses the translation in shapeMatch; test_math.js checks both.

define([], function () {
  'use strict';

  class Vector2 {
    constructor(x, y) {
      this.x = x;
      this.y = y;
    }
    // All of these return new vectors: the articles call them on objects that
    // must not change (e.g. walls[i].position.addV(d)).
    addV(v) { return new Vector2(this.x + v.x, this.y + v.y); }
    subV(v) { return new Vector2(this.x - v.x, this.y - v.y); }
    mulS(s) { return new Vector2(this.x * s, this.y * s); }
    divS(s) { return new Vector2(this.x / s, this.y / s); }
    dot(v) { return this.x * v.x + this.y * v.y; }
    // z component of (this, 0) x (v, 0): the articles use it as a torque r x F
    // and as the signed speed along the wall tangent (n.y, -n.x).
    cross(v) { return this.x * v.y - this.y * v.x; }
    getLength() { return Math.sqrt(this.x * this.x + this.y * this.y); }
    normalized() {
      const len = this.getLength();
      return new Vector2(this.x / len, this.y / len);
    }
    // In place (the articles call it as a bare statement). Like the articles,
    // no zero-length guard: a zero vector becomes (NaN, NaN).
    normalize() {
      const len = this.getLength();
      this.x /= len;
      this.y /= len;
      return this;
    }
    copy() { return new Vector2(this.x, this.y); }
  }

  class Matrix3 {
    // Identity; the articles only use a fresh Matrix3 to call fromValues on.
    constructor() {
      this.m00 = 1; this.m01 = 0; this.m02 = 0;
      this.m10 = 0; this.m11 = 1; this.m12 = 0;
      this.m20 = 0; this.m21 = 0; this.m22 = 1;
    }
    // Row-major, see (1). Returns a new matrix (call sites always assign it).
    fromValues(v0, v1, v2, v3, v4, v5, v6, v7, v8) {
      const m = new Matrix3();
      m.m00 = v0; m.m01 = v1; m.m02 = v2;
      m.m10 = v3; m.m11 = v4; m.m12 = v5;
      m.m20 = v6; m.m21 = v7; m.m22 = v8;
      return m;
    }
    // this * other, see (3). Each entry summed left to right over k = 0, 1, 2.
    mulMatrix(o) {
      const a = this;
      const r = new Matrix3();
      r.m00 = a.m00 * o.m00 + a.m01 * o.m10 + a.m02 * o.m20;
      r.m01 = a.m00 * o.m01 + a.m01 * o.m11 + a.m02 * o.m21;
      r.m02 = a.m00 * o.m02 + a.m01 * o.m12 + a.m02 * o.m22;
      r.m10 = a.m10 * o.m00 + a.m11 * o.m10 + a.m12 * o.m20;
      r.m11 = a.m10 * o.m01 + a.m11 * o.m11 + a.m12 * o.m21;
      r.m12 = a.m10 * o.m02 + a.m11 * o.m12 + a.m12 * o.m22;
      r.m20 = a.m20 * o.m00 + a.m21 * o.m10 + a.m22 * o.m20;
      r.m21 = a.m20 * o.m01 + a.m21 * o.m11 + a.m22 * o.m21;
      r.m22 = a.m20 * o.m02 + a.m21 * o.m12 + a.m22 * o.m22;
      return r;
    }
    // M * (x, y, w)^T, first two components, see (2). New array, same order.
    mulVectors(points, w) {
      return points.map((p) => new Vector2(
        this.m00 * p.x + this.m01 * p.y + this.m02 * w,
        this.m10 * p.x + this.m11 * p.y + this.m12 * w));
    }
  }

  return { Vector2, Matrix3 };
});
