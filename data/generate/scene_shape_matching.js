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
// seeds), the BabylonJS/document stubs and the page runner (scene_page.js,
// shared by both scene generators), and the recording. Nothing the article
// code computes is changed: the recording wrappers (Math.cos/sin/atan2, Gjk.gjk/epa,
// a subclass of Body that only notes each new body, a subclass of World whose
// projectWalls/projectCollision note the call and then call the article's
// method with the same arguments) return exactly what the wrapped functions
// return.

const { hex } = require('./generate');
const page = require('./scene_page');

const SPEC = {
  generator: 'data/generate/scene_shape_matching.js',
  file: 'scene_shape_matching.json',
  page: 'collision-shapeMatching.html',
  modules: ['WorldShapeMatching.js', 'BodyShapeMatching.js', 'mat2.js'],
  scene: "ShapeMatching page's scene",
  generate: (opts) => generate(opts.articlesDir, opts.outDir, opts.steps),
};

// ----------------------------------------------------------- the page's world

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
  const loader = page.pageLoader(articlesDir);
  const ctx = loader.context;
  const libm = page.recordMath(ctx, { atan2: true }); // Math.cos/sin/atan2, noted

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
  page.observeRequire(loader, (deps, values) => {
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
  });

  const { renderLoop, text, line } = page.runPage(ctx, articlesDir, SPEC.page);
  if (bodies.length !== 3) throw new Error(`expected the page to create 3 bodies, got ${bodies.length}`);
  if (!world || world.bodies.length !== 3) throw new Error('the page did not hand its 3 bodies to a World');
  if (world.nIterations !== 4) throw new Error(`World.nIterations is ${world.nIterations}, expected 4`);

  const initial = bodies.map(page.bodyState);
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
      renderLoop(); // scene.render(): world.step(); update_mesh();
    } catch (e) {
      error = String(e && e.message ? e.message : e);
    }
    if (error !== null) {
      const last = calls.length > first ? calls[calls.length - 1] : null;
      stopped = { step, error, iter, in_project_collision: last ? [last.a, last.b] : null };
      break;
    }
    const mine = calls.slice(first);
    const rec = { step, bodies: bodies.map(page.bodyState), collision: mine.some((c) => c.hit) };
    if (mine.length > 0) {
      // One line per call (the file would be 3 times larger with objects):
      // [iter, a, b, 0] or [iter, a, b, 1, n.x, n.y, dist, |supportEdge A|, |supportEdge B|].
      rec.gjk = mine.map(({ iter: i, a, b, hit, n, dist, points }) =>
        (hit ? [i, a, b, 1, n[0], n[1], dist, points[0], points[1]] : [i, a, b, 0]));
    }
    out.push(rec);
  }
  return {
    initial, setup, walls, steps: out, stopped, calls, libm, stats: realGjk.stats, text, line,
    out_x: Object.prototype.hasOwnProperty.call(ctx, 'out_x'),
  };
}

// ---------------------------------------------------------------- the document

function generate(articlesDir, outDir, steps) {
  const run = page.runTwice(runScene, articlesDir, steps);
  // forEach's second argument is thisArg (ignored by an arrow function), so
  // projectCollision always gets 2 arguments: gravityBias = 0 (D-SCENE-8).
  const nargs = [...new Set(run.calls.map((c) => c.nargs))];
  if (nargs.some((k) => k !== 2)) throw new Error(`projectCollision got ${nargs} arguments, expected 2`);

  // V8's a**3 and b**3 for the three squares (createPolygonPoints' inertia),
  // recomputed as the page computes them and checked against the page's value.
  const pow3 = new Map();
  [2, 1, 1.5].forEach((radius, k) => {
    const inertia = page.polygonInertia(pow3, 4, radius);
    if (hex(inertia) !== run.setup[k].polygon_inertia) throw new Error(`body ${k}: inertia not reproduced`);
  });

  const firstHit = run.calls.find((c) => c.hit);
  return page.sceneDocument({
    provenance: page.provenance(SPEC, { articlesDir, outDir, steps }, run, {
      article: '剛体の衝突 4 PositionBased (ShapeMatching)',
      method: 'the inline <script>, WorldShapeMatching.js, BodyShapeMatching.js and mat2.js run unmodified in ' +
        'one vm context (amd_loader.js, sloppy mode: lerp creates the globals out_x/out_y); BabylonJS and ' +
        'document are stubs; one engine.runRenderLoop callback (scene.render(): world.step(); update_mesh()) ' +
        'per step; Body and World are observed through subclasses that call the article methods unchanged; ' +
        'a second run from a fresh context gave the same bits',
    }),
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
    run,
    steps,
    firstCall: run.calls.length ? run.calls[0].step : null,
    firstHit: firstHit ? firstHit.step : null,
    phasesExtra: { steps_with_body_collision: run.steps.filter((s) => s.collision).length },
    jsLibm: {
      cos: page.tableOut(run.libm.cos),
      sin: page.tableOut(run.libm.sin),
      atan2: page.tableOut(run.libm.atan2),
      pow3: page.tableOut(pow3),
    },
  });
}

if (require.main === module) {
  process.exitCode = page.main(SPEC, process.argv.slice(2));
}

module.exports = { runScene, generate };
