'use strict';
// What the two scene generators (scene_force.js, scene_shape_matching.js)
// share: the BabylonJS and `document` stubs the pages touch, running a page's
// inline <script> unmodified in an AmdLoader context, the recording Math, the
// parts of the golden document both write (provenance, phases, gjk_epa
// statistics, the document's key order), and the command line (usage, --check).
// Each generator keeps what is its own: the wrappers around the article's
// classes and gjk_epa, the recording per step, and its scene description.
// Nothing here changes what the article code computes.

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { AmdLoader } = require('./amd_loader');
const {
  hex, toJson, inlineScripts, sha256, repoRel, UsageError, QUIET, DEFAULT_OUT, parseCommandLine,
} = require('./generate');

const OWN_DIR = __dirname;
const STEPS = 500;

// ----------------------------------------------------------- the page's world

// Only what the two pages touch. Scene.render() runs the callbacks given to
// registerBeforeRender, as BabylonJS does before drawing; each page registers
// one that advances the simulation (simulate() or world.step()) and then
// calls update_mesh().
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

/** A fresh AmdLoader context for the articles directory (console silenced). */
function pageLoader(articlesDir) {
  return new AmdLoader({ articleDir: articlesDir, ownDir: OWN_DIR, console: QUIET });
}

/**
 * Math as the article code sees it: the real one, with cos and sin (and atan2
 * if asked) noting (argument bits -> result bits) so the C++ port can use
 * V8's values. Installs it in ctx and returns the tables (atan2 keys are
 * "<y bits> <x bits>").
 */
function recordMath(ctx, { atan2 = false } = {}) {
  const libm = { cos: new Map(), sin: new Map() };
  if (atan2) libm.atan2 = new Map();
  const note = (table, k, r) => {
    const v = hex(r);
    if (table.has(k) && table.get(k) !== v) throw new Error(`V8 libm gave two results for ${k}`);
    table.set(k, v);
  };
  const recMath = {};
  for (const k of Object.getOwnPropertyNames(Math)) recMath[k] = Math[k];
  recMath.cos = (x) => { const r = Math.cos(x); note(libm.cos, hex(x), r); return r; };
  recMath.sin = (x) => { const r = Math.sin(x); note(libm.sin, hex(x), r); return r; };
  if (atan2) {
    recMath.atan2 = (y, x) => { const r = Math.atan2(y, x); note(libm.atan2, `${hex(y)} ${hex(x)}`, r); return r; };
  }
  ctx.Math = recMath;
  return libm;
}

/**
 * Replaces the context's AMD `require([...], cb)` (the page's) with one that
 * loads the same modules and lets `substitute(deps, values)` swap some of
 * them (observing subclasses) before cb runs.
 */
function observeRequire(loader, substitute) {
  const ctx = loader.context;
  const amdRequire = ctx.require;
  ctx.require = function require(deps, cb) {
    if (!Array.isArray(deps) || typeof cb !== 'function') return amdRequire(deps, cb);
    const values = deps.map((d) => loader.load(d));
    substitute(deps, values);
    return cb(...values);
  };
}

/**
 * Runs the page's inline script, exactly as in the file (line offsets kept so
 * stack traces point into the HTML), with the BabylonJS and document stubs.
 * Returns the render loop (one call = one frame), the script text and the
 * HTML line it starts on.
 */
function runPage(ctx, articlesDir, page) {
  const state = { renderLoop: null, scene: null };
  const canvas = { width: 600, height: 430 };
  ctx.document = {
    getElementById(id) {
      if (id !== 'canvas') throw new Error(`document.getElementById('${id}'): not stubbed`);
      return canvas;
    },
  };
  ctx.BABYLON = babylonStub(state);

  const file = path.join(articlesDir, page);
  const html = fs.readFileSync(file, 'utf8');
  const scripts = inlineScripts(html);
  if (scripts.length !== 1) throw new Error(`${page}: expected one inline <script>, found ${scripts.length}`);
  const { text, offset } = scripts[0];
  const before = html.slice(0, offset);
  const lineOffset = before.split('\n').length - 1;
  const columnOffset = offset - (before.lastIndexOf('\n') + 1);
  new vm.Script(text, { filename: file, lineOffset, columnOffset }).runInContext(ctx);
  if (!state.renderLoop) throw new Error('the page did not start a render loop');
  return { renderLoop: state.renderLoop, text, line: lineOffset + 1 };
}

const bodyState = (b) => ({
  pos: [hex(b.pos.x), hex(b.pos.y)],
  ang: hex(b.ang),
  vel: [hex(b.vel.x), hex(b.vel.y)],
  angVel: hex(b.angVel),
});

// ---------------------------------------------------------------- the document

/** Runs the scene twice (the second time V8 has optimised the code); requires the same bits. */
function runTwice(runScene, articlesDir, steps) {
  const run = runScene(articlesDir, steps);
  const again = runScene(articlesDir, steps);
  if (JSON.stringify(again.steps) !== JSON.stringify(run.steps) ||
      JSON.stringify(again.stopped) !== JSON.stringify(run.stopped)) {
    throw new Error('two runs of the scene gave different bits');
  }
  return run;
}

/**
 * createPolygonPoints' inertia per unit mass, computed as the page computes
 * it; V8's a**3 and b**3 go into `pow3` (argument bits -> result bits).
 */
function polygonInertia(pow3, nsides, radius) {
  const delta = Math.PI * 2 / nsides;
  const a = (1 + Math.cos(delta)) / 2;
  const b = (1 - Math.cos(delta)) / 2;
  pow3.set(hex(a), hex(a ** 3));
  pow3.set(hex(b), hex(b ** 3));
  return radius * radius / 6 * (3 * (a ** 3 + b ** 3) + 9 * a * b - 2 * b);
}

/** A libm table as JSON rows: [arg, result] or, for atan2, [y, x, result]. */
const tableOut = (m) => [...m.entries()].map(([k, v]) => [...k.split(' '), v]);

/** The provenance object (fixed key order; generated_on etc. are INCIDENTAL). */
function provenance(spec, opts, run, { article, method }) {
  const { articlesDir, outDir, steps } = opts;
  // The articles' folder is recorded as <articles-js>: it is not data (see generate.js).
  const command = `node ${spec.generator} <articles-js>` +
    (path.resolve(outDir) === DEFAULT_OUT ? '' : ` --out ${repoRel(outDir)}`) +
    (steps === STEPS ? '' : ` --steps ${steps}`);
  const fileSha = (name) => ({ name, sha256: sha256(fs.readFileSync(path.join(articlesDir, name))) });
  const ownSha = (name) => ({ name: `data/generate/${name}`, sha256: sha256(fs.readFileSync(path.join(OWN_DIR, name))) });
  return {
    generator: spec.generator,
    article,
    source_files: [spec.page, ...spec.modules].map(fileSha),
    own_modules: ['math.js', 'gjk_epa.js', 'amd_loader.js', 'scene_page.js', path.basename(spec.generator)].map(ownSha),
    page_script: { from: `${spec.page}:${run.line}`, sha256: sha256(Buffer.from(run.text, 'utf8')) },
    method,
    node_version: process.version,
    v8_version: process.versions.v8,
    generated_on: new Date().toISOString().slice(0, 10),
    prng_seed: 0,
    prng_note: 'no randomness is used',
    generated_by_command: command,
  };
}

/**
 * The golden document, in the key order both files use. `firstCall` and
 * `firstHit` are the steps of the first GJK call and hit (null: none);
 * `phasesExtra` goes into phases before its note.
 */
function sceneDocument({ provenance: prov, scene, run, steps, firstCall, firstHit, phasesExtra = {}, jsLibm }) {
  const doc = {
    provenance: prov,
    scene,
    setup: run.setup,
    steps_requested: steps,
    steps_run: run.steps.length,
    stopped: run.stopped,
    phases: {
      first_gjk_call_step: firstCall,
      first_gjk_hit_step: firstHit,
      wall_only_through_step: firstHit !== null ? firstHit - 1 : run.steps.length,
      ...phasesExtra,
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
    js_libm: jsLibm,
  };
  return toJson(doc) + '\n';
}

// ------------------------------------------------------------- command line

// Which Node ran the generator, when and from where is recorded but is not the
// data (as in generate.js --check): a newer Node that reproduces every bit passes.
const INCIDENTAL = ['generated_on', 'node_version', 'v8_version', 'generated_by_command'];
const withoutDate = (t) =>
  INCIDENTAL.reduce((x, k) => x.replace(new RegExp(`"${k}": "[^"]*"`), `"${k}": ""`), t);

function usage(spec) {
  return `\
Usage:
  node ${spec.generator} <articles-js-dir> [--out <dir>] [--steps N]
      Run the ${spec.scene} for N frames (default ${STEPS}) and write
      <dir>/${spec.file} (default dir: data/golden).
  node ${spec.generator} --check <articles-js-dir> [--out <dir>]
      Regenerate in memory and compare with the committed file (the date, the
      Node/V8 versions and the command line in provenance are ignored).
      Exit 0 if identical, 1 otherwise.
  node ${spec.generator} --help
Exit status 2 means a usage or input error.
`;
}

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

/**
 * A scene generator's main. spec: { generator (repo path), file (output
 * name), page, modules (the other article files), scene (usage text),
 * generate(opts) -> the document text }.
 */
function main(spec, argv) {
  const { opts, exit } = parseCommandLine(argv, parseArgs, usage(spec));
  if (!opts) return exit;
  for (const f of [spec.page, ...spec.modules]) {
    if (!fs.existsSync(path.join(opts.articlesDir, f))) {
      console.error(`error: ${f} not found in ${opts.articlesDir}`);
      return 2;
    }
  }
  const text = spec.generate(opts);
  const file = path.join(opts.outDir, spec.file);
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

module.exports = {
  STEPS, pageLoader, recordMath, observeRequire, runPage, bodyState,
  runTwice, polygonInertia, tableOut, provenance, sceneDocument, main,
};
