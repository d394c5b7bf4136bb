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
// seeds), the BabylonJS/document stubs and the page runner (scene_page.js,
// shared by both scene generators), and the recording. Nothing the article
// code computes is changed: the recording wrappers (Math.cos/Math.sin, Gjk.gjk/epa,
// a subclass of Body that only notes each new body) return exactly what the
// wrapped functions return.

const { hex } = require('./generate');
const page = require('./scene_page');

const SPEC = {
  generator: 'data/generate/scene_force.js',
  file: 'scene_force.json',
  page: 'collision-force.html',
  modules: ['BodyForce.js'],
  scene: "Force Based page's scene",
  generate: (opts) => generate(opts.articlesDir, opts.outDir, opts.steps),
};

// ----------------------------------------------------------- the page's world

/** Runs the page for `steps` frames; returns everything recorded. */
function runScene(articlesDir, steps) {
  const loader = page.pageLoader(articlesDir);
  const libm = page.recordMath(loader.context);

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
  page.observeRequire(loader, (deps, values) => {
    const k = deps.indexOf('./BodyForce');
    if (k >= 0) {
      const Body = values[k];
      values[k] = class extends Body {
        constructor(...args) { super(...args); bodies.push(this); }
      };
    }
  });

  const { renderLoop, text, line } = page.runPage(loader.context, articlesDir, SPEC.page);
  if (bodies.length !== 2) throw new Error(`expected the page to create 2 bodies, got ${bodies.length}`);

  const initial = bodies.map(page.bodyState);
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
      renderLoop(); // scene.render(): simulate(); update_mesh();
    } catch (e) {
      stopped = { step, error: String(e && e.message ? e.message : e) };
      break;
    }
    const rec = { step, bodies: bodies.map(page.bodyState) };
    const calls = gjkLog.filter((g) => g.step === step).map(({ hit, n, dist }) => (hit ? { hit, n, dist } : { hit }));
    if (calls.length > 0) rec.gjk = calls;
    out.push(rec);
  }
  return { initial, setup, steps: out, stopped, gjkLog, libm, stats: realGjk.stats, text, line };
}

// ---------------------------------------------------------------- the document

function generate(articlesDir, outDir, steps) {
  const run = page.runTwice(runScene, articlesDir, steps);

  // V8's a**3 and b**3 for the two polygons (createPolygonPoints' inertia),
  // recomputed as the page computes them and checked against the bodies.
  const pow3 = new Map();
  [4, 3].forEach((nsides, k) => {
    const inertia = page.polygonInertia(pow3, nsides, 1);
    if (hex(1 * inertia) !== run.setup[k].inertia) throw new Error(`body ${k}: inertia not reproduced`);
  });

  const firstHit = run.gjkLog.find((g) => g.hit);
  return page.sceneDocument({
    provenance: page.provenance(SPEC, { articlesDir, outDir, steps }, run, {
      article: '物理シミュレーション 剛体の衝突 2 (Force Based)',
      method: 'the inline <script> and BodyForce.js run unmodified in one vm context (amd_loader.js); ' +
        'BabylonJS and document are stubs; one engine.runRenderLoop callback (scene.render(): ' +
        'simulate(); update_mesh()) per step; a second run from a fresh context gave the same bits',
    }),
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
    run,
    steps,
    firstCall: run.gjkLog.length ? run.gjkLog[0].step : null,
    firstHit: firstHit ? firstHit.step : null,
    jsLibm: { cos: page.tableOut(run.libm.cos), sin: page.tableOut(run.libm.sin), pow3: page.tableOut(pow3) },
  });
}

if (require.main === module) {
  process.exitCode = page.main(SPEC, process.argv.slice(2));
}

module.exports = { runScene, generate };
