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
      Run the article code found in <articles-js-dir> (in this workspace:
      ../shared/articles-js, relative to the repository root) and write the
      golden files into <dir> (default: data/golden).

  node data/generate/generate.js --check <articles-js-dir> [--out <dir>]
      Regenerate in memory and compare byte for byte with the files already in
      <dir> (default: data/golden). Exit 0 if identical, 1 with a summary of
      the differences otherwise.

  node data/generate/generate.js --help
      Show this text.

The article code is read from <articles-js-dir> at run time and is never
copied into this repository. Exit status 2 means a usage or input error.
Files produced: create_polygon_points.json.
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

// ------------------------------------------------------------------- driver

/** Generates every golden file in memory: Map(fileName -> text). */
function generateAll(articlesDir, outDir) {
  const loader = new AmdLoader({ articleDir: articlesDir, ownDir: OWN_DIR });
  const math = loader.load('./math');

  const command = `node ${GENERATOR} ${repoRel(articlesDir)}` +
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
  return new Map([['create_polygon_points.json', toJson(doc) + '\n']]);
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

// " (nsides=5 radius=0.1)" for a diff line about $.cases[k], to make it readable.
function caseLabel(doc, diffLine) {
  const m = /^\$\.cases\[(\d+)\]/.exec(diffLine);
  const c = m && Array.isArray(doc.cases) ? doc.cases[Number(m[1])] : null;
  return c && typeof c === 'object' ? `  (nsides=${c.nsides} radius=${c.radius})` : '';
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

function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`error: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  if (!fs.existsSync(opts.articlesDir) || !fs.statSync(opts.articlesDir).isDirectory()) {
    console.error(`error: articles directory not found: ${opts.articlesDir}\n` +
      '  It must contain the article code (collision-force.html, collision-shapeMatching.html, ...);\n' +
      '  in this workspace that is ../shared/articles-js relative to the repository root.');
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

module.exports = { hex, toJson, matchBracket, skipLiteralOrComment, inlineScripts, functionSource, loadPageFunction, generateAll };
