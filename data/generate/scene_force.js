#!/usr/bin/env node
'use strict';
// Golden trajectories of the Force Based article's scene: runs the page
// collision-force.html (its inline <script>, extracted at run time) and
// BodyForce.js, both UNMODIFIED from the articles directory, with stubs for
// the BabylonJS and `document` objects the page touches, one rendered frame
// (= one simulate()) per step, and writes data/golden/scene_force.json.
// See data/README.md ("scene_force.json").
//
// What is ours: math.js and gjk_epa.js (the articles' versions are not in the
// seeds), the stubs below, and the recording. Nothing the article code
// computes is changed: the recording wrappers (Math.cos/Math.sin, Gjk.gjk/epa,
// a subclass of Body that only notes each new body) return exactly what the
// wrapped functions return.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { AmdLoader } = require('./amd_loader');
const { hex, toJson, inlineScripts } = require('./generate');

const OWN_DIR = __dirname;
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_OUT = path.join(REPO_ROOT, 'data', 'golden');
const GENERATOR = 'data/generate/scene_force.js';
const FILE = 'scene_force.json';
const PAGE = 'collision-force.html';
const STEPS = 500;

const USAGE = `\
Usage:
  node data/generate/scene_force.js <articles-js-dir> [--out <dir>] [--steps N]
      Run the Force Based page's scene for N frames (default ${STEPS}) and write
      <dir>/${FILE} (default dir: data/golden).
  node data/generate/scene_force.js --check <articles-js-dir> [--out <dir>]
      Regenerate in memory and compare with the committed file (the date, the
      Node/V8 versions and the command line in provenance are ignored).
      Exit 0 if identical, 1 otherwise.
  node data/generate/scene_force.js --help
Exit status 2 means a usage or input error.
`;

class UsageError extends Error {}

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const repoRel = (p) => path.relative(REPO_ROOT, path.resolve(p)).split(path.sep).join('/') || '.';
const QUIET = { log() {}, warn() {}, error() {}, info() {}, debug() {} };

// ----------------------------------------------------------- the page's world

// Only what collision-force.html touches. Scene.render() runs the callbacks
// given to registerBeforeRender, as BabylonJS does before drawing; the page
// registers one that calls simulate() and then update_mesh().
function babylonStub(state) {
  const mesh = () => ({ position: { x: 0, y: 0, z: 0 }, color: null, material: null });
  class Vector3 { constructor(x, y, z) { this.x = x; this.y = y; this.z = z; } }
  class Color3 {
    constructor(r, g, b) { this.r = r; this.g = g; this.b = b; }
    static Blue() { return new Color3(0, 0, 1); }
    static Green() { return new Color3(0, 1, 0); }
    static Black() { return new Color3(0, 0, 0); }
  }
  class Engine {
    constructor(canvas) { this.canvas = canvas; }
    runRenderLoop(cb) { state.renderLoop = cb; }
  }
  class Scene {
    constructor(engine) { this.engine = engine; this.before = []; state.scene = this; }
    registerBeforeRender(f) { this.before.push(f); }
    render() { for (const f of this.before) f(); }
  }
  class ArcRotateCamera { attachControl() {} }
  class HemisphericLight {}
  class StandardMaterial {}
  return {
    Engine, Scene, Vector3, Color3, ArcRotateCamera, HemisphericLight, StandardMaterial,
    Mesh: { CreateLines: () => mesh() },
    MeshBuilder: { CreateSphere: () => mesh(), CreateLines: () => mesh() },
  };
}

const bodyState = (b) => ({
  pos: [hex(b.pos.x), hex(b.pos.y)],
  ang: hex(b.ang),
  vel: [hex(b.vel.x), hex(b.vel.y)],
  angVel: hex(b.angVel),
});

/** Runs the page for `steps` frames; returns everything recorded. */
function runScene(articlesDir, steps) {
  const loader = new AmdLoader({ articleDir: articlesDir, ownDir: OWN_DIR, console: QUIET });
  const ctx = loader.context;

  // Math as the article code sees it: the real one, with cos and sin noting
  // (argument bits -> result bits) so the C++ port can use V8's values.
  const libm = { cos: new Map(), sin: new Map() };
  const note = (table, x, r) => {
    const k = hex(x);
    const v = hex(r);
    if (table.has(k) && table.get(k) !== v) throw new Error(`V8 libm gave two results for ${k}`);
    table.set(k, v);
  };
  const recMath = {};
  for (const k of Object.getOwnPropertyNames(Math)) recMath[k] = Math[k];
  recMath.cos = (x) => { const r = Math.cos(x); note(libm.cos, x, r); return r; };
  recMath.sin = (x) => { const r = Math.sin(x); note(libm.sin, x, r); return r; };
  ctx.Math = recMath;

  // Our gjk_epa, wrapped to note every call with the step it happened in.
  let step = 0;
  const gjkLog = [];
  const realGjk = loader.load('./gjk_epa');
  const wrapped = {
    gjk(a, b) {
      const hit = realGjk.gjk(a, b);
      gjkLog.push({ step, hit: !!hit });
      return hit;
    },
    epa(a, b, ...simplex) {
      const r = realGjk.epa(a, b, ...simplex);
      const last = gjkLog[gjkLog.length - 1];
      last.n = [hex(r.n.x), hex(r.n.y)];
      last.dist = hex(r.dist);
      return r;
    },
  };
  loader.modules.set('./gjk_epa', wrapped);

  // The page's `require([...], cb)`: the same modules, except that Body is
  // handed over as a subclass whose constructor only remembers the body.
  const bodies = [];
  const amdRequire = ctx.require;
  ctx.require = function require(deps, cb) {
    if (!Array.isArray(deps) || typeof cb !== 'function') return amdRequire(deps, cb);
    const values = deps.map((d) => loader.load(d));
    const k = deps.indexOf('./BodyForce');
    if (k >= 0) {
      const Body = values[k];
      values[k] = class extends Body {
        constructor(...args) { super(...args); bodies.push(this); }
      };
    }
    return cb(...values);
  };

  const state = { renderLoop: null, scene: null };
  const canvas = { width: 600, height: 430 };
  ctx.document = {
    getElementById(id) {
      if (id !== 'canvas') throw new Error(`document.getElementById('${id}'): not stubbed`);
      return canvas;
    },
  };
  ctx.BABYLON = babylonStub(state);

  // The page's inline script, exactly as in the file (line offsets kept so
  // stack traces point into the HTML).
  const file = path.join(articlesDir, PAGE);
  const html = fs.readFileSync(file, 'utf8');
  const scripts = inlineScripts(html);
  if (scripts.length !== 1) throw new Error(`${PAGE}: expected one inline <script>, found ${scripts.length}`);
  const { text, offset } = scripts[0];
  const before = html.slice(0, offset);
  const lineOffset = before.split('\n').length - 1;
  const columnOffset = offset - (before.lastIndexOf('\n') + 1);
  new vm.Script(text, { filename: file, lineOffset, columnOffset }).runInContext(ctx);
  if (!state.renderLoop) throw new Error('the page did not start a render loop');
  if (bodies.length !== 2) throw new Error(`expected the page to create 2 bodies, got ${bodies.length}`);

  const initial = bodies.map(bodyState);
  const setup = bodies.map((b) => ({
    mass: hex(b.mass),
    inertia: hex(b.inertia),
    inv_inertia: hex(b.invInertia),
    shape: b.shape.map((p) => [hex(p.x), hex(p.y)]),
  }));

  const out = [];
  let stopped = null;
  for (step = 1; step <= steps; step++) {
    try {
      state.renderLoop(); // scene.render(): simulate(); update_mesh();
    } catch (e) {
      stopped = { step, error: String(e && e.message ? e.message : e) };
      break;
    }
    const rec = { step, bodies: bodies.map(bodyState) };
    const calls = gjkLog.filter((g) => g.step === step).map(({ hit, n, dist }) => (hit ? { hit, n, dist } : { hit }));
    if (calls.length > 0) rec.gjk = calls;
    out.push(rec);
  }
  return { initial, setup, steps: out, stopped, gjkLog, libm, stats: realGjk.stats, text, line: lineOffset + 1 };
}

// ---------------------------------------------------------------- the document

function generate(articlesDir, outDir, steps) {
  const run = runScene(articlesDir, steps);
  // Same bits again from a fresh context (V8 has optimised the code by now).
  const again = runScene(articlesDir, steps);
  if (JSON.stringify(again.steps) !== JSON.stringify(run.steps) ||
      JSON.stringify(again.stopped) !== JSON.stringify(run.stopped)) {
    throw new Error('two runs of the scene gave different bits');
  }

  // V8's a**3 and b**3 for the two polygons (createPolygonPoints' inertia),
  // recomputed as the page computes them and checked against the bodies.
  const pow3 = new Map();
  const nsides = [4, 3];
  nsides.forEach((n, k) => {
    const delta = Math.PI * 2 / n;
    const a = (1 + Math.cos(delta)) / 2;
    const b = (1 - Math.cos(delta)) / 2;
    pow3.set(hex(a), hex(a ** 3));
    pow3.set(hex(b), hex(b ** 3));
    const inertia = 1 * 1 / 6 * (3 * (a ** 3 + b ** 3) + 9 * a * b - 2 * b);
    if (hex(1 * inertia) !== run.setup[k].inertia) throw new Error(`body ${k}: inertia not reproduced`);
  });

  const firstCall = run.gjkLog.length ? run.gjkLog[0].step : null;
  const firstHit = run.gjkLog.find((g) => g.hit);
  const command = `node ${GENERATOR} ${repoRel(articlesDir)}` +
    (path.resolve(outDir) === DEFAULT_OUT ? '' : ` --out ${repoRel(outDir)}`) +
    (steps === STEPS ? '' : ` --steps ${steps}`);
  const fileSha = (name) => ({ name, sha256: sha256(fs.readFileSync(path.join(articlesDir, name))) });
  const ownSha = (name) => ({ name: `data/generate/${name}`, sha256: sha256(fs.readFileSync(path.join(OWN_DIR, name))) });
  const tableOut = (m) => [...m.entries()].map(([k, v]) => [k, v]);

  const doc = {
    provenance: {
      generator: GENERATOR,
      article: '物理シミュレーション 剛体の衝突 2 (Force Based)',
      source_files: [fileSha(PAGE), fileSha('BodyForce.js')],
      own_modules: [ownSha('math.js'), ownSha('gjk_epa.js'), ownSha('amd_loader.js'), ownSha('scene_force.js')],
      page_script: { from: `${PAGE}:${run.line}`, sha256: sha256(Buffer.from(run.text, 'utf8')) },
      method: 'the inline <script> and BodyForce.js run unmodified in one vm context (amd_loader.js); ' +
        'BabylonJS and document are stubs; one engine.runRenderLoop callback (scene.render(): ' +
        'simulate(); update_mesh()) per step; a second run from a fresh context gave the same bits',
      node_version: process.version,
      v8_version: process.versions.v8,
      generated_on: new Date().toISOString().slice(0, 10),
      prng_seed: 0,
      prng_note: 'no randomness is used',
      generated_by_command: command,
    },
    scene: {
      dt: '0.02',
      g: '9.8',
      wall_angles: ['-0.3', '0.5'],
      walls_note: 'Wall(position (0, 0), normal (-Math.sin(a), Math.cos(a))); the sin/cos values are in js_libm',
      bodies: [
        { nsides: 4, radius: '1', pos: ['-8', '10'], ang: 'Math.PI / 4', mass: '1', vel: ['2', '0'], angVel: '0' },
        { nsides: 3, radius: '1', pos: ['8', '10'], ang: '0', mass: '1', vel: ['0', '0'], angVel: '0' },
      ],
      pair_note: 'sap gives pairs[1] = [0] when the x-intervals overlap: bodies[1].projectCollision(bodies[0]), ' +
        'so A (this) is the triangle and B (other) the square',
    },
    setup: run.setup,
    steps_requested: steps,
    steps_run: run.steps.length,
    stopped: run.stopped,
    phases: {
      first_gjk_call_step: firstCall,
      first_gjk_hit_step: firstHit ? firstHit.step : null,
      wall_only_through_step: firstHit ? firstHit.step - 1 : run.steps.length,
      note: 'through wall_only_through_step no GJK reported a hit, so every value depends on the article ' +
        'code (and math.js) only; from first_gjk_hit_step on, it also depends on our gjk_epa.js',
    },
    gjk_epa: {
      gjk_calls: run.stats.gjkCalls,
      gjk_hits: run.stats.gjkHits,
      epa_calls: run.stats.epaCalls,
      epa_rounds_max: run.stats.epaRoundsMax,
      epa_round_limit_reached: run.stats.epaLimitHit,
    },
    initial: { bodies: run.initial },
    steps: run.steps,
    js_libm: { cos: tableOut(run.libm.cos), sin: tableOut(run.libm.sin), pow3: tableOut(pow3) },
  };
  return toJson(doc) + '\n';
}

// Which Node ran the generator, when and from where is recorded but is not the
// data (as in generate.js --check): a newer Node that reproduces every bit passes.
const INCIDENTAL = ['generated_on', 'node_version', 'v8_version', 'generated_by_command'];
const withoutDate = (t) =>
  INCIDENTAL.reduce((x, k) => x.replace(new RegExp(`"${k}": "[^"]*"`), `"${k}": ""`), t);

function parseArgs(argv) {
  const opts = { check: false, help: false, articlesDir: null, outDir: DEFAULT_OUT, steps: STEPS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') opts.help = true;
    else if (a === '--check') opts.check = true;
    else if (a === '--out' || a === '--steps') {
      if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value`);
      if (a === '--out') opts.outDir = path.resolve(argv[++i]);
      else {
        opts.steps = Number(argv[++i]);
        if (!Number.isInteger(opts.steps) || opts.steps < 1) throw new UsageError('--steps needs an integer >= 1');
      }
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
  for (const f of [PAGE, 'BodyForce.js']) {
    if (!fs.existsSync(path.join(opts.articlesDir, f))) {
      console.error(`error: ${f} not found in ${opts.articlesDir}`);
      return 2;
    }
  }
  const text = generate(opts.articlesDir, opts.outDir, opts.steps);
  const file = path.join(opts.outDir, FILE);
  if (opts.check) {
    if (!fs.existsSync(file)) {
      console.error(`DIFFERS ${repoRel(file)}: missing`);
      return 1;
    }
    const committed = fs.readFileSync(file, 'utf8');
    if (withoutDate(committed) === withoutDate(text)) {
      console.log(`ok      ${repoRel(file)}`);
      return 0;
    }
    const a = withoutDate(committed).split('\n');
    const b = withoutDate(text).split('\n');
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    console.error(`DIFFERS ${repoRel(file)} from line ${k + 1}:\n  committed:   ${a[k]}\n  regenerated: ${b[k]}`);
    return 1;
  }
  fs.mkdirSync(opts.outDir, { recursive: true });
  fs.writeFileSync(file, text);
  console.log(`wrote ${repoRel(file)}`);
  return 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}

module.exports = { runScene, generate };
