#!/usr/bin/env node
'use strict';
// Golden trajectories of the ShapeMatching article's scene: runs the page
// collision-shapeMatching.html (its inline <script>, extracted at run time),
// WorldShapeMatching.js, BodyShapeMatching.js and mat2.js, all UNMODIFIED from
// the articles directory, with stubs for the BabylonJS and `document` objects
// the page touches, one rendered frame (= one World.step()) per step, and
// writes data/golden/scene_shape_matching.json. See data/README.md
// ("scene_shape_matching.json") and derivations/scenes.md (D-SCENE-6..).
//
// What is ours: math.js and gjk_epa.js (the articles' versions are not in the
// seeds), the stubs below, and the recording. Nothing the article code
// computes is changed: the recording wrappers (Math.cos/sin/atan2, Gjk.gjk/epa,
// a subclass of Body that only notes each new body, a subclass of World whose
// projectWalls/projectCollision note the call and then call the article's
// method with the same arguments) return exactly what the wrapped functions
// return.
//
// The BabylonJS stub is written here rather than shared with scene_force.js:
// that file records its own SHA-256 in scene_force.json, so moving its stub
// into a module would change that golden file's provenance for no gain in the
// data (the two stubs are ~30 lines, and this page needs a few more members).

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { AmdLoader } = require('./amd_loader');
const { hex, toJson, inlineScripts } = require('./generate');

const OWN_DIR = __dirname;
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_OUT = path.join(REPO_ROOT, 'data', 'golden');
const GENERATOR = 'data/generate/scene_shape_matching.js';
const FILE = 'scene_shape_matching.json';
const PAGE = 'collision-shapeMatching.html';
const MODULES = ['WorldShapeMatching.js', 'BodyShapeMatching.js', 'mat2.js'];
const STEPS = 500;

const USAGE = `\
Usage:
  node data/generate/scene_shape_matching.js <articles-js-dir> [--out <dir>] [--steps N]
      Run the ShapeMatching page's scene for N frames (default ${STEPS}) and write
      <dir>/${FILE} (default dir: data/golden).
  node data/generate/scene_shape_matching.js --check <articles-js-dir> [--out <dir>]
      Regenerate in memory and compare with the committed file (the date, the
      Node/V8 versions and the command line in provenance are ignored).
      Exit 0 if identical, 1 otherwise.
  node data/generate/scene_shape_matching.js --help
Exit status 2 means a usage or input error.
`;

class UsageError extends Error {}

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const repoRel = (p) => path.relative(REPO_ROOT, path.resolve(p)).split(path.sep).join('/') || '.';
const QUIET = { log() {}, warn() {}, error() {}, info() {}, debug() {} };

// ----------------------------------------------------------- the page's world

// Only what collision-shapeMatching.html touches. Scene.render() runs the
// callbacks given to registerBeforeRender, as BabylonJS does before drawing;
// the page registers one that calls world.step() and then update_mesh().
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

// The article's supportEdge rule (WorldShapeMatching.js), re-stated here only
// to record how many points each side gives for the EPA normal the article
// receives; the article's own supportEdge is what the run uses.
function supportEdgeSize(pts, vx, vy) {
  let maxdot = Number.NEGATIVE_INFINITY;
  let maxdot2 = Number.NEGATIVE_INFINITY;
  for (const p of pts) {
    const dot = p.x * vx + p.y * vy;
    if (dot > maxdot) {
      maxdot2 = maxdot;
      maxdot = dot;
    } else if (dot > maxdot2) {
      maxdot2 = dot;
    }
  }
  return Math.abs(maxdot - maxdot2) < 0.01 ? 2 : 1;
}

/** Runs the page for `steps` frames; returns everything recorded. */
function runScene(articlesDir, steps) {
  const loader = new AmdLoader({ articleDir: articlesDir, ownDir: OWN_DIR, console: QUIET });
  const ctx = loader.context;

  // Math as the article code sees it: the real one, with cos, sin and atan2
  // noting (argument bits -> result bits) so the C++ port can use V8's values.
  const libm = { cos: new Map(), sin: new Map(), atan2: new Map() };
  const note = (table, k, r) => {
    const v = hex(r);
    if (table.has(k) && table.get(k) !== v) throw new Error(`V8 libm gave two results for ${k}`);
    table.set(k, v);
  };
  const recMath = {};
  for (const k of Object.getOwnPropertyNames(Math)) recMath[k] = Math[k];
  recMath.cos = (x) => { const r = Math.cos(x); note(libm.cos, hex(x), r); return r; };
  recMath.sin = (x) => { const r = Math.sin(x); note(libm.sin, hex(x), r); return r; };
  recMath.atan2 = (y, x) => { const r = Math.atan2(y, x); note(libm.atan2, `${hex(y)} ${hex(x)}`, r); return r; };
  ctx.Math = recMath;

  // Where the step is, for the call log: the frame, and the relaxation round
  // (projectWalls(bodies[0]) opens each of the nIterations rounds).
  let step = 0;
  let iter = -1;
  let pair = null; // the projectCollision call in progress
  const bodies = [];
  const calls = []; // one per projectCollision call

  // Our gjk_epa, wrapped to note the result of every call.
  const realGjk = loader.load('./gjk_epa');
  loader.modules.set('./gjk_epa', {
    gjk(a, b) {
      const hit = realGjk.gjk(a, b);
      if (pair) pair.hit = !!hit;
      return hit;
    },
    epa(a, b, ...simplex) {
      const r = realGjk.epa(a, b, ...simplex);
      if (pair) {
        pair.n = [hex(r.n.x), hex(r.n.y)];
        pair.dist = hex(r.dist);
        pair.points = [supportEdgeSize(a, r.n.x, r.n.y), supportEdgeSize(b, r.n.x * -1, r.n.y * -1)];
      }
      return r;
    },
  });

  // The page's `require([...], cb)`: the same modules, except that Body and
  // World are handed over as observing subclasses.
  let world = null;
  const amdRequire = ctx.require;
  ctx.require = function require(deps, cb) {
    if (!Array.isArray(deps) || typeof cb !== 'function') return amdRequire(deps, cb);
    const values = deps.map((d) => loader.load(d));
    const kb = deps.indexOf('./BodyShapeMatching');
    const kw = deps.indexOf('./WorldShapeMatching');
    if (kb < 0 || kw < 0) throw new Error('the page did not require WorldShapeMatching and BodyShapeMatching');
    const Body = values[kb];
    values[kb] = class extends Body {
      constructor(...args) {
        super(...args);
        bodies.push(this);
        this.recordedInertia = args[0].inertia; // createPolygonPoints' value (the Body ignores it)
      }
    };
    const World = values[kw];
    values[kw] = class extends World {
      constructor(...args) { super(...args); world = this; }
      projectWalls(...args) {
        if (args[0] === this.bodies[0]) iter++;
        return super.projectWalls(...args);
      }
      projectCollision(...args) {
        pair = { step, iter, a: this.bodies.indexOf(args[0]), b: this.bodies.indexOf(args[1]), nargs: args.length };
        calls.push(pair);
        try {
          return super.projectCollision(...args);
        } finally {
          pair = null;
        }
      }
    };
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
  if (bodies.length !== 3) throw new Error(`expected the page to create 3 bodies, got ${bodies.length}`);
  if (!world || world.bodies.length !== 3) throw new Error('the page did not hand its 3 bodies to a World');
  if (world.nIterations !== 4) throw new Error(`World.nIterations is ${world.nIterations}, expected 4`);

  const initial = bodies.map(bodyState);
  const setup = bodies.map((b) => ({
    mass: hex(b.mass),
    polygon_inertia: hex(b.recordedInertia),
    // What the Force Based Body calls this.inertia (mass * shape.inertia);
    // this Body ignores it, the energy in derivations/scenes.md needs it.
    inertia: hex(b.mass * b.recordedInertia),
    shape: b.shape.map((p) => [hex(p.x), hex(p.y)]),
  }));
  const walls = world.walls.map((w) => ({
    position: [hex(w.position.x), hex(w.position.y)],
    normal: [hex(w.normal.x), hex(w.normal.y)],
  }));

  const out = [];
  let stopped = null;
  for (step = 1; step <= steps; step++) {
    iter = -1;
    const first = calls.length;
    let error = null;
    try {
      state.renderLoop(); // scene.render(): world.step(); update_mesh();
    } catch (e) {
      error = String(e && e.message ? e.message : e);
    }
    if (error !== null) {
      const last = calls.length > first ? calls[calls.length - 1] : null;
      stopped = { step, error, iter, in_project_collision: last ? [last.a, last.b] : null };
      break;
    }
    const mine = calls.slice(first);
    const rec = { step, bodies: bodies.map(bodyState), collision: mine.some((c) => c.hit) };
    if (mine.length > 0) {
      // One line per call (the file would be 3 times larger with objects):
      // [iter, a, b, 0] or [iter, a, b, 1, n.x, n.y, dist, |supportEdge A|, |supportEdge B|].
      rec.gjk = mine.map(({ iter: i, a, b, hit, n, dist, points }) =>
        (hit ? [i, a, b, 1, n[0], n[1], dist, points[0], points[1]] : [i, a, b, 0]));
    }
    out.push(rec);
  }
  return {
    initial, setup, walls, steps: out, stopped, calls, libm, stats: realGjk.stats, text, line: lineOffset + 1,
    out_x: Object.prototype.hasOwnProperty.call(ctx, 'out_x'),
  };
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
  // forEach's second argument is thisArg (ignored by an arrow function), so
  // projectCollision always gets 2 arguments: gravityBias = 0 (D-SCENE-8).
  const nargs = [...new Set(run.calls.map((c) => c.nargs))];
  if (nargs.some((k) => k !== 2)) throw new Error(`projectCollision got ${nargs} arguments, expected 2`);

  // V8's a**3 and b**3 for the three squares (createPolygonPoints' inertia),
  // recomputed as the page computes them and checked against the page's value.
  const pow3 = new Map();
  const radii = [2, 1, 1.5];
  radii.forEach((radius, k) => {
    const nsides = 4;
    const delta = Math.PI * 2 / nsides;
    const a = (1 + Math.cos(delta)) / 2;
    const b = (1 - Math.cos(delta)) / 2;
    pow3.set(hex(a), hex(a ** 3));
    pow3.set(hex(b), hex(b ** 3));
    const inertia = radius * radius / 6 * (3 * (a ** 3 + b ** 3) + 9 * a * b - 2 * b);
    if (hex(inertia) !== run.setup[k].polygon_inertia) throw new Error(`body ${k}: inertia not reproduced`);
  });

  const firstCall = run.calls.length ? run.calls[0].step : null;
  const firstHit = run.calls.find((c) => c.hit);
  const collisionSteps = run.steps.filter((s) => s.collision).length;
  const command = `node ${GENERATOR} ${repoRel(articlesDir)}` +
    (path.resolve(outDir) === DEFAULT_OUT ? '' : ` --out ${repoRel(outDir)}`) +
    (steps === STEPS ? '' : ` --steps ${steps}`);
  const fileSha = (name) => ({ name, sha256: sha256(fs.readFileSync(path.join(articlesDir, name))) });
  const ownSha = (name) => ({ name: `data/generate/${name}`, sha256: sha256(fs.readFileSync(path.join(OWN_DIR, name))) });
  const tableOut = (m) => [...m.entries()].map(([k, v]) => [...k.split(' '), v]);

  const doc = {
    provenance: {
      generator: GENERATOR,
      article: '剛体の衝突 4 PositionBased (ShapeMatching)',
      source_files: [fileSha(PAGE), ...MODULES.map(fileSha)],
      own_modules: [ownSha('math.js'), ownSha('gjk_epa.js'), ownSha('amd_loader.js'), ownSha('scene_shape_matching.js')],
      page_script: { from: `${PAGE}:${run.line}`, sha256: sha256(Buffer.from(run.text, 'utf8')) },
      method: 'the inline <script>, WorldShapeMatching.js, BodyShapeMatching.js and mat2.js run unmodified in ' +
        'one vm context (amd_loader.js, sloppy mode: lerp creates the globals out_x/out_y); BabylonJS and ' +
        'document are stubs; one engine.runRenderLoop callback (scene.render(): world.step(); update_mesh()) ' +
        'per step; Body and World are observed through subclasses that call the article methods unchanged; ' +
        'a second run from a fresh context gave the same bits',
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
      n_iterations: 4,
      wall_restitution: '0.9',
      wall_friction: '0.02',
      shape_match_attenuation: '0.98',
      wall_angles: ['-0.3', '0.5'],
      walls_note: 'Wall(position (0, 0), normal (-Math.sin(a), Math.cos(a))); the sin/cos values are in js_libm',
      walls: run.walls,
      bodies: [
        { nsides: 4, radius: '2', pos: ['7', '14'], ang: 'Math.PI / 4', mass: '1', vel: ['0', '0'], angVel: '0' },
        { nsides: 4, radius: '1', pos: ['-12', '14'], ang: '0', mass: '1', vel: ['0', '0'], angVel: '0' },
        { nsides: 4, radius: '1.5', pos: ['-8', '14'], ang: '0', mass: '1', vel: ['2', '0'], angVel: '0' },
      ],
      pair_note: 'sap on the worldShapes (the predicted poses, not the collisionShapes) along (1, 0) gives ' +
        'pairs[i] = the j < i overlapping in x; World.step calls projectCollision(bodies[i], bodies[j]) in that ' +
        'order, 4 times per step; a gjk entry is [iter (relaxation round 0..3), a = bodyA, b = bodyB, hit (0/1)] ' +
        'and, for a hit, n.x, n.y (EPA normal), dist (EPA depth, unused by the article), the supportEdge sizes ' +
        'of A (along n) and B (along -n)',
      gravity_bias_note: 'pairs[i].forEach(j => this.projectCollision(body, this.bodies[j]), irelax): irelax is ' +
        "forEach's thisArg, not an argument of projectCollision, so gravityBias is always its default 0 " +
        '(every recorded call had 2 arguments)',
      out_globals_created: run.out_x,
    },
    setup: run.setup,
    steps_requested: steps,
    steps_run: run.steps.length,
    stopped: run.stopped,
    phases: {
      first_gjk_call_step: firstCall,
      first_gjk_hit_step: firstHit ? firstHit.step : null,
      wall_only_through_step: firstHit ? firstHit.step - 1 : run.steps.length,
      steps_with_body_collision: collisionSteps,
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
    js_libm: {
      cos: tableOut(run.libm.cos),
      sin: tableOut(run.libm.sin),
      atan2: tableOut(run.libm.atan2),
      pow3: tableOut(pow3),
    },
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
  for (const f of [PAGE, ...MODULES]) {
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
