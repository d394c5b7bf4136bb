#!/usr/bin/env node
'use strict';
// Self-test of our math.js (plain Node + assert, no npm).
//
//   node data/generate/test_math.js [<articles-js-dir>]
//
// Part 1 tests Vector2/Matrix3 on their own. Part 2 (needs the articles'
// JavaScript folder: the argument, else the environment variable
// RIGIDREF_ARTICLES_JS; skipped without either)
// loads the articles' BodyShapeMatching.js, unmodified, through our AMD loader
// and checks that with our conventions worldShape is "rotate by ang, then
// translate by pos" and Body.shapeMatch() yields the goal positions
// g_i = R (x_i^0 - x_cm^0) + x_cm; it also checks that the seven other
// combinations of fromValues order / mulVectors side / mulMatrix order fail,
// i.e. that the article's call sites force the convention math.js documents.

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { AmdLoader } = require('./amd_loader');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const articlesArg = process.argv[2] || process.env.RIGIDREF_ARTICLES_JS || '';
const articlesDir = articlesArg ? path.resolve(articlesArg) : '';
const haveArticles = articlesDir !== '' && fs.existsSync(path.join(articlesDir, 'BodyShapeMatching.js'));
const quiet = { log() {}, warn() {}, error() {}, info() {}, debug() {} };

// Part 1 needs no article code; point articleDir at our own folder then.
const math = new AmdLoader({ articleDir: haveArticles ? articlesDir : __dirname, ownDir: __dirname }).load('./math');
const { Vector2, Matrix3 } = math;

let passed = 0;
let failed = 0;
function test(name, fn) {
  try {
    fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${e.stack.split('\n').slice(0, 3).join('\n     ')}`);
  }
}
const same = (a, b, msg) => assert.ok(Object.is(a, b), `${msg || ''} expected ${b}, got ${a}`);
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg || ''} expected ${b}, got ${a}`);
const vec = (v, x, y, msg) => { same(v.x, x, msg); same(v.y, y, msg); };

// ------------------------------------------------------------ Part 1: unit

test('Vector2 constructor and fields', () => {
  const v = new Vector2(1.5, -2);
  vec(v, 1.5, -2);
  v.y -= 0.5; // written in place by BodyForce.projectWalls
  same(v.y, -2.5);
});

test('addV/subV/mulS/divS return new vectors and leave operands unchanged', () => {
  const a = new Vector2(1, 2);
  const b = new Vector2(0.25, -4);
  vec(a.addV(b), 1.25, -2);
  vec(a.subV(b), 0.75, 6);
  vec(a.mulS(3), 3, 6);
  vec(a.mulS(-1), -1, -2);
  vec(a.divS(4), 0.25, 0.5);
  vec(a, 1, 2);
  vec(b, 0.25, -4);
  assert.notStrictEqual(a.addV(new Vector2(0, 0)), a);
});

test('divS divides (3/10 = 0.3, not 3*(1/10) = 0.30000000000000004)', () => {
  same(new Vector2(3, 3).divS(10).x, 0.3);
});

test('dot and cross (z of 3D cross product, standard sign)', () => {
  const a = new Vector2(2, 3);
  const b = new Vector2(-5, 7);
  same(a.dot(b), 2 * -5 + 3 * 7);
  same(new Vector2(1, 0).cross(new Vector2(0, 1)), 1);
  same(new Vector2(0, 1).cross(new Vector2(1, 0)), -1);
  same(a.cross(b), 2 * 7 - 3 * -5);
  same(a.cross(a), 0);
});

test('getLength is sqrt(x*x + y*y)', () => {
  same(new Vector2(3, 4).getLength(), 5);
  same(new Vector2(0.1, 0.2).getLength(), Math.sqrt(0.1 * 0.1 + 0.2 * 0.2));
  same(new Vector2(0, 0).getLength(), 0);
});

test('normalized() returns a new unit vector, operand unchanged', () => {
  const v = new Vector2(3, 4);
  const u = v.normalized();
  vec(u, 0.6, 0.8);
  vec(v, 3, 4);
  assert.notStrictEqual(u, v);
});

test('normalize() works in place (bare-statement use in BodyForce)', () => {
  const v = new Vector2(-3, 4);
  const r = v.normalize();
  vec(v, -0.6, 0.8);
  assert.strictEqual(r, v);
  const z = new Vector2(0, 0);
  z.normalize(); // like the article: no guard, becomes NaN
  assert.ok(Number.isNaN(z.x) && Number.isNaN(z.y));
});

test('copy() is a distinct equal vector', () => {
  const v = new Vector2(1, 2);
  const c = v.copy();
  assert.notStrictEqual(c, v);
  vec(c, 1, 2);
  c.x = 9;
  same(v.x, 1);
});

test('Matrix3: new is identity; fromValues is row-major and returns a new matrix', () => {
  const id = new Matrix3();
  const m = id.fromValues(1, 2, 3, 4, 5, 6, 7, 8, 9);
  assert.notStrictEqual(m, id);
  assert.ok(m instanceof Matrix3);
  assert.deepStrictEqual(
    [m.m00, m.m01, m.m02, m.m10, m.m11, m.m12, m.m20, m.m21, m.m22], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepStrictEqual(
    [id.m00, id.m01, id.m02, id.m10, id.m11, id.m12, id.m20, id.m21, id.m22], [1, 0, 0, 0, 1, 0, 0, 0, 1]);
});

test('mulVectors: M * (x, y, w), new array, same length and order, inputs unchanged', () => {
  const m = new Matrix3().fromValues(1, 2, 3, 4, 5, 6, 7, 8, 9);
  const pts = [new Vector2(1, 0), new Vector2(0, 1), new Vector2(2, -1)];
  const out = m.mulVectors(pts, 1);
  assert.notStrictEqual(out, pts);
  assert.strictEqual(out.length, 3);
  vec(out[0], 1 + 3, 4 + 6);
  vec(out[1], 2 + 3, 5 + 6);
  vec(out[2], 2 - 2 + 3, 8 - 5 + 6);
  vec(pts[2], 2, -1);
  vec(m.mulVectors([new Vector2(1, 1)], 0)[0], 3, 9); // w = 0: direction, no translation
  assert.ok(out.every((p) => p instanceof Vector2));
});

test('worldShape matrix (c,-s,px, s,c,py, 0,0,0): rotate by ang then translate, no NaN from zero row', () => {
  const ang = 0.7;
  const pos = new Vector2(-8, 10);
  const [c, s] = [Math.cos(ang), Math.sin(ang)];
  const m = new Matrix3().fromValues(c, -s, pos.x, s, c, pos.y, 0, 0, 0);
  const shape = [new Vector2(1, 0), new Vector2(0, 2), new Vector2(-1.5, -0.5)];
  m.mulVectors(shape, 1).forEach((q, i) => {
    const p = shape[i];
    vec(q, c * p.x - s * p.y + pos.x, s * p.x + c * p.y + pos.y, `vertex ${i}`);
  });
  // ang = pi/2 takes (1, 0) to pos + (0, 1): counter-clockwise.
  const q = new Matrix3().fromValues(0, -1, 5, 1, 0, 7, 0, 0, 0).mulVectors([new Vector2(1, 0)], 1)[0];
  vec(q, 5, 8);
});

test('mulMatrix is this * other', () => {
  const a = new Matrix3().fromValues(1, 2, 3, 4, 5, 6, 7, 8, 10);
  const b = new Matrix3().fromValues(2, 0, 1, -1, 3, 0, 4, 1, -2);
  const p = a.mulMatrix(b);
  assert.deepStrictEqual(
    [p.m00, p.m01, p.m02, p.m10, p.m11, p.m12, p.m20, p.m21, p.m22],
    [12, 9, -5, 27, 21, -8, 46, 34, -13]);
  // For affine matrices (last row 0 0 1), (A*B) applied = A applied after B.
  const A = new Matrix3().fromValues(0, -1, 3, 1, 0, -2, 0, 0, 1);
  const B = new Matrix3().fromValues(2, 0, 1, 0, 2, 1, 0, 0, 1);
  const pts = [new Vector2(1, 2), new Vector2(-3, 0.5)];
  const lhs = A.mulMatrix(B).mulVectors(pts, 1);
  const rhs = A.mulVectors(B.mulVectors(pts, 1), 1);
  lhs.forEach((v, i) => vec(v, rhs[i].x, rhs[i].y));
});

test("shapeMatch composition: transpose of trans.mulMatrix(rot) = 'translate by -srcCenter, then rotate, then +dstCenter'", () => {
  // The matrices built as README.md lists the call sites (row-vector form, translation in the bottom row).
  const th = 0.4;
  const [a, b, c, d] = [Math.cos(th), Math.sin(th), -Math.sin(th), Math.cos(th)]; // Q = R^T
  const sc = new Vector2(1, 2);
  const dc = new Vector2(-3, 5);
  const rot = new Matrix3().fromValues(a, b, 0, c, d, 0, dc.x, dc.y, 1);
  const trans = new Matrix3().fromValues(1, 0, 0, 0, 1, 0, -sc.x, -sc.y, 1);
  const M = trans.mulMatrix(rot);
  const MT = new Matrix3().fromValues(M.m00, M.m10, M.m20, M.m01, M.m11, M.m21, M.m02, M.m12, M.m22);
  const p = new Vector2(4, -1);
  const got = MT.mulVectors([p], 1)[0];
  const u = p.subV(sc);
  close(got.x, Math.cos(th) * u.x - Math.sin(th) * u.y + dc.x, 1e-14);
  close(got.y, Math.sin(th) * u.x + Math.cos(th) * u.y + dc.y, 1e-14);
});

// ---------------------------------- Part 2: the articles' BodyShapeMatching.js

// Matrix3 under any of the 8 combinations of conventions (ours: all false).
function matrixVariant({ colMajor, rowVectors, reversed }) {
  const names = ['m00', 'm01', 'm02', 'm10', 'm11', 'm12', 'm20', 'm21', 'm22'];
  const get = (m, r, c) => m['m' + r + c];
  class M3 {
    fromValues(...v) {
      const m = new M3();
      for (let k = 0; k < 9; k++) {
        const [r, c] = colMajor ? [k % 3, Math.floor(k / 3)] : [Math.floor(k / 3), k % 3];
        m['m' + r + c] = v[k];
      }
      return m;
    }
    mulMatrix(o) {
      const [x, y] = reversed ? [o, this] : [this, o];
      const m = new M3();
      for (const n of names) {
        const [r, c] = [Number(n[1]), Number(n[2])];
        m[n] = get(x, r, 0) * get(y, 0, c) + get(x, r, 1) * get(y, 1, c) + get(x, r, 2) * get(y, 2, c);
      }
      return m;
    }
    mulVectors(points, w) {
      return points.map((p) => {
        const v = [p.x, p.y, w];
        const comp = (i) => (rowVectors
          ? v[0] * get(this, 0, i) + v[1] * get(this, 1, i) + v[2] * get(this, 2, i)
          : get(this, i, 0) * v[0] + get(this, i, 1) * v[1] + get(this, i, 2) * v[2]);
        return new Vector2(comp(0), comp(1));
      });
    }
  }
  return M3;
}

function loadBody(mathModule) {
  const loader = new AmdLoader({
    articleDir: articlesDir, ownDir: __dirname, console: quiet,
    preloaded: mathModule ? { './math': mathModule } : {},
  });
  return loader.load('./BodyShapeMatching');
}

// Independent reference: best rotation angle of the centred points p onto q
// (2D Procrustes / Kabsch): theta = atan2(sum p x q, sum p . q).
function goalPositions(x0, x) {
  const cm = (pts) => pts.reduce((s, p) => s.addV(p), new Vector2(0, 0)).divS(pts.length);
  const [c0, c1] = [cm(x0), cm(x)];
  let sc = 0;
  let sd = 0;
  x0.forEach((p0, i) => {
    const p = p0.subV(c0);
    const q = x[i].subV(c1);
    sc += p.cross(q);
    sd += p.dot(q);
  });
  const th = Math.atan2(sc, sd);
  const [c, s] = [Math.cos(th), Math.sin(th)];
  return x0.map((p0) => {
    const p = p0.subV(c0);
    return new Vector2(c * p.x - s * p.y + c1.x, s * p.x + c * p.y + c1.y);
  });
}

// Runs the two checks on the article's Body with the given math module;
// returns the list of failures (empty = the convention works).
function articleChecks(mathModule) {
  const Body = loadBody(mathModule);
  const failures = [];
  const shape = [new Vector2(0, 0), new Vector2(2, 0.3), new Vector2(2.4, 1.7), new Vector2(0.6, 2.2), new Vector2(-0.5, 1)];
  const ang = 0.6;
  const pos = new Vector2(7, -3);
  const body = new Body({ shape, inertia: 1 }, pos, ang, 1);

  // worldShape = shape (centred by the constructor) rotated by ang, then translated by pos.
  const [c, s] = [Math.cos(ang), Math.sin(ang)];
  const ws = body.worldShape;
  body.shape.forEach((p, i) => {
    const ex = new Vector2(c * p.x - s * p.y + pos.x, s * p.x + c * p.y + pos.y);
    if (!(Math.abs(ws[i].x - ex.x) <= 1e-12 && Math.abs(ws[i].y - ex.y) <= 1e-12)) {
      failures.push(`worldShape[${i}] = (${ws[i].x}, ${ws[i].y}), expected (${ex.x}, ${ex.y})`);
    }
  });

  // shapeMatch: collisionShape = a rigid motion of worldShape plus a perturbation.
  const th = -0.9;
  const t = new Vector2(1.25, -2.5);
  const bump = [[0.05, -0.02], [-0.03, 0.04], [0.01, 0.06], [-0.04, -0.01], [0.02, 0.03]];
  const x0 = body.worldShape;
  body.collisionShape = x0.map((p, i) => new Vector2(
    Math.cos(th) * p.x - Math.sin(th) * p.y + t.x + bump[i][0],
    Math.sin(th) * p.x + Math.cos(th) * p.y + t.y + bump[i][1]));
  const expected = goalPositions(x0, body.collisionShape);
  body.shapeMatch();
  const got = body.collisionShape;
  got.forEach((g, i) => {
    const e = expected[i];
    if (!(Math.abs(g.x - e.x) <= 1e-12 && Math.abs(g.y - e.y) <= 1e-12)) {
      failures.push(`shapeMatch goal[${i}] = (${g.x}, ${g.y}), expected (${e.x}, ${e.y})`);
    }
  });
  return failures;
}

if (haveArticles) {
  test('BodyShapeMatching.js with our math.js: worldShape and shapeMatch() goal positions', () => {
    const failures = articleChecks(null);
    assert.deepStrictEqual(failures, []);
  });

  test('harness sanity: the variant with our conventions also passes', () => {
    const m = { Vector2, Matrix3: matrixVariant({ colMajor: false, rowVectors: false, reversed: false }) };
    assert.deepStrictEqual(articleChecks(m), []);
  });

  test('the 7 other conventions (fromValues order x mulVectors side x mulMatrix order) all fail', () => {
    for (const colMajor of [false, true]) {
      for (const rowVectors of [false, true]) {
        for (const reversed of [false, true]) {
          if (!colMajor && !rowVectors && !reversed) continue;
          const m = { Vector2, Matrix3: matrixVariant({ colMajor, rowVectors, reversed }) };
          const f = articleChecks(m);
          assert.ok(f.length > 0, `convention ${JSON.stringify({ colMajor, rowVectors, reversed })} unexpectedly passes`);
        }
      }
    }
  });

  test('loader: missing gjk_epa.js gives a clear error (BodyForce.js needs it)', () => {
    const loader = new AmdLoader({ articleDir: articlesDir, ownDir: __dirname, console: quiet });
    if (fs.existsSync(path.join(__dirname, 'gjk_epa.js'))) return; // written by later work
    assert.throws(() => loader.load('./BodyForce'),
      /module '\.\/gjk_epa' \(required by '\.\/BodyForce'\) not found: expected .*gjk_epa\.js/);
  });
} else {
  console.log(articlesDir === ''
    ? 'skip Part 2: no articles folder given (pass <articles-js-dir> or set RIGIDREF_ARTICLES_JS)'
    : `skip Part 2: no article code at ${articlesDir} (pass <articles-js-dir>)`);
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
