// Convention tests of the JavaScript engine adapters (tools/adapters/js):
// each conversion an adapter makes (normal direction, inertia reference
// point, matter's units, body origin against centre of mass, impulse signs,
// float inputs) has a case here that fails if the conversion is wrong; and
// the answer line's rules (issue 25): the op's result fields only, the rest
// under diagnostics, input changes declared, solver_iterations declared.
// The layout of every answer to the fuzz corpus and the case sets is held
// by the adapter_corpus_<engine> ctests (tests/adapter_corpus_test.cpp).
// Run: node --test tests/js/ (ctest js_adapter_conventions).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { answer, runAdapter, polygonChange, float32, runScene } from '../../tools/adapters/js/lib/adapter_io.mjs';
import * as planck from '../../tools/adapters/js/planck.mjs';
import * as box2dWasm from '../../tools/adapters/js/box2d-wasm.mjs';
import * as rapier from '../../tools/adapters/js/rapier.mjs';
import * as p2 from '../../tools/adapters/js/p2.mjs';
import * as matter from '../../tools/adapters/js/matter.mjs';

const engines = { planck, 'box2d-wasm': box2dWasm, rapier, p2, matter };
const floatEngines = new Set(['box2d-wasm', 'rapier', 'p2']);

before(async () => {
  await box2dWasm.load();
  await rapier.load();
});

function ask(name, request) {
  const line = structuredClone(request);
  answer(line, engines[name].ops, engines[name].isCrash);
  return line;
}

function result(name, request) {
  const line = ask(name, request);
  assert.ok(line.result, `${name}: ${JSON.stringify(line.error)}`);
  return line.result;
}

function close(actual, expected, tolerance, what) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} within ${tolerance}`);
}

const tolerance = (name) => (floatEngines.has(name) ? 1e-5 : 1e-12);
const box = (x0, y0, x1, y1) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

// ---- normals point from a to b --------------------------------------------------

describe('normals point from a to b', () => {
  const a = box(0, 0, 2, 2);
  const b = box(1.5, 0.5, 3.5, 1.5);  // overlaps a by 0.5 along +x
  for (const name of Object.keys(engines)) {
    test(`${name}: epa.penetration, both orders`, () => {
      const ab = result(name, { op: 'epa.penetration', a, b });
      assert.equal(ab.intersecting, true);
      close(ab.normal[0], 1, 1e-6, 'n.x');
      close(ab.normal[1], 0, 1e-6, 'n.y');
      close(ab.depth, 0.5, 1e-6, 'depth');
      const ba = result(name, { op: 'epa.penetration', a: b, b: a });
      close(ba.normal[0], -1, 1e-6, 'n.x reversed');
    });
    test(`${name}: contact.manifold, both orders`, () => {
      const ab = result(name, { op: 'contact.manifold', a, b });
      close(ab.normal[0], 1, 1e-6, 'n.x');
      assert.ok(ab.points.length >= 1 && ab.points.length <= 2);
      for (const p of ab.points) if ('separation' in p) close(p.separation, -0.5, 1e-6, 'separation');
      const ba = result(name, { op: 'contact.manifold', a: b, b: a });
      close(ba.normal[0], -1, 1e-6, 'n.x reversed');
    });
  }
  // The Box2D family registers (polygon, circle) only: a circle first is
  // swapped by the engine's contact factory and the normal flipped back.
  for (const name of ['planck', 'box2d-wasm', 'rapier', 'p2']) {
    test(`${name}: a circle before a polygon`, () => {
      const r = result(name, { op: 'contact.manifold', a: { center: [2.5, 1], radius: 0.75 }, b: a });
      close(r.normal[0], -1, 1e-6, 'n.x');
      close(r.points[0].separation, -0.25, 1e-6, 'separation');
    });
  }
});

// ---- inertia about the centroid ----------------------------------------------------------

describe('mass.polygon: inertia about the centroid', () => {
  // A 2 x 1 box far from its origin: about its centroid I = m (w^2 + h^2) / 12.
  const far = { op: 'mass.polygon', vertices: box(10, 20, 12, 21), density: 1 };
  const centroidal = (2 * (4 + 1)) / 12;
  for (const name of ['planck', 'box2d-wasm', 'rapier']) {
    test(name, () => {
      const r = result(name, far);
      close(r.inertia, centroidal, floatEngines.has(name) ? 1e-3 : 1e-9, 'inertia');
      close(r.centroid[0], 11, 1e-9, 'centroid.x');
    });
  }
  test('matter: 4 x the centroidal moment (Body._inertiaScale, reported as computed)', () => {
    const line = ask('matter', far);
    close(line.result.inertia, 4 * centroidal, 1e-12, 'inertia');
    assert.equal(line.diagnostics.inertia_scale, 4);
    assert.equal(line.result.inertia_scale, undefined);
  });
  test('p2: moved from the local origin to the centroid', () => {
    // p2's moment formula needs the origin inside; the centroid is (1, 0).
    const r = result('p2', { op: 'mass.polygon', vertices: box(-1, -1, 3, 1), density: 1 });
    close(r.inertia, (8 * (16 + 4)) / 12, 1e-9, 'inertia');
    close(r.centroid[0], 1, 1e-9, 'centroid.x');
  });
  test('p2: a clockwise polygon is refused (Convex throws)', () => {
    const line = ask('p2', { op: 'mass.polygon', vertices: box(0, 0, 1, 1).reverse() });
    assert.equal(line.error.code, 'unsupported');
  });
});

// ---- step.pair: units, origin and centre of mass ---------------------------------------------------

const DT = 1 / 60;
const farFloor = { vertices: box(-5, -0.5, 5, 0.5), position: [0, -100], static: true };

function freeStep(name, body2, gravity = [0, 0]) {
  return result(name, { op: 'step.pair', body1: farFloor, body2, restitution: 0, friction: 0, dt: DT, gravity });
}

describe('step.pair: a free body', () => {
  for (const name of Object.keys(engines)) {
    test(`${name}: velocity (1, 0) m/s moves dt in one step`, () => {
      const r = freeStep(name, { vertices: box(-0.5, -0.5, 0.5, 0.5), position: [0, 0], velocity: [1, 0] });
      close(r.body2_after.position[0], DT, tolerance(name), 'x');
      close(r.body2_after.velocity[0], 1, tolerance(name) * 10, 'vx');
    });
    test(`${name}: gravity (0, -10) gives v = g dt, y = g dt^2 (semi-implicit Euler)`, () => {
      const line = ask(name, { op: 'step.pair', body1: farFloor, body2: { vertices: box(-0.5, -0.5, 0.5, 0.5), position: [0, 0] },
        restitution: 0, friction: 0, dt: DT, gravity: [0, -10] });
      const r = line.result;
      close(r.body2_after.velocity[1], -10 * DT, 1e-5, 'vy');
      // Rapier integrates in numSolverIterations substeps of dt/n:
      // y = g dt^2 (n + 1) / (2n).
      const n = name === 'rapier' ? line.diagnostics.engine_settings.numSolverIterations : 1;
      close(r.body2_after.position[1], -10 * DT * DT * (n + 1) / (2 * n), 1e-6, 'y');
    });
  }
  // A polygon off its origin spinning about its centre of mass: the origin
  // moves, the centre of mass (2, 1) stays.
  const spinning = { vertices: box(1, 0, 3, 2), position: [0, 0], angular_velocity: 1 };
  for (const name of ['planck', 'box2d-wasm', 'rapier', 'matter', 'p2']) {
    test(`${name}: position is the body origin, velocity the centre of mass's`, () => {
      const r = freeStep(name, spinning);
      const angle = r.body2_after.angle;
      close(angle, DT, 1e-6, 'angle');
      const c = Math.cos(angle), s = Math.sin(angle);
      close(r.body2_after.position[0], 2 - (c * 2 - s * 1), 1e-6, 'origin x');
      close(r.body2_after.position[1], 1 - (s * 2 + c * 1), 1e-6, 'origin y');
      close(r.body2_after.velocity[0], 0, 1e-5, 'centre of mass velocity');
    });
  }
  test('matter: the described mass and moment (not Body._inertiaScale times it, not the polygon circle)', () => {
    const boxBody = matter.addBody({ vertices: box(1, 0, 3, 1).map(([x, y]) => ({ x, y })), position: { x: 0, y: 0 },
      angle: 0, isStatic: false, density: 1, velocity: { x: 0, y: 0 }, angularVelocity: 0 }, {}).body;
    close(boxBody.mass, 2, 1e-12, 'box mass');
    close(boxBody.inertia, 2 * (4 + 1) / 12, 1e-12, 'box polar moment about the centroid');
    const disc = matter.addBody({ radius: 0.5, position: { x: 0, y: 0 }, angle: 0, isStatic: false, density: 2,
      velocity: { x: 0, y: 0 }, angularVelocity: 0 }, {}).body;
    close(disc.mass, 2 * Math.PI * 0.25, 1e-12, 'circle mass rho pi r^2');
    close(disc.inertia, 2 * Math.PI * 0.25 * 0.25 / 2, 1e-12, 'circle moment m r^2 / 2');
  });
  test('matter: no restitution_threshold (matter bounces at any approach speed)', () => {
    const line = ask('matter', { op: 'step.pair', body1: farFloor, body2: { vertices: box(-0.5, -0.5, 0.5, 0.5), position: [0, 0] },
      restitution: 0, friction: 0, dt: DT, gravity: [0, 0] });
    assert.equal(line.allowances.restitution_threshold, undefined);
  });
  test('matter: velocities per base delta converted to m/s', () => {
    close(matter.toMatterVelocity(1), 1000 / 60 / 1000, 1e-15, 'to');
    close(matter.fromMatterVelocity(matter.toMatterVelocity(3)), 3, 1e-12, 'round trip');
  });
});

// ---- step.pair: impulses on body2 are jn n + jt t -------------------------------------------------

describe('step.pair: contact impulses', () => {
  // A unit box sliding and falling onto a static floor, no gravity: body2's
  // momentum change is the sum of jn n + jt t, t = (-n.y, n.x).
  const floor = { vertices: box(-5, -0.5, 5, 0.5), position: [0, 0], static: true };
  const falling = { vertices: box(-0.5, -0.5, 0.5, 0.5), position: [0, 0.99], velocity: [1, -2], density: 1 };
  const sumImpulse = (contacts) => contacts.reduce((sum, c) => {
    const n = c.normal, t = [-n[1], n[0]];
    return [sum[0] + c.jn * n[0] + c.jt * t[0], sum[1] + c.jn * n[1] + c.jt * t[1]];
  }, [0, 0]);
  for (const name of ['planck', 'box2d-wasm', 'rapier', 'p2']) {
    for (const [label, body1, body2, moving, sign] of [
      ['floor is body1', floor, falling, 'body2_after', 1],
      ['floor is body2', falling, floor, 'body1_after', -1]]) {
      test(`${name}: ${label}`, () => {
        const r = result(name, { op: 'step.pair', body1, body2, restitution: 0.5, friction: 0.3, dt: DT, gravity: [0, 0] });
        assert.ok(r.contacts.length > 0, 'contacts');
        for (const c of r.contacts) close(c.normal[1], sign, 1e-6, 'normal from body1 to body2');
        const [jx, jy] = sumImpulse(r.contacts);
        const v = r[moving].velocity;  // mass 1: momentum change = velocity change
        close(sign * jx, v[0] - 1, 1e-4, 'x impulse');
        close(sign * jy, v[1] + 2, 1e-4, 'y impulse');
        assert.ok(jy * sign > 0 && (sign * jx) < 0, 'friction opposes the slide');
      });
    }
  }
});

describe('step.pair: contact points midway between the surfaces', () => {
  // A unit box whose bottom (y = 0.49) is 0.01 into a floor whose top is
  // y = 0.5: the protocol's point is midway, y = 0.495, whichever body is
  // body1. Rapier's localContactPoint is on one body's surface; the adapter
  // moves it by half the signed distance along n (D-DYNENG-3).
  const floor = { vertices: box(-5, -0.5, 5, 0.5), position: [0, 0], static: true };
  const box1 = { vertices: box(-0.5, -0.5, 0.5, 0.5), position: [0, 0.99], velocity: [0, -1], density: 1 };
  for (const [label, body1, body2] of [['floor is body1', floor, box1], ['floor is body2', box1, floor]]) {
    test(`rapier: ${label}`, () => {
      const r = result('rapier', { op: 'step.pair', body1, body2, restitution: 0, friction: 0, dt: DT, gravity: [0, 0] });
      assert.ok(r.contacts.length > 0, 'contacts');
      for (const c of r.contacts) close(c.point[1], 0.495, 1e-6, 'contact point y');
    });
  }
});

describe('step.pair: impulses of the TOI sub-step are added, not replacing the step\'s', () => {
  // Case step-2 of data/validation/dynamics.jsonl: a bouncing circle that
  // Box2D's and planck's continuous physics solve a second time (the Box2D
  // adapter reports "solves": 2). Its momentum change is the summed impulse.
  const request = { op: 'step.pair',
    body1: { vertices: box(-12.773253440856934, -1.2773253917694092, 12.773253440856934, 0), position: [0, 0], static: true },
    body2: { radius: 0.6386626958847046, position: [0.20753388106822968, 0.6322760581970215],
      velocity: [-0.5264338254928589, -2.017807722091675], angular_velocity: -0.6348459124565125, density: 0.15112517774105072 },
    restitution: 0.8685665130615234, friction: 0.4531446099281311, dt: 0.01666666753590107, gravity: [0, 0] };
  for (const name of ['planck', 'box2d-wasm']) {
    test(`${name}: jn n + jt t = m delta v`, () => {
      const r = result(name, request);
      const m = request.body2.density * Math.PI * request.body2.radius ** 2;
      assert.equal(r.contacts.length, 1);
      const c = r.contacts[0];
      close(c.jn, m * (r.body2_after.velocity[1] - request.body2.velocity[1]), 1e-5, 'jn');
      close(c.jt, -m * (r.body2_after.velocity[0] - request.body2.velocity[0]), 1e-5, 'jt (t = (-1, 0))');
    });
  }
});

describe('step.pair: p2 reports impulses per manifold', () => {
  // p2 solves one averaged friction equation per manifold
  // (enableFrictionReduction): one entry, all points, summed jn, its jt.
  test('p2: a box flat on a floor: one entry with two points', () => {
    const floor = { vertices: box(-5, -0.5, 5, 0.5), position: [0, 0], static: true };
    const r = result('p2', { op: 'step.pair', body1: floor,
      body2: { vertices: box(-0.5, -0.5, 0.5, 0.5), position: [0, 0.999], velocity: [1, -2], density: 1 },
      restitution: 0, friction: 0.3, dt: DT, gravity: [0, 0] });
    assert.equal(r.contacts.length, 1);
    assert.equal(r.contacts[0].points.length, 2);
    close(r.contacts[0].jn, r.body2_after.velocity[1] + 2, 1e-5, 'jn = m delta v_y (m = 1)');
    close(r.contacts[0].jt, -(r.body2_after.velocity[0] - 1), 1e-5, 'jt = m delta v . t, t = (-1, 0)');
  });
});

// ---- inputs as the engine used them ------------------------------------------------------------------

describe('float engines rewrite their inputs', () => {
  for (const name of floatEngines) {
    test(name, () => {
      const line = ask(name, { op: 'mass.polygon', vertices: [[0.1, 0], [1, 0], [1, 1]] });
      assert.equal(line.vertices[0][0], Math.fround(0.1));
    });
  }
});

describe('float engines round their inputs, and add none', () => {
  test('a value beyond float\'s range is unsupported, the input left as given', () => {
    assert.throws(() => float32(1e300, 'x'), /beyond float's range/);
    assert.equal(float32(0.1), Math.fround(0.1));
    for (const name of floatEngines) {
      const line = ask(name, { op: 'mass.polygon', vertices: [[0, 0], [1e300, 0], [0, 1]] });
      assert.equal(line.error.code, 'unsupported', name);
      assert.equal(line.vertices[1][0], 1e300);
    }
  });
  test('a step.pair body comes back with the fields it had, rounded', () => {
    for (const name of floatEngines) {
      const line = ask(name, { op: 'step.pair', body1: farFloor, body2: { radius: 0.1, position: [0, 0.1], density: 1 },
        restitution: 0, friction: 0, dt: DT });
      assert.ok(line.result, `${name}: ${JSON.stringify(line.error)}`);
      assert.deepEqual(Object.keys(line.body2).sort(), ['density', 'position', 'radius'], name);
      assert.equal(line.body2.position[1], Math.fround(0.1));
      assert.equal(line.gravity, undefined, name);
      assert.deepEqual(Object.keys(line.body1).sort(), ['position', 'static', 'vertices'], name);
    }
  });
  test('a null is a wrong value, not an absent one', () => {
    for (const name of Object.keys(engines)) {
      const line = ask(name, { op: 'step.pair', body1: farFloor, body2: { radius: 0.1, position: null, density: 1 },
        restitution: 0, friction: 0, dt: DT });
      assert.equal(line.error.code, 'invalid_input', name);
    }
  });
});

describe('engine changes to the input are declared in diagnostics.input_changes', () => {
  test('planck reads 12 vertices at most', () => {
    const ring = Array.from({ length: 16 }, (_, i) => [Math.cos((2 * Math.PI * i) / 16), Math.sin((2 * Math.PI * i) / 16)]);
    const line = ask('planck', { op: 'mass.polygon', vertices: ring });
    assert.equal(line.diagnostics.vertices_used, 12);
    assert.match(line.diagnostics.input_changes.vertices, /first 12/);
    assert.deepEqual(Object.keys(line.result).sort(), ['area', 'centroid', 'inertia', 'mass']);
  });
  test('box2d-wasm replaces a polygon smaller than its weld distance by a box', () => {
    const line = ask('box2d-wasm', { op: 'mass.polygon', vertices: [[0, 0], [0.001, 0], [0, 0.001]] });
    assert.match(line.diagnostics.input_changes.vertices, /box \[-1, 1\]\^2/);
  });
  test('rapier and p2 declare a capsule built from its midpoint, not its endpoints', () => {
    for (const name of ['rapier', 'p2']) {
      const line = ask(name, { op: 'epa.penetration', a: { segment: [[0, 0], [2, 0]], radius: 0.5 }, b: box(1, 0, 2, 1) });
      assert.ok(line.result, `${name}: ${JSON.stringify(line.error)}`);
      assert.match(line.diagnostics.input_changes.a, /Capsule/, name);
    }
  });
  test('matter declares its circle polygon and its re-centred polygons', () => {
    const line = ask('matter', { op: 'step.pair', body1: farFloor, body2: { radius: 0.5, position: [0, 0], density: 1 },
      restitution: 0, friction: 0, dt: DT });
    assert.match(line.diagnostics.input_changes.body2, /regular \d+-gon/);
    assert.match(line.diagnostics.input_changes.body1, /centroid/);
  });
  test('a request by total mass is unsupported (the adapters set a density)', () => {
    for (const name of Object.keys(engines)) {
      const line = ask(name, { op: 'mass.polygon', vertices: box(0, 0, 1, 1), mass: 2 });
      assert.equal(line.error.code, 'unsupported', name);
    }
  });
  test('polygonChange accepts the same cycle in either orientation', () => {
    const square = box(0, 0, 1, 1).map(([x, y]) => ({ x, y }));
    assert.equal(polygonChange(square, [...square.slice(2), ...square.slice(0, 2)], { call: 'f' }), null);
    assert.equal(polygonChange(square, [...square].reverse(), { call: 'f' }), null);
  });
});

// ---- step.pair: the solver as the adapter configures it --------------------------------------------

describe('step.pair: solver_iterations and warm starting declared', () => {
  // The engines' own defaults: Box2D's suggested 8 velocity iterations
  // (planck's World default, box2d-wasm's Step argument), Rapier's 4 solver
  // iterations x 1 PGS iteration, matter's 4 velocityIterations, p2's
  // GSSolver 10 iterations.
  const expected = { planck: 8, 'box2d-wasm': 8, rapier: 4, matter: 4, p2: 10 };
  for (const [name, count] of Object.entries(expected)) {
    test(name, () => {
      const line = ask(name, { op: 'step.pair', body1: farFloor, body2: { vertices: box(-0.5, -0.5, 0.5, 0.5), position: [0, 0], density: 1 },
        restitution: 0, friction: 0, dt: DT });
      assert.ok(line.result, `${name}: ${JSON.stringify(line.error)}`);
      assert.equal(line.allowances.solver_iterations, count);
      assert.ok(Number.isInteger(line.allowances.solver_iterations) && line.allowances.solver_iterations >= 1);
      assert.notEqual(line.diagnostics.engine_settings.warmStarting, undefined, 'warm starting recorded');
      assert.equal(line.engine_settings, undefined, 'engine_settings under diagnostics');
      for (const key of Object.keys(line.result)) assert.ok(['body1_after', 'body2_after', 'contacts'].includes(key), key);
    });
  }
});

// ---- scene.run ---------------------------------------------------------------------------------------

describe('scene.run', () => {
  const ground = { vertices: box(-50, -2, 50, 0), position: [0, 0], static: true, velocity: [3, 0], angular_velocity: 1 };
  const falling = { vertices: box(0, 0, 1, 1), position: [0, 5], velocity: [1, 2], angular_velocity: 0.5 };
  const scene = { op: 'scene.run', dt: DT, steps: 20, record_every: 7, gravity: [0, -10], bodies: [ground, falling] };
  for (const name of Object.keys(engines)) {
    test(`${name}: frames at the multiples of record_every, bodies in order, free flight`, () => {
      const line = ask(name, scene);
      assert.ok(line.result, `${name}: ${JSON.stringify(line.error)}`);
      assert.deepEqual(Object.keys(line.result), ['frames']);
      assert.deepEqual(line.result.frames.map((f) => f.step), [7, 14]);
      // Rapier integrates in numSolverIterations substeps of dt/n:
      // y gains g dt^2 (n + 1) / (2n) per step, not g dt^2.
      const sub = name === 'rapier' ? line.diagnostics.engine_settings.numSolverIterations : 1;
      for (const { step: n, bodies } of line.result.frames) {
        assert.equal(bodies.length, 2);
        assert.deepEqual([bodies[0].velocity, bodies[0].angular_velocity], [[0, 0], 0], 'a static body does not move');
        const b = bodies[1];
        close(b.angle, 0.5 * n * DT, 1e-5, 'angle');
        close(b.velocity[1], 2 - 10 * n * DT, 1e-4, 'vy of the centre of mass');
        // position is the body origin: the centre of mass (0.5, 0.5) in the body frame, turned.
        const c = Math.cos(b.angle), s = Math.sin(b.angle);
        const cy = b.position[1] + s * 0.5 + c * 0.5;
        close(cy, 5.5 + 2 * n * DT - 10 * DT * DT * n * (n - 1) / 2 - 10 * DT * DT * n * (sub + 1) / (2 * sub), 1e-5, 'y of the centre of mass');
      }
      assert.ok(line.allowances.penetration_slop >= 0 && line.allowances.solver_iterations >= 1);
    });
    test(`${name}: malformed scenes are invalid_input`, () => {
      for (const bad of [{ steps: 1.5 }, { steps: 0 }, { steps: 100001 }, { record_every: 21 }, { bodies: [] },
        { bodies: Array(1001).fill(falling) }, { steps: undefined }, { friction: -1 }, { restitution: 2 }]) {
        const line = ask(name, { ...scene, ...bad });
        assert.equal(line.error?.code, 'invalid_input', `${JSON.stringify(bad)}: ${JSON.stringify(line.error ?? line.result)}`);
      }
    });
  }
  test('runScene: after a non-finite state the engine is not stepped again, the frames hold nulls', () => {
    let steps = 0;
    const line = {};
    const state = () => ({ position: [steps >= 3 ? NaN : steps, 0], angle: 0, velocity: [1, 0], angular_velocity: 0 });
    const { frames } = runScene({ steps: 8, recordEvery: 2, bodies: [{}] }, () => { steps += 1; }, state, line);
    assert.equal(steps, 3);
    assert.deepEqual(frames.map((f) => f.step), [2, 4, 6, 8]);
    assert.equal(frames[0].bodies[0].position[0], 2);
    assert.deepEqual(frames[1].bodies[0], { position: [null, null], angle: null, velocity: [null, null], angular_velocity: null });
    assert.equal(line.diagnostics.non_finite_at_step, 3);
  });
  test('penetration_slop: Box2D\'s linearSlop, Rapier\'s allowed linear error, matter\'s slop, p2\'s contact skin', () => {
    const slop = (name) => ask(name, scene).allowances.penetration_slop;
    assert.equal(slop('planck'), 0.005);
    assert.equal(slop('box2d-wasm'), Math.fround(0.005));
    assert.equal(slop('rapier'), Math.fround(0.005));  // rapier2d-compat 0.21.0
    assert.equal(slop('matter'), 0.05);
    assert.equal(slop('p2'), 0.005);  // ContactMaterial.contactSkinSize
  });
});

// ---- the adapter loop -------------------------------------------------------------------------------

async function runLines(text, ops, extra = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk) => { written += chunk; });
  input.end(text);
  await runAdapter({ engine: 'test-0', precision: 'double', ops, input, output, ...extra });
  return written.trim().split('\n').map((l) => JSON.parse(l));
}

describe('the adapter loop', () => {
  test('one answer per non-blank line, in order; a line that is no request is parse_error', async () => {
    const ops = { echo: (line) => { line.result = { id: line.id }; } };
    const lines = await runLines(
      '{"id":1,"op":"echo"}\n\nnot json\n[1,2]\n{"id":2,"op":"other"}\n{"id":4,"op":"constructor"}\n{"id":3,"op":"echo"}\n', ops);
    assert.deepEqual(lines.map((l) => l.id), [1, null, null, 2, 4, 3]);
    assert.equal(lines[1].error.code, 'parse_error');
    assert.equal(lines[2].error.code, 'parse_error');
    assert.equal(lines[3].error.code, 'unsupported');
    assert.equal(lines[4].error.code, 'unsupported');  // not Object's constructor
    assert.equal(lines[0].engine, 'test-0');
    assert.equal(lines[1].engine, 'test-0');
  });
  test('a WebAssembly trap is "crashed", the module restarts, the stream goes on', async () => {
    let restarts = 0;
    const ops = {
      trap: () => { throw new WebAssembly.RuntimeError('unreachable'); },
      ok: (line) => { line.result = {}; },
    };
    const lines = await runLines('{"id":1,"op":"trap"}\n{"id":2,"op":"ok"}\n', ops,
      { isCrash: (e) => e instanceof WebAssembly.RuntimeError, restart: async () => { restarts += 1; } });
    assert.equal(lines[0].error.code, 'crashed');
    assert.ok(lines[1].result);
    assert.equal(restarts, 1);
  });
  test('a request\'s own result, allowances and diagnostics are dropped', async () => {
    const ops = { ok: (line) => { line.result = { x: 1 }; } };
    const lines = await runLines('{"id":1,"op":"ok","allowances":{"epa_tolerance":1e9},"diagnostics":"x","error":{}}\n'
      + '{"id":2,"op":"none","result":{"x":2}}\n', ops);
    assert.deepEqual(Object.keys(lines[0]).sort(), ['engine', 'id', 'op', 'precision', 'result']);
    assert.equal(lines[1].result, undefined);
    assert.equal(lines[1].error.code, 'unsupported');
  });
  test('an engine exception is an error line, not a stop', async () => {
    const ops = { boom: () => { throw new TypeError('inside the engine'); }, ok: (line) => { line.result = {}; } };
    const lines = await runLines('{"id":1,"op":"boom"}\n{"id":2,"op":"ok"}\n', ops);
    assert.equal(lines[0].error.code, 'engine_error');
    assert.ok(lines[1].result);
  });
});

// ---- rigidref-rapier --package: the Rapier packages as installed ------------------------------------

describe('rapier --package', () => {
  const program = fileURLToPath(new URL('../../tools/adapters/js/rapier.mjs', import.meta.url));
  const run = (...args) => spawnSync(process.execPath, [program, ...args], { input: '', encoding: 'utf8' });
  test('the default is rapier2d-compat; a name with or without @dimforge/', () => {
    assert.deepEqual(rapier.parseArguments([]), { package: 'rapier2d-compat' });
    assert.deepEqual(rapier.parseArguments(['--package', 'rapier2d-simd-compat']), { package: 'rapier2d-simd-compat' });
    assert.deepEqual(rapier.parseArguments(['--package=@dimforge/rapier2d-deterministic-compat']),
      { package: 'rapier2d-deterministic-compat' });
  });
  test('an unknown package, a missing value or an unknown option: a clear error, exit 2', () => {
    assert.throws(() => rapier.parseArguments(['--package', 'rapier3d-compat']), rapier.UsageError);
    assert.throws(() => rapier.parseArguments(['--package']), rapier.UsageError);
    assert.throws(() => rapier.parseArguments(['--simd']), rapier.UsageError);
    for (const args of [['--package', 'rapier3d-compat'], ['--package'], ['--simd']]) {
      const r = run(...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^rigidref-rapier: .*\nusage: rigidref-rapier \[--package NAME\]/);
    }
    assert.match(run('--package', 'nope').stderr, /not one of rapier2d-compat, rapier2d-simd-compat, rapier2d-deterministic-compat/);
  });
  test('--help names the option and the packages, exit 0', () => {
    const r = run('--help');
    assert.equal(r.status, 0);
    assert.match(r.stdout, /--package NAME/);
    for (const name of rapier.PACKAGES) assert.ok(r.stdout.includes(name), name);
  });
  test('the engine is package-version, from the package\'s package.json; a reload keeps the package', async () => {
    const expected = { 'rapier2d-compat': '0.21.0', 'rapier2d-simd-compat': '0.19.3', 'rapier2d-deterministic-compat': '0.20.0' };
    try {
      for (const [name, version] of Object.entries(expected)) {
        const first = await rapier.load(name);
        assert.equal(rapier.ENGINE, `${name}-${version}`);
        assert.equal(first.version(), version);
        const again = await rapier.load();  // what the loop calls after a crash
        assert.notEqual(again, first, 'a fresh module instance');
        assert.equal(rapier.ENGINE, `${name}-${version}`);
        assert.deepEqual(result('rapier', { op: 'gjk.distance', a: box(0, 0, 1, 1), b: box(2, 0, 3, 1) }).distance, 1);
      }
    } finally {
      await rapier.load('rapier2d-compat');
    }
  });
});
