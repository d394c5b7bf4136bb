#!/usr/bin/env node
'use strict';
// Golden-data generator: runs the articles' JavaScript, unmodified, from the
// articles directory given on the command line and writes its results (with
// exact IEEE-754 bits) to data/golden/*.json. See data/README.md.
//
// Only Node built-ins are used. Output is byte-reproducible for a given Node/V8
// version (no timestamps, fixed key order, no randomness), so `--check` can
// regenerate in memory and compare with the committed files.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { AmdLoader } = require('./amd_loader');

const OWN_DIR = __dirname;
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_OUT = path.join(REPO_ROOT, 'data', 'golden');
const GENERATOR = 'data/generate/generate.js';

const USAGE = `\
Usage:
  node data/generate/generate.js <articles-js-dir> [--out <dir>]
      Run the article code found in <articles-js-dir> (the folder with the
      articles' JavaScript: collision-force.html, BodyForce.js, ...) and
      write the golden files into <dir> (default: data/golden).

  node data/generate/generate.js --check <articles-js-dir> [--out <dir>]
      Regenerate in memory and compare byte for byte with the files already in
      <dir> (default: data/golden). Exit 0 if identical, 1 with a summary of
      the differences otherwise.

  node data/generate/generate.js --help
      Show this text.

The article code is read from <articles-js-dir> at run time and is never
copied into this repository. Exit status 2 means a usage or input error.
Files produced: create_polygon_points.json, mat2.json, shape_matching.json.
`;

// ---------------------------------------------------------------- utilities

class UsageError extends Error {}

function sha256(buf) {
  return crypto.createHash('sha256').update(buf).digest('hex');
}

/** Exact bits of a double as "0x" + 16 lowercase hex digits. */
function hex(x) {
  if (typeof x !== 'number') throw new Error(`hex(): not a number: ${x}`);
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  return '0x' + dv.getBigUint64(0).toString(16).padStart(16, '0');
}

/** Path relative to the repository root, with '/' separators. */
function repoRel(p) {
  return path.relative(REPO_ROOT, path.resolve(p)).split(path.sep).join('/') || '.';
}

// JSON text with 2-space indentation; arrays of scalars stay on one line so
// vertex lists remain readable. Key order is insertion order (fixed below).
function toJson(v, indent = '') {
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every((e) => e === null || typeof e !== 'object')) {
      return '[' + v.map((e) => toJson(e)).join(', ') + ']';
    }
    return '[\n' + v.map((e) => inner + toJson(e, inner)).join(',\n') + '\n' + indent + ']';
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    return '{\n' + keys.map((k) => inner + JSON.stringify(k) + ': ' + toJson(v[k], inner)).join(',\n') +
      '\n' + indent + '}';
  }
  if (typeof v === 'number') {
    // JS's Number->string is the shortest string that round-trips; JSON has no
    // NaN/Infinity and would silently write null, so refuse them.
    if (!Number.isFinite(v)) throw new Error(`non-finite number in output: ${v}`);
    if (!Object.is(Number(String(v)), v)) throw new Error(`number does not round-trip: ${v}`);
  }
  return JSON.stringify(v);
}

// ------------------------------------------- extracting code from the pages

// If a string literal, template literal or comment starts at src[i], returns
// the index just past it; otherwise -1. (Regular-expression literals are not
// recognised; the article scripts contain none.)
function skipLiteralOrComment(src, i) {
  const c = src[i];
  const d = src[i + 1];
  if (c === '/' && d === '/') {
    const e = src.indexOf('\n', i);
    return e < 0 ? src.length : e;
  }
  if (c === '/' && d === '*') {
    const e = src.indexOf('*/', i + 2);
    if (e < 0) throw new Error(`unterminated /* comment at offset ${i}`);
    return e + 2;
  }
  if (c === '"' || c === "'") {
    for (let j = i + 1; j < src.length; j++) {
      if (src[j] === '\\') { j++; continue; }
      if (src[j] === c) return j + 1;
      if (src[j] === '\n') break;
    }
    throw new Error(`unterminated string literal at offset ${i}`);
  }
  if (c === '`') {
    for (let j = i + 1; j < src.length;) {
      if (src[j] === '\\') { j += 2; continue; }
      if (src[j] === '`') return j + 1;
      if (src[j] === '$' && src[j + 1] === '{') { j = matchBracket(src, j + 1) + 1; continue; }
      j++;
    }
    throw new Error(`unterminated template literal at offset ${i}`);
  }
  return -1;
}

// src[open] is '(', '[' or '{'; returns the index of its matching closer,
// ignoring brackets inside strings, template literals and comments.
function matchBracket(src, open) {
  const closer = { '(': ')', '[': ']', '{': '}' };
  if (!(src[open] in closer)) throw new Error(`matchBracket: no bracket at offset ${open}`);
  const stack = [];
  for (let i = open; i < src.length;) {
    const skip = skipLiteralOrComment(src, i);
    if (skip >= 0) { i = skip; continue; }
    const c = src[i];
    if (c in closer) {
      stack.push(closer[c]);
    } else if (c === ')' || c === ']' || c === '}') {
      const want = stack.pop();
      if (c !== want) throw new Error(`mismatched '${c}' at offset ${i} (expected '${want}')`);
      if (stack.length === 0) return i;
    }
    i++;
  }
  throw new Error(`unbalanced '${src[open]}' at offset ${open}`);
}

/** Inline (no src=) <script> elements of an HTML page: [{text, offset}]. */
function inlineScripts(html) {
  const out = [];
  const open = /<script\b([^>]*)>/gi;
  let m;
  while ((m = open.exec(html)) !== null) {
    const start = m.index + m[0].length;
    const close = /<\/script\s*>/gi;
    close.lastIndex = start;
    const c = close.exec(html);
    if (!c) throw new Error(`<script> at offset ${m.index} is not closed`);
    if (!/\bsrc\s*=/i.test(m[1])) out.push({ text: html.slice(start, c.index), offset: start });
    open.lastIndex = c.index + c[0].length;
  }
  return out;
}

/**
 * Source text of `function <name>(...) {...}` in a script, found outside
 * strings and comments; must occur exactly once. Returns {text, start, end}.
 */
function functionSource(script, name) {
  const head = new RegExp(`function\\s+${name}\\s*\\(`, 'y');
  const found = [];
  for (let i = 0; i < script.length;) {
    const skip = skipLiteralOrComment(script, i);
    if (skip >= 0) { i = skip; continue; }
    head.lastIndex = i;
    if (head.test(script) && !/[A-Za-z0-9_$]/.test(script[i - 1] || '')) found.push(i);
    i++;
  }
  if (found.length !== 1) {
    throw new Error(`expected exactly one 'function ${name}(' in the script, found ${found.length}`);
  }
  const start = found[0];
  const paren = script.indexOf('(', start);
  let j = matchBracket(script, paren) + 1;
  for (;;) { // whitespace and comments between ')' and '{'
    const skip = skipLiteralOrComment(script, j);
    if (skip >= 0 && script[j] === '/') { j = skip; continue; }
    if (/\s/.test(script[j])) { j++; continue; }
    break;
  }
  if (script[j] !== '{') throw new Error(`function ${name}: expected '{' at offset ${j}`);
  const end = matchBracket(script, j) + 1;
  return { text: script.slice(start, end), start, end };
}

/**
 * Reads an article page and returns its function `name`, evaluated from the
 * exact source text in a fresh vm context whose globals are `globals`.
 */
function loadPageFunction(file, name, globals) {
  const html = fs.readFileSync(file, 'utf8');
  const hits = [];
  for (const s of inlineScripts(html)) {
    if (!s.text.includes(name)) continue;
    const f = functionSource(s.text, name);
    hits.push({ text: f.text, htmlOffset: s.offset + f.start });
  }
  if (hits.length !== 1) {
    throw new Error(`${file}: expected '${name}' in exactly one inline <script>, found ${hits.length}`);
  }
  const { text, htmlOffset } = hits[0];
  // Line/column offsets make stack traces point into the HTML file.
  const before = html.slice(0, htmlOffset);
  const lineOffset = before.split('\n').length - 1;
  const columnOffset = htmlOffset - (before.lastIndexOf('\n') + 1);
  const context = vm.createContext({ ...globals });
  new vm.Script(text, { filename: file, lineOffset, columnOffset }).runInContext(context);
  const fn = context[name];
  if (typeof fn !== 'function') throw new Error(`${file}: evaluating '${name}' did not define a function`);
  return { fn, text, line: lineOffset + 1 };
}

// ------------------------------------------------ create_polygon_points.json

const PAGES = ['collision-force.html', 'collision-shapeMatching.html'];
const NSIDES = Array.from({ length: 14 }, (_, k) => k + 3); // 3..16
const RADII = ['1', '0.5', '2', '1.5', '3', '10', '0.1', '1e-3', '1e3'];

/** Returns {cases, fnSourceSha256, identicalText}. */
function createPolygonPointsCases(articlesDir, math) {
  // The function's free variables are `math` (our module) and `Math` (the real one).
  const fns = PAGES.map((page) =>
    loadPageFunction(path.join(articlesDir, page), 'createPolygonPoints', { math, Math }));
  const identicalText = fns.every((f) => f.text === fns[0].text);

  const call = (f, n, r) => {
    // Called exactly as the pages call it: createPolygonPoints(new math.Vector2(0, 0), radius, nsides).
    const res = f.fn(new math.Vector2(0, 0), r, n);
    if (!res || !Array.isArray(res.shape) || res.shape.length !== n) {
      throw new Error(`createPolygonPoints(${n}, ${r}) returned an unexpected value`);
    }
    for (const p of res.shape) {
      if (!(p instanceof math.Vector2)) throw new Error('createPolygonPoints: vertex is not a math.Vector2');
    }
    return res;
  };
  const bits = (res) => [hex(res.inertia), ...res.shape.flatMap((p) => [hex(p.x), hex(p.y)])].join(' ');

  const cases = [];
  for (const n of NSIDES) {
    for (const rs of RADII) {
      const r = Number(rs);
      const results = fns.map((f) => call(f, n, r));
      // The two pages must agree bit for bit.
      for (let k = 1; k < results.length; k++) {
        if (bits(results[k]) !== bits(results[0])) {
          throw new Error(`${PAGES[k]} and ${PAGES[0]} disagree for nsides=${n} radius=${rs}`);
        }
      }
      const res = results[0];

      // V8 libm values, computed by our script in the same way the page does,
      // so the C++ test can substitute them and check the remaining arithmetic.
      const delta = Math.PI * 2 / n;
      const cosDelta = Math.cos(delta);
      const a = (1 + Math.cos(delta)) / 2;
      const b = (1 - Math.cos(delta)) / 2;
      const aCubed = a ** 3;
      const bCubed = b ** 3;
      const cosI = [];
      const sinI = [];
      for (let i = 0; i < n; i++) {
        cosI.push(Math.cos(delta * i));
        sinI.push(Math.sin(delta * i));
      }
      // Self-check: the recorded libm values must reproduce the page's output
      // exactly (guards against the substitution scheme silently being wrong).
      const inertia = r * r / 6 * (3 * (aCubed + bCubed) + 9 * a * b - 2 * b);
      if (!Object.is(inertia, res.inertia)) {
        throw new Error(`nsides=${n} radius=${rs}: inertia from recorded libm values differs from the page's`);
      }
      res.shape.forEach((p, i) => {
        if (!Object.is(0 + r * cosI[i], p.x) || !Object.is(0 + r * sinI[i], p.y)) {
          throw new Error(`nsides=${n} radius=${rs}: vertex ${i} differs from 0 + r*cos/sin(delta*i)`);
        }
      });

      cases.push({
        nsides: n,
        radius: rs,
        inertia: res.inertia,
        inertia_hex: hex(res.inertia),
        vertices: res.shape.map((p) => [p.x, p.y]),
        vertices_hex: res.shape.map((p) => [hex(p.x), hex(p.y)]),
        js_libm: {
          delta: hex(delta),
          cos_delta: hex(cosDelta),
          a_cubed: hex(aCubed),
          b_cubed: hex(bCubed),
          cos_delta_i: cosI.map(hex),
          sin_delta_i: sinI.map(hex),
        },
      });
    }
  }

  // Tier-up check: call the page functions many more times (so V8 optimises
  // them) and require the same bits as the first calls.
  const expect = cases.map((c) => [c.inertia_hex, ...c.vertices_hex.flat()].join(' '));
  for (let rep = 0; rep < 200; rep++) {
    for (const f of fns) {
      cases.forEach((c, k) => {
        if (bits(call(f, c.nsides, Number(c.radius))) !== expect[k]) {
          throw new Error(`createPolygonPoints gave different bits on repeated calls (nsides=${c.nsides} radius=${c.radius})`);
        }
      });
    }
  }

  return {
    cases,
    fnSourceSha256: sha256(Buffer.from(fns[0].text, 'utf8')),
    identicalText,
    lines: fns.map((f) => f.line),
  };
}

// ------------------------------------------ deterministic pseudo-random inputs

// mulberry32 (a public-domain 32-bit generator): small, fast and the same on
// every platform, which is all test inputs need. The seeds are recorded in
// `provenance`.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next32() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

class Rng {
  constructor(seed) { this.next32 = mulberry32(seed); }
  /** Uniform in [0, 1) on the grid of 2^-53: 21 + 32 random bits, exact. */
  uniform() { return ((this.next32() >>> 11) * 4294967296 + this.next32()) / 9007199254740992; }
  range(lo, hi) { return lo + (hi - lo) * this.uniform(); }
  /** 10^u, u uniform in [lo, hi): a log-uniform scale. */
  scale(lo, hi) { return 10 ** this.range(lo, hi); }
}

// Readable companions of the "_hex" fields. JSON has no NaN, infinities or
// negative zero, so those are written as the strings "NaN", "Infinity",
// "-Infinity" and "-0"; the "_hex" fields are authoritative.
function num(x) {
  if (Object.is(x, -0)) return '-0';
  return Number.isFinite(x) ? x : String(x);
}
const vecNum = (p) => [num(p.x), num(p.y)];
const vecHex = (p) => [hex(p.x), hex(p.y)];
const matNum = (m) => m.map((row) => row.map(num));
const matHex = (m) => m.map((row) => row.map(hex));
// A record's bits as one string, to compare repeated or alternative runs.
const bitString = (v) => JSON.stringify(v, (k, x) => (typeof x === 'number' ? hex(x) : x));

const QUIET = { log() {}, warn() {}, error() {}, info() {}, debug() {} };

// Runs `fn` 200 more times (V8 optimises hot code) and requires the same bits.
function requireStableBits(what, fn) {
  const first = bitString(fn());
  for (let rep = 0; rep < 200; rep++) {
    if (bitString(fn()) !== first) throw new Error(`${what}: different bits on repeated evaluation`);
  }
}

// ------------------------------------------------------------------ mat2.json

const MAT2_SEED = 20240511;

/** Inputs [{kind, label, a, b}] for every mat2.js function (b: second operand of mat2sum/mat2mul). */
function mat2Inputs(rng) {
  const general = (s = 1) => [[rng.range(-s, s), rng.range(-s, s)], [rng.range(-s, s), rng.range(-s, s)]];
  const out = [];
  const add = (kind, label, a) => out.push({ kind, label, a, b: general(rng.scale(-1, 1)) });

  add('identity', 'I', [[1, 0], [0, 1]]);
  add('zero', '0 (mat2sqrt: s = t = 0, 0/0)', [[0, 0], [0, 0]]);

  // Symmetric positive definite R diag(l1, l2) R^T, l1 / l2 = cond. Made
  // exactly symmetric, as the article's A^T A always is.
  for (const cond of [1, 10, 1e2, 1e3, 1e4, 1e6, 1e8, 1e10, 1e12]) {
    for (let k = 0; k < 3; k++) {
      const th = rng.range(-Math.PI, Math.PI);
      const l1 = rng.scale(-3, 3);
      const l2 = l1 / cond;
      const c = Math.cos(th);
      const s = Math.sin(th);
      const off = c * s * (l1 - l2);
      add('spd', `cond=${cond} #${k}`, [[c * c * l1 + s * s * l2, off], [off, s * s * l1 + c * c * l2]]);
    }
  }

  // Singular positive semidefinite v v^T: exact ones, and random ones whose
  // computed determinant may round to +tiny, 0 or -tiny.
  add('singular_psd', '[[1,2],[2,4]]', [[1, 2], [2, 4]]);
  add('singular_psd', '[[4,6],[6,9]]', [[4, 6], [6, 9]]);
  add('singular_psd', 'diag(1,0)', [[1, 0], [0, 0]]);
  add('singular_psd', 'diag(0,3)', [[0, 0], [0, 3]]);
  for (let k = 0; k < 6; k++) {
    const v = [rng.range(-2, 2), rng.range(-2, 2)];
    add('singular_psd', `v v^T #${k}`, [[v[0] * v[0], v[0] * v[1]], [v[1] * v[0], v[1] * v[1]]]);
  }

  // General matrices (either sign of det), at several scales.
  for (let k = 0; k < 12; k++) add('general', `random #${k}`, general(rng.scale(-3, 3)));

  // det < 0: Math.sqrt of a negative number, NaN.
  add('det_negative', 'diag(1,-1)', [[1, 0], [0, -1]]);
  add('det_negative', 'swap [[0,1],[1,0]]', [[0, 1], [1, 0]]);
  for (let k = 0; k < 4; k++) {
    const m = general(rng.scale(-2, 2));
    const det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    add('det_negative', `random #${k}`, det < 0 ? m : [m[1], m[0]]);
  }

  // det > 0 but no real square root (tr + 2 sqrt(det) <= 0).
  add('no_real_sqrt', '-I (t = 0)', [[-1, 0], [0, -1]]);
  add('no_real_sqrt', 'diag(-2,-3)', [[-2, 0], [0, -3]]);
  return out;
}

function mat2Cases(mat2) {
  const inputs = mat2Inputs(new Rng(MAT2_SEED));
  const evaluate = () => inputs.map(({ a, b }) => ({
    det: mat2.mat2det(a),
    transpose: mat2.mat2transpose(a),
    sum: mat2.mat2sum(a, b),
    mul: mat2.mat2mul(a, b),
    sqrt: mat2.mat2sqrt(a),
    inv: mat2.mat2inv(a),
  }));
  requireStableBits('mat2.js', evaluate);
  const results = evaluate();
  return inputs.map(({ kind, label, a, b }, k) => {
    const r = results[k];
    return {
      kind,
      label,
      a: matNum(a),
      a_hex: matHex(a),
      b: matNum(b),
      b_hex: matHex(b),
      det: num(r.det),
      det_hex: hex(r.det),
      transpose: matNum(r.transpose),
      transpose_hex: matHex(r.transpose),
      sum: matNum(r.sum),
      sum_hex: matHex(r.sum),
      mul: matNum(r.mul),
      mul_hex: matHex(r.mul),
      sqrt: matNum(r.sqrt),
      sqrt_hex: matHex(r.sqrt),
      inv: matNum(r.inv),
      inv_hex: matHex(r.inv),
    };
  });
}

// ------------------------------------- BodyShapeMatching.js and its private functions

const SHAPE_MODULE = 'BodyShapeMatching.js';
const PRIVATE_FUNCTIONS = ['centerOfMass', 'lerp', 'shapeMatch', 'shapeMatchRotation'];

/**
 * Loads BodyShapeMatching.js, unmodified, and returns its Body class together
 * with its module-private functions (see data/README.md):
 *  1. the file is run in a fresh vm context whose `define` only captures the
 *     dependency list and the factory function;
 *  2. the factory's source text is taken from V8 (Function.prototype.toString,
 *     the exact text parsed from the file; it must occur once in the file);
 *  3. that text is evaluated again, in the same context, with one statement
 *     added in front of the factory body. Function declarations are hoisted,
 *     so that statement can hand out the inner functions before any of the
 *     module's own code runs; the rest of the body is byte for byte the file's.
 *  4. the new factory is called with math (ours) and mat2 (the article's
 *     mat2.js through the AMD loader): its Body class closes over exactly the
 *     function objects returned, so Body and the private functions belong to
 *     one instance of the module.
 */
function loadShapeMatchingPrivate(articlesDir, loader) {
  const file = path.join(articlesDir, SHAPE_MODULE);
  const source = fs.readFileSync(file, 'utf8');
  let captured = null;
  let exposed = null;
  const context = vm.createContext({
    define(deps, factory) {
      if (captured) throw new Error(`${SHAPE_MODULE}: more than one define()`);
      captured = { deps, factory };
    },
    __rigidrefExpose(fns) { exposed = fns; },
    Math, // the host's, as in amd_loader.js: the same V8 libm entry points
    console: QUIET, // the Body constructor logs
  });
  vm.runInContext(source, context, { filename: file });
  if (!captured || typeof captured.factory !== 'function') throw new Error(`${SHAPE_MODULE}: no define(deps, factory)`);
  if (JSON.stringify(captured.deps) !== JSON.stringify(['./math', './mat2'])) {
    throw new Error(`${SHAPE_MODULE}: unexpected dependencies ${JSON.stringify(captured.deps)}`);
  }

  const text = Function.prototype.toString.call(captured.factory);
  const at = source.indexOf(text);
  if (at < 0 || source.indexOf(text, at + 1) >= 0) {
    throw new Error(`${SHAPE_MODULE}: the factory's text must occur exactly once in the file`);
  }
  let brace = matchBracket(text, text.indexOf('(')) + 1;
  while (/\s/.test(text[brace])) brace++;
  if (text[brace] !== '{') throw new Error(`${SHAPE_MODULE}: factory body not found`);
  // The getter defers reading the const until after the module body has run.
  const probe = ` __rigidrefExpose({ ${PRIVATE_FUNCTIONS.join(', ')}, ` +
    'get shapeMatchAttenuation() { return shapeMatchAttenuation; } });';
  const wrapped = '(' + text.slice(0, brace + 1) + probe + text.slice(brace + 1) + ')';
  const before = source.slice(0, at);
  const factory = new vm.Script(wrapped, {
    filename: file,
    lineOffset: before.split('\n').length - 1, // stack traces point into the file
    columnOffset: at - (before.lastIndexOf('\n') + 1) - 1,
  }).runInContext(context);

  const math = loader.load('./math');
  const mat2 = loader.load('./mat2');
  const Body = factory(math, mat2);
  for (const name of PRIVATE_FUNCTIONS) {
    if (typeof exposed[name] !== 'function') throw new Error(`${SHAPE_MODULE}: ${name} is not a function`);
  }
  if (typeof Body !== 'function') throw new Error(`${SHAPE_MODULE}: the factory did not return the Body class`);
  return {
    Body,
    fns: exposed,
    factoryLine: before.split('\n').length,
    factorySha256: sha256(Buffer.from(text, 'utf8')),
  };
}

// ---------------------------------------------------------- shape_matching.json

const SHAPE_SEED = 20240512;

function rotate(th, p) {
  const c = Math.cos(th);
  const s = Math.sin(th);
  return [c * p[0] - s * p[1], s * p[0] + c * p[1]];
}

/** Random points in a box of half-size `size` around `center`. */
function randomPoints(rng, n, size, center) {
  return Array.from({ length: n }, () => [center[0] + rng.range(-size, size), center[1] + rng.range(-size, size)]);
}

/** A random simple, counter-clockwise (star-shaped) polygon. */
function randomStarPolygon(rng, n, size) {
  const angles = Array.from({ length: n }, () => rng.range(0, 2 * Math.PI)).sort((x, y) => x - y);
  return angles.map((t) => { const r = size * rng.range(0.5, 1.5); return [r * Math.cos(t), r * Math.sin(t)]; });
}

/** Inputs [{kind, label, src, dst}] (arrays of [x, y]) for shapeMatch / shapeMatchRotation. */
function shapeMatchInputs(rng) {
  const out = [];
  const motion = (pts, th, t, mirror = false, noise = 0) => pts.map((p) => {
    const q = rotate(th, mirror ? [p[0], -p[1]] : p);
    return [q[0] + t[0] + noise * rng.range(-1, 1), q[1] + t[1] + noise * rng.range(-1, 1)];
  });
  const randomMotion = () => [rng.range(-Math.PI, Math.PI), [rng.range(-20, 20), rng.range(-20, 20)]];
  for (let n = 3; n <= 12; n++) {
    const size = rng.scale(-1, 1.5);
    const src = randomPoints(rng, n, size, [rng.range(-50, 50), rng.range(-50, 50)]);
    const [th, t] = randomMotion();
    out.push({ kind: 'rigid', label: `n=${n} theta=${th.toFixed(3)}`, src, dst: motion(src, th, t) });
  }
  for (let n = 3; n <= 12; n++) {
    const size = rng.scale(-1, 1.5);
    const src = randomPoints(rng, n, size, [rng.range(-50, 50), rng.range(-50, 50)]);
    const [th, t] = randomMotion();
    const rel = [1e-1, 1e-3, 1e-9][n % 3];
    out.push({ kind: 'noisy', label: `n=${n} noise=${rel}*size`, src, dst: motion(src, th, t, false, rel * size) });
  }
  for (const n of [3, 4, 6, 9]) {
    const src = randomStarPolygon(rng, n, rng.scale(-0.5, 1));
    const [th, t] = randomMotion();
    out.push({ kind: 'mirrored', label: `n=${n} (det Apq < 0)`, src, dst: motion(src, th, t, true) });
  }
  // Degenerate sets.
  const p0 = [rng.range(-5, 5), rng.range(-5, 5)];
  const same = (n, p) => Array.from({ length: n }, () => [p[0], p[1]]);
  const star = randomStarPolygon(rng, 5, 2);
  out.push({ kind: 'coincident', label: 'all src and dst points equal (n=4)', src: same(4, p0), dst: same(4, [p0[0] + 1, p0[1] - 2]) });
  out.push({ kind: 'coincident', label: 'dst points all equal (n=5)', src: star, dst: same(5, p0) });
  out.push({ kind: 'coincident', label: 'src points all equal (n=5)', src: same(5, p0), dst: star });
  out.push({ kind: 'coincident', label: 'single point (n=1)', src: [p0], dst: [[p0[0] + 3, p0[1]]] });
  const onX = [-1.5, -0.25, 0.5, 2, 3.25].map((x) => [x, 0]);
  out.push({ kind: 'collinear', label: 'src on the x axis, dst = src shifted', src: onX, dst: onX.map(([x, y]) => [x + 1, y + 2]) });
  out.push({ kind: 'collinear', label: 'src on the x axis, dst rotated 90 degrees', src: onX, dst: onX.map(([x, y]) => [-y, x]) });
  const dir = rotate(rng.range(-Math.PI, Math.PI), [1, 0]);
  const line = [-2, -0.75, 0.1, 1.3].map((s) => [3 + s * dir[0], -1 + s * dir[1]]);
  {
    const [th, t] = randomMotion();
    out.push({ kind: 'collinear', label: 'random line, rigid motion', src: line, dst: motion(line, th, t) });
  }
  out.push({ kind: 'collinear', label: 'two points (n=2)', src: [[0, 0], [1, 1]], dst: [[2, 0], [2, 1.5]] });
  out.push({ kind: 'collinear', label: 'src a polygon, dst flattened onto y = -1', src: star, dst: star.map(([x]) => [x, -1]) });
  return out;
}

/** Body rounds: constructor, worldShape, shapeMatch(), updateFromShape(). */
function bodyInputs(rng, createPolygonPoints, math) {
  const V = (p) => new math.Vector2(p[0], p[1]);
  const out = [];
  // The page's three bodies, each pushed up at its first two vertices the way
  // a wall projection moves vertices.
  const page = [[2, [7, 14], Math.PI / 4], [1, [-12, 14], 0], [1.5, [-8, 14], 0]];
  page.forEach(([radius, pos, ang], k) => {
    out.push({
      kind: 'page', label: `page body ${k}: createPolygonPoints(0, ${radius}, 4)`,
      shape: createPolygonPoints(new math.Vector2(0, 0), radius, 4).shape.map((p) => [p.x, p.y]),
      pos, ang,
      collision: (ws) => ws.map((p, i) => (i < 2 ? [p.x, p.y + 0.05] : [p.x, p.y])),
    });
  });
  const motion = (th, t, noise) => (ws, pos) => ws.map((p) => {
    const q = rotate(th, [p.x - pos.x, p.y - pos.y]);
    return [q[0] + pos.x + t[0] + noise * rng.range(-1, 1), q[1] + pos.y + t[1] + noise * rng.range(-1, 1)];
  });
  for (let n = 3; n <= 12; n++) {
    const size = rng.scale(-0.5, 1);
    const noise = n % 2 ? 0 : 0.02 * size;
    out.push({
      kind: noise ? 'noisy' : 'rigid', label: `n=${n}`,
      shape: randomStarPolygon(rng, n, size).map(([x, y]) => [x + rng.range(-3, 3), y + rng.range(-3, 3)]),
      pos: [rng.range(-20, 20), rng.range(-20, 20)], ang: rng.range(-Math.PI, Math.PI),
      collision: motion(rng.range(-0.3, 0.3), [rng.range(-0.1, 0.1), rng.range(-0.1, 0.1)], noise),
    });
  }
  out.push({
    kind: 'unchanged', label: 'collisionShape = worldShape',
    shape: randomStarPolygon(rng, 6, 1.5), pos: [rng.range(-20, 20), rng.range(-20, 20)], ang: rng.range(-Math.PI, Math.PI),
    collision: (ws) => ws.map((p) => [p.x, p.y]),
  });
  // Mirror images of the world shape across a line through pos at angle alpha.
  for (const [n, alpha] of [[5, 0], [4, 0.3], [7, -1.1]]) {
    out.push({
      kind: 'mirrored', label: `n=${n}, mirrored across the line through pos at ${alpha} rad`, mirrorAlpha: alpha,
      shape: randomStarPolygon(rng, n, 1.5), pos: [rng.range(-20, 20), rng.range(-20, 20)], ang: rng.range(-Math.PI, Math.PI),
      collision: (ws, pos) => ws.map((p) => {
        const u = rotate(-alpha, [p.x - pos.x, p.y - pos.y]);
        const q = rotate(alpha, [u[0], -u[1]]);
        return [q[0] + pos.x, q[1] + pos.y];
      }),
    });
  }
  out.push({
    kind: 'flattened', label: 'collisionShape: every vertex moved onto the lowest y (collinear)',
    shape: randomStarPolygon(rng, 5, 1), pos: [rng.range(-20, 20), rng.range(-20, 20)], ang: rng.range(-Math.PI, Math.PI),
    collision: (ws) => { const y = Math.min(...ws.map((p) => p.y)); return ws.map((p) => [p.x, y]); },
  });
  {
    const p = [rng.range(-20, 20), rng.range(-20, 20)];
    out.push({
      kind: 'nan_rotation', label: 'updateFromShape(all points equal): rotation NaN, angle kept',
      shape: randomStarPolygon(rng, 4, 1), pos: [p[0] + 0.5, p[1] - 0.25], ang: rng.range(-Math.PI, Math.PI),
      collision: null,
      update: Array.from({ length: 4 }, () => [p[0], p[1]]),
    });
  }
  return out.map((b) => ({ ...b, shape: b.shape.map(V) }));
}

/** One Body round on the inputs; returns every observable result. */
function bodyRound(Body, fns, math, b) {
  const V = (p) => new math.Vector2(p[0], p[1]);
  // Always pass pos: the constructor's default `new Vector2(0, 0)` names an
  // undefined global and would throw.
  const body = new Body({ shape: b.shape.map((p) => new math.Vector2(p.x, p.y)) }, V(b.pos), b.ang, 1);
  const centred = body.shape;
  const world = body.worldShape;
  let goal = null;
  if (b.collisionPts) {
    body.collisionShape = b.collisionPts.map(V);
    body.shapeMatch();
    goal = body.collisionShape;
  }
  const update = b.update ? b.update.map(V) : goal;
  // updateFromShape's rotation is a local; recompute it from the same
  // arguments with the module's own functions (checked against ang below).
  const center = fns.centerOfMass(update);
  const rot = fns.shapeMatchRotation(body.worldShape.map((p) => p.subV(body.pos)), update.map((p) => p.subV(center)));
  body.updateFromShape(update);
  return { centred, world, goal, update, center, rot, ang: body.ang, pos: body.pos, worldAfter: body.worldShape };
}

function shapeMatchingCases(articlesDir, loader, math) {
  const priv = loadShapeMatchingPrivate(articlesDir, loader);
  const { Body, fns } = priv;
  const plainBody = new AmdLoader({ articleDir: articlesDir, ownDir: OWN_DIR, console: QUIET }).load('./BodyShapeMatching');
  const page = loadPageFunction(path.join(articlesDir, 'collision-shapeMatching.html'), 'createPolygonPoints', { math, Math });
  const rng = new Rng(SHAPE_SEED);
  const V = (p) => new math.Vector2(p[0], p[1]);

  // ---- shapeMatch(src, dst) and shapeMatchRotation(src - srcCenter, dst - dstCenter)
  const smInputs = shapeMatchInputs(rng);
  const smEvaluate = () => smInputs.map(({ src, dst }) => {
    const s = src.map(V);
    const d = dst.map(V);
    const sc = fns.centerOfMass(s);
    const dc = fns.centerOfMass(d);
    const rotation = fns.shapeMatchRotation(s.map((p) => p.subV(sc)), d.map((p) => p.subV(dc)));
    const M = fns.shapeMatch(s, d);
    const transform = [[M.m00, M.m01, M.m02], [M.m10, M.m11, M.m12], [M.m20, M.m21, M.m22]];
    return { sc, dc, rotation, transform };
  });
  requireStableBits('shapeMatch', smEvaluate);
  const smResults = smEvaluate();
  const shapeMatchOut = smInputs.map(({ kind, label, src, dst }, k) => {
    const r = smResults[k];
    return {
      kind,
      label,
      n: src.length,
      src: matNum(src),
      src_hex: matHex(src),
      dst: matNum(dst),
      dst_hex: matHex(dst),
      src_center: vecNum(r.sc),
      src_center_hex: vecHex(r.sc),
      dst_center: vecNum(r.dc),
      dst_center_hex: vecHex(r.dc),
      rotation: matNum(r.rotation),
      rotation_hex: matHex(r.rotation),
      transform: matNum(r.transform),
      transform_hex: matHex(r.transform),
    };
  });

  // ---- Body rounds. The collision shapes depend on worldShape, so they are
  // made once here (this uses the PRNG) and then held fixed.
  const bodies = bodyInputs(rng, page.fn, math).map((b) => {
    const probe = new Body({ shape: b.shape }, V(b.pos), b.ang, 1);
    const collisionPts = b.collision ? b.collision(probe.worldShape, probe.pos) : null;
    return { ...b, collisionPts };
  });
  const bodyEvaluate = (cls) => bodies.map((b) => bodyRound(cls, fns, math, b));
  requireStableBits('Body round', () => bodyEvaluate(Body));
  const rounds = bodyEvaluate(Body);
  // The probed module instance must behave exactly as the module loaded plainly.
  const observable = (r) => bitString([r.centred, r.world, r.goal, r.ang, r.pos, r.worldAfter]);
  bodyEvaluate(plainBody).forEach((r, k) => {
    if (observable(r) !== observable(rounds[k])) {
      throw new Error(`Body round ${k}: the plainly loaded ${SHAPE_MODULE} gives different bits`);
    }
  });

  const bodyOut = bodies.map((b, k) => {
    const r = rounds[k];
    // V8's libm values, with the self-check that they reproduce the results.
    const cosSin = [b.ang, r.ang].filter((x, i, all) => all.findIndex((y) => Object.is(x, y)) === i);
    const c0 = Math.cos(b.ang);
    const s0 = Math.sin(b.ang);
    const again = new math.Matrix3().fromValues(c0, -s0, b.pos[0], s0, c0, b.pos[1], 0, 0, 0).mulVectors(r.centred, 1);
    if (bitString(again) !== bitString(r.world)) throw new Error(`body ${k}: worldShape is not built from Math.cos/sin(ang)`);
    const rotNaN = Number.isNaN(r.rot[0][0]);
    const atan2 = rotNaN ? [] : [[r.rot[0][1], r.rot[0][0], Math.atan2(r.rot[0][1], r.rot[0][0])]];
    const angExpected = rotNaN ? b.ang : b.ang + atan2[0][2] * fns.shapeMatchAttenuation;
    if (!Object.is(angExpected, r.ang)) throw new Error(`body ${k}: ang is not ang + atan2(rot01, rot00) * 0.98`);
    const pts = (list) => (list === null ? null : list.map(vecNum));
    const ptsHex = (list) => (list === null ? null : list.map(vecHex));
    return {
      kind: b.kind,
      label: b.label,
      n: b.shape.length,
      mass: 1,
      shape_input: pts(b.shape),
      shape_input_hex: ptsHex(b.shape),
      pos: matNum([b.pos])[0],
      pos_hex: matHex([b.pos])[0],
      ang: num(b.ang),
      ang_hex: hex(b.ang),
      shape: pts(r.centred),
      shape_hex: ptsHex(r.centred),
      world_shape: pts(r.world),
      world_shape_hex: ptsHex(r.world),
      collision_shape: b.collisionPts && matNum(b.collisionPts),
      collision_shape_hex: b.collisionPts && matHex(b.collisionPts),
      goal: pts(r.goal),
      goal_hex: ptsHex(r.goal),
      update_shape: pts(r.update),
      update_shape_hex: ptsHex(r.update),
      update_center: vecNum(r.center),
      update_center_hex: vecHex(r.center),
      update_rotation: matNum(r.rot),
      update_rotation_hex: matHex(r.rot),
      update_rotation_is_nan: rotNaN,
      after: {
        ang: num(r.ang),
        ang_hex: hex(r.ang),
        pos: vecNum(r.pos),
        pos_hex: vecHex(r.pos),
        world_shape: pts(r.worldAfter),
        world_shape_hex: ptsHex(r.worldAfter),
      },
      js_libm: {
        cos: cosSin.map((x) => [hex(x), hex(Math.cos(x))]),
        sin: cosSin.map((x) => [hex(x), hex(Math.sin(x))]),
        atan2: atan2.map((t) => t.map(hex)),
      },
      // Mirrored cases only: the mirror line's angle alpha.
      ...(b.mirrorAlpha === undefined ? {} : { mirror_alpha: num(b.mirrorAlpha), mirror_alpha_hex: hex(b.mirrorAlpha) }),
    };
  });

  return { shapeMatchOut, bodyOut, priv, pageLine: page.line };
}

// ------------------------------------------------------------------- driver

/** Generates every golden file in memory: Map(fileName -> text). */
function generateAll(articlesDir, outDir) {
  const loader = new AmdLoader({ articleDir: articlesDir, ownDir: OWN_DIR });
  const math = loader.load('./math');

  // The articles' folder is recorded as <articles-js>: where a maintainer keeps
  // it is not data (the sha256 of each article file below identifies it).
  const command = `node ${GENERATOR} <articles-js>` +
    (path.resolve(outDir) === DEFAULT_OUT ? '' : ` --out ${repoRel(outDir)}`);

  const cpp = createPolygonPointsCases(articlesDir, math);
  const doc = {
    provenance: {
      generator: GENERATOR,
      article: '物理シミュレーション 剛体の衝突 2 (Force Based) and 剛体の衝突 4 PositionBased (ShapeMatching)',
      source_files: PAGES.map((page) => ({
        name: page,
        sha256: sha256(fs.readFileSync(path.join(articlesDir, page))),
      })),
      function: 'createPolygonPoints',
      function_source: {
        extracted_from: PAGES.map((page, k) => `${page}:${cpp.lines[k]}`),
        identical_text_in_all: cpp.identicalText,
        results_identical_in_all: true, // checked bit for bit above, else we abort
        sha256: cpp.fnSourceSha256, // of the text taken from the first file
      },
      node_version: process.version,
      v8_version: process.versions.v8,
      prng_seed: 0,
      prng_note: 'no randomness is used; the seed is recorded as 0',
      generated_by_command: command,
    },
    cases: cpp.cases,
  };

  const common = {
    node_version: process.version,
    v8_version: process.versions.v8,
  };
  const fileSha = (name) => ({ name, sha256: sha256(fs.readFileSync(path.join(articlesDir, name))) });
  const mat2Doc = {
    provenance: {
      generator: GENERATOR,
      article: '剛体の衝突 4 PositionBased (ShapeMatching)',
      source_files: [fileSha('mat2.js')],
      module: 'mat2.js, an AMD module, run unmodified through data/generate/amd_loader.js',
      ...common,
      prng: 'mulberry32',
      prng_seed: MAT2_SEED,
      generated_by_command: command,
    },
    cases: mat2Cases(loader.load('./mat2')),
  };

  const sm = shapeMatchingCases(articlesDir, loader, math);
  const smDoc = {
    provenance: {
      generator: GENERATOR,
      article: '剛体の衝突 4 PositionBased (ShapeMatching)',
      source_files: [fileSha(SHAPE_MODULE), fileSha('mat2.js'), fileSha('collision-shapeMatching.html')],
      own_modules: [{ name: 'data/generate/math.js', sha256: sha256(fs.readFileSync(path.join(OWN_DIR, 'math.js'))) }],
      private_functions: {
        names: PRIVATE_FUNCTIONS,
        method: 'factory text from V8, re-evaluated with one statement prepended to its body (data/README.md)',
        factory_line: sm.priv.factoryLine,
        factory_sha256: sm.priv.factorySha256,
        body_results_identical_to_plain_module: true, // checked bit for bit, else we abort
      },
      body_shapes_from: `createPolygonPoints in collision-shapeMatching.html:${sm.pageLine} (page bodies)`,
      ...common,
      prng: 'mulberry32',
      prng_seed: SHAPE_SEED,
      generated_by_command: command,
    },
    shape_match: sm.shapeMatchOut,
    body: sm.bodyOut,
  };

  return new Map([
    ['create_polygon_points.json', toJson(doc) + '\n'],
    ['mat2.json', toJson(mat2Doc) + '\n'],
    ['shape_matching.json', toJson(smDoc) + '\n'],
  ]);
}

// Lists up to `limit` JSON paths where a and b differ.
function jsonDiff(a, b, at = '$', out = [], limit = 20) {
  if (out.length >= limit) return out;
  const kind = (v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  if (kind(a) !== kind(b)) {
    out.push(`${at}: ${kind(a)} in committed file, ${kind(b)} regenerated`);
  } else if (kind(a) === 'array') {
    if (a.length !== b.length) out.push(`${at}: length ${a.length} committed, ${b.length} regenerated`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) jsonDiff(a[i], b[i], `${at}[${i}]`, out, limit);
  } else if (kind(a) === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    for (const k of ka) if (!(k in b)) out.push(`${at}.${k}: only in committed file`);
    for (const k of kb) if (!(k in a)) out.push(`${at}.${k}: only in regenerated output`);
    if (ka.filter((k) => k in b).join() !== kb.filter((k) => k in a).join()) out.push(`${at}: key order differs`);
    for (const k of ka) if (k in b) jsonDiff(a[k], b[k], `${at}.${k}`, out, limit);
  } else if (!Object.is(a, b)) {
    out.push(`${at}: committed ${JSON.stringify(a)}, regenerated ${JSON.stringify(b)}`);
  }
  return out.slice(0, limit);
}

// " (nsides=5 radius=0.1)" or " (spd: cond=10 #1)" for a diff line about
// $.<list>[k], to make it readable.
function caseLabel(doc, diffLine) {
  const m = /^\$\.(\w+)\[(\d+)\]/.exec(diffLine);
  const c = m && Array.isArray(doc[m[1]]) ? doc[m[1]][Number(m[2])] : null;
  if (!c || typeof c !== 'object') return '';
  return 'nsides' in c ? `  (nsides=${c.nsides} radius=${c.radius})` : `  (${c.kind}: ${c.label})`;
}

function check(files, outDir) {
  let ok = true;
  for (const [name, text] of files) {
    const file = path.join(outDir, name);
    const shown = repoRel(file);
    if (!fs.existsSync(file)) {
      console.error(`DIFFERS ${shown}: file is missing (run without --check to create it)`);
      ok = false;
      continue;
    }
    const committed = fs.readFileSync(file, 'utf8');
    if (committed === text) {
      console.log(`ok      ${shown}`);
      continue;
    }
    console.error(`DIFFERS ${shown}`);
    let diffs;
    try {
      diffs = jsonDiff(JSON.parse(committed), JSON.parse(text), '$', [], 40);
    } catch (e) {
      console.error(`  committed file is not valid JSON: ${e.message}`);
      continue;
    }
    if (diffs.length === 0) {
      console.error('  same JSON values; only the formatting (whitespace, number spelling) differs');
      continue;
    }
    const data = diffs.filter((d) => !d.startsWith('$.provenance'));
    const prov = diffs.filter((d) => d.startsWith('$.provenance'));
    // Which Node ran the generator, and from where, is recorded but is not the
    // data: a newer Node that reproduces every bit passes the check.
    const incidental = /^\$\.provenance\.(node_version|v8_version|generated_by_command)\b/;
    if (data.length > 0 || prov.some((d) => !incidental.test(d))) ok = false;
    else console.error('  (only the Node version or command line differ: data identical, check passes)');
    if (data.length === 0) {
      console.error('  only provenance differs (data identical within the first differences listed):');
    }
    const committedDoc = JSON.parse(committed);
    for (const d of [...prov, ...data]) console.error(`  ${d}${caseLabel(committedDoc, d)}`);
    if (diffs.length >= 40) console.error('  ... (further differences not listed)');
    if (prov.some((d) => /node_version|v8_version/.test(d))) {
      console.error('  note: the golden files were made with another Node/V8 version; regenerate with the version CI pins.');
    }
  }
  return ok;
}

function parseArgs(argv) {
  const opts = { check: false, help: false, articlesDir: null, outDir: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') opts.help = true;
    else if (a === '--check') opts.check = true;
    else if (a === '--out') {
      if (i + 1 >= argv.length) throw new UsageError('--out needs a directory');
      opts.outDir = path.resolve(argv[++i]);
    } else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
    else if (opts.articlesDir === null) opts.articlesDir = path.resolve(a);
    else throw new UsageError(`unexpected argument '${a}'`);
  }
  if (!opts.help && opts.articlesDir === null) throw new UsageError('missing <articles-js-dir>');
  return opts;
}

/**
 * The options parse(argv) gives, as { opts }; or { exit } after printing the
 * usage text for --help (0) or a usage error (2). Shared with scene_page.js.
 */
function parseCommandLine(argv, parse, usage) {
  let opts;
  try {
    opts = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`error: ${e.message}\n\n${usage}`);
    return { exit: 2 };
  }
  if (opts.help) {
    console.log(usage);
    return { exit: 0 };
  }
  return { opts };
}

function main(argv) {
  const { opts, exit } = parseCommandLine(argv, parseArgs, USAGE);
  if (!opts) return exit;
  if (!fs.existsSync(opts.articlesDir) || !fs.statSync(opts.articlesDir).isDirectory()) {
    console.error(`error: articles directory not found: ${opts.articlesDir}\n` +
      '  It must contain the article code (collision-force.html, collision-shapeMatching.html, ...),\n' +
      '  the JavaScript of the five articles that rigidref follows (data/README.md).');
    return 2;
  }
  for (const page of PAGES) {
    if (!fs.existsSync(path.join(opts.articlesDir, page))) {
      console.error(`error: ${page} not found in ${opts.articlesDir}`);
      return 2;
    }
  }

  const files = generateAll(opts.articlesDir, opts.outDir);
  if (opts.check) {
    const ok = check(files, opts.outDir);
    if (ok) console.log('check passed: golden files are up to date');
    else console.error('check FAILED: golden files differ from a fresh generation');
    return ok ? 0 : 1;
  }
  fs.mkdirSync(opts.outDir, { recursive: true });
  for (const [name, text] of files) {
    fs.writeFileSync(path.join(opts.outDir, name), text);
    console.log(`wrote ${repoRel(path.join(opts.outDir, name))}`);
  }
  return 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}

// The scene generators (scene_page.js) share the utilities and paths above.
module.exports = {
  hex, toJson, matchBracket, skipLiteralOrComment, inlineScripts, functionSource, loadPageFunction, generateAll,
  sha256, repoRel, UsageError, QUIET, REPO_ROOT, DEFAULT_OUT, parseCommandLine,
};
