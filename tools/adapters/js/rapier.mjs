// rigidref-rapier: answers eval requests with Rapier 2D (Rust compiled to
// WebAssembly, f32; its geometry is parry2d), for `rigidref check`.
//   rigidref-rapier [--package NAME] < requests.jsonl > answers.jsonl
// NAME is the npm package under @dimforge/ that answers, each pinned in
// package.json and package-lock.json (the parry2d and rapier2d versions are
// the ones the WebAssembly module names in its panic paths):
//   rapier2d-compat                0.21.0, parry2d 0.31.1 (the default)
//   rapier2d-simd-compat           0.19.3, rapier2d 0.30.1, parry2d 0.25.3;
//                                  its init() warns on stderr ("using
//                                  deprecated parameters ..."): harmless
//   rapier2d-deterministic-compat  0.20.0, rapier2d 0.35, parry2d 0.30.2,
//                                  feature enhanced-determinism
// The answers' engine is NAME-<version> (the version from the package's
// package.json). Every call below exists in all three: the JS APIs differ
// only where unused here (0.19.3's Shape.contactShape has no trailing
// `target` argument, which is not passed), so no op is unsupported by
// version. Their defaults differ (0.19.3: normalizedPredictionDistance
// 0.002, normalizedAllowedLinearError 0.001, contact_erp 0.239; 0.20.0 and
// 0.21.0: 0.02, 0.005, 0.136) and are read from the world, so the
// prediction_distance allowance follows the package; the engine_settings
// texts of step.pair describe 0.21.0. Where the packages' answers differ:
// derivations/engines.md, "Rapier as installed".
//   mass.polygon      ColliderDesc.convexPolyline(vertices).setDensity(d) on a
//                     dynamic body: collider.volume(), collider.mass(),
//                     body.localCom(), body.principalInertia() (the angular
//                     inertia about the centre of mass).
//   gjk.distance      Shape.contactShape with an unbounded prediction: parry's
//                     contact query returns the closest points of separated
//                     shapes (GJK) and a negative distance when they overlap.
//   epa.penetration   Shape.contactShape with prediction 0 (GJK, then EPA):
//                     depth = -distance, normal = normal1 (out of shape a).
//   contact.manifold  world.contactPair after one step of two fixed colliders
//                     (ActiveCollisionTypes.ALL): the narrow phase's manifold.
//   step.pair         World + two bodies, one step; the allowance
//                     solver_iterations is numSolverIterations (see
//                     stepPair: Rapier's solver is not plain sweeps).
//   scene.run         the same World and bodies, world.step() per step; also
//                     the allowance penetration_slop (see sceneRun).
// Polygons go to Rapier as given: convexPolyline "assumes the points form a
// convex polyline" (no hull; its convexity is not checked) and drops
// collinear vertices; diagnostics.vertices_used shows what it kept and
// diagnostics.input_changes declares the change. A capsule is built from its
// midpoint, half length and angle (declared as a change too).
// Shapes: polygons (ConvexPolygon), rounded polygons (RoundConvexPolygon),
// circles and points (Ball), segments (Segment), capsules (Capsule).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Unsupported, runAdapter, shapeField, polygonField, numberField, stepRequest, sceneRequest, runScene, vec, bodyAfter,
  polygonChange, declareChanges, declareInputChange, diagnostics, float32, polygonDensity, isMain,
} from './lib/adapter_io.mjs';

// The packages the adapter runs (--package), the first by default.
export const PACKAGES = ['rapier2d-compat', 'rapier2d-simd-compat', 'rapier2d-deterministic-compat'];
export const DEFAULT_PACKAGE = PACKAGES[0];
const f32 = Math.fround;
// parry's EPA stops when the support point improves the depth by less than
// _eps_tol = DEFAULT_EPSILON * 100 (f32::EPSILON here), absolute (parry
// src/query/epa/epa2.rs, EPA::closest_points).
const PARRY_EPA_TOLERANCE = f32(100 * 2 ** -23);
// parry's GJK (src/query/gjk/gjk.rs, closest_points) stops when the gap
// between its upper and lower bounds on the distance is below
// sqrt(_eps_tol) times the distance, _eps_tol = DEFAULT_EPSILON * 10: a
// relative tolerance of sqrt(10 f32::EPSILON), about 1.1e-3
// (derivations/engines.md, Rapier).
const PARRY_GJK_RELATIVE_TOLERANCE = Math.sqrt(10 * 2 ** -23);

let R = null;
let selected = DEFAULT_PACKAGE;
let instance = 0;
let scratch = null;  // a world for mass properties and the vertices a polygon keeps
// The engine name of the answers: package-version (set by load).
export let ENGINE = null;

// The file URL of a package's ES module entry, and its version from the
// package.json above that entry (the packages export no ./package.json).
function packageEntry(name) {
  const url = import.meta.resolve(`@dimforge/${name}`);
  for (let dir = dirname(fileURLToPath(url)); dir !== dirname(dir); dir = dirname(dir)) {
    let json;
    try {
      json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (json.name === `@dimforge/${name}`) return { url, version: json.version };
  }
  throw new Error(`no package.json of @dimforge/${name} above ${url}`);
}

// Loads the selected package (`name`, default: the one selected before,
// rapier2d-compat at first) and makes a world; called again after a crash.
export async function load(name = selected) {
  if (!PACKAGES.includes(name)) throw new Error(`unknown Rapier package ${name}; one of ${PACKAGES.join(', ')}`);
  if (name !== selected) instance = 0;
  selected = name;
  const { url, version } = packageEntry(name);
  // After the first load, a fresh copy of the module (a query makes another
  // module record): a panic leaves the old WebAssembly instance unusable.
  R = (await import(instance > 0 ? `${url}?instance=${instance}` : url)).default;
  instance += 1;
  await R.init();
  ENGINE = `${name}-${version}`;
  scratch = new R.World({ x: 0, y: 0 });
  return R;
}

// The package the adapter runs, from its command-line arguments:
// { package } or { help: true }; throws UsageError on anything else.
export class UsageError extends Error {}
export const USAGE = `usage: rigidref-rapier [--package NAME] < requests.jsonl > answers.jsonl
  answers eval requests with Rapier 2D from the npm package @dimforge/NAME:
  ${PACKAGES.join(', ')}
  (default ${DEFAULT_PACKAGE}); the answers' engine is NAME-<its version>`;
export function parseArguments(args) {
  let name = DEFAULT_PACKAGE;
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') return { help: true };
    let value;
    if (arg === '--package') {
      if (i + 1 >= args.length) throw new UsageError('--package needs a value');
      value = args[++i];
    } else if (arg.startsWith('--package=')) {
      value = arg.slice('--package='.length);
    } else {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
    }
    value = value.replace(/^@dimforge\//, '');
    if (!PACKAGES.includes(value)) {
      throw new UsageError(`--package ${JSON.stringify(value)}: not one of ${PACKAGES.join(', ')}`);
    }
    name = value;
  }
  return { package: name };
}

// A Rust panic in the module surfaces as a WebAssembly trap (unreachable).
export const isCrash = (e) => e instanceof WebAssembly.RuntimeError;

const flat = (vertices) => new Float32Array(vertices.flatMap((p) => [p.x, p.y]));
const unflat = (array) => Array.from({ length: array.length / 2 }, (_, i) => ({ x: array[2 * i], y: array[2 * i + 1] }));

// The vertices Rapier keeps of a polygon (convexPolyline drops collinear
// ones), read back from a collider of the scratch world.
function polygonKept(vertices) {
  const collider = createCollider(scratch, R.ColliderDesc.convexPolyline(flat(vertices)));
  const used = unflat(collider.vertices());
  scratch.removeCollider(collider, false);
  return { used, change: polygonChange(vertices, used, { call: 'convexPolyline' }) };
}

// world.createCollider, with parry's refusal of a polygon made a clear
// "unsupported": ConvexPolygon::from_convex_polyline returns None for fewer
// than 3 non-collinear vertices (and, in parry2d 0.25.3 of
// rapier2d-simd-compat, for an edge shorter than f32::EPSILON, where
// ccw_face_normal gets no unit normal), and the binding then throws
// "expected instance of ..." on the missing shape.
function createCollider(world, desc, body) {
  try {
    return world.createCollider(desc, body);
  } catch (e) {
    if (/expected instance of/.test(e?.message ?? '')) {
      throw new Unsupported('Rapier refuses this polygon: parry builds no ConvexPolygon from it (fewer than 3 '
        + 'non-collinear vertices, or in parry2d 0.25.3 an edge shorter than f32::EPSILON)');
    }
    throw e;
  }
}

// ---- ops ---------------------------------------------------------------------------

function massPolygon(line) {
  polygonDensity(line);  // "mass" unsupported, density > 0
  const vertices = polygonField(line, 'vertices', float32);
  const density = numberField(line, 'density', 1, float32);
  if (!(density > 0)) throw new Unsupported(`density: ${line.density} is 0 in float`);
  const body = scratch.createRigidBody(R.RigidBodyDesc.dynamic());
  try {
    const collider = createCollider(scratch, R.ColliderDesc.convexPolyline(flat(vertices)).setDensity(density), body);
    // The body sits at the origin unrotated, so its local centre of mass is
    // the polygon's centroid in the input's frame; principalInertia() is the
    // angular inertia about that centre (rigid_body.d.ts).
    const com = body.localCom();
    const used = unflat(collider.vertices());
    line.result = { area: collider.volume(), centroid: vec(com.x, com.y), mass: collider.mass(),
      inertia: body.principalInertia() };
    diagnostics(line).vertices_used = used.length;
    declareInputChange(line, 'vertices', polygonChange(vertices, used, { call: 'convexPolyline' }));
  } finally {
    scratch.removeRigidBody(body);
  }
}

// How a capsule reaches Rapier: Capsule(halfHeight, radius) along its local y
// axis, placed at the midpoint and turned onto the segment; not its two
// endpoints, so declared as an input change.
function capsulePose(s) {
  const [p, q] = s.ends;
  const half = Math.hypot(q.x - p.x, q.y - p.y) / 2;
  const mid = { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
  const angle = Math.atan2(q.y - p.y, q.x - p.x) - Math.PI / 2;
  return { half, mid, angle,
    change: `Capsule(halfHeight ${f32(half)}, radius ${s.radius}) at [${f32(mid.x)}, ${f32(mid.y)}] turned by `
      + `${f32(angle)} rad, not the two endpoints` };
}

// A parry shape and its pose for a protocol shape.
function rapierShape(s) {
  const at = (p, rotation = 0, change = null) => ({ translation: { x: p.x, y: p.y }, rotation, change });
  switch (s.kind) {
    case 'polygon': {
      const { change } = polygonKept(s.vertices);
      const shape = s.radius > 0 ? new R.RoundConvexPolygon(flat(s.vertices), s.radius, true)
        : new R.ConvexPolygon(flat(s.vertices), true);  // true: skip the convex hull, as given
      return { shape, ...at({ x: 0, y: 0 }, 0, change) };
    }
    case 'circle':
    case 'point': return { shape: new R.Ball(s.radius), ...at(s.center) };
    case 'segment': {
      const [p, q] = s.ends;
      if (s.radius === 0) return { shape: new R.Segment({ x: p.x, y: p.y }, { x: q.x, y: q.y }), ...at({ x: 0, y: 0 }) };
      const { half, mid, angle, change } = capsulePose(s);
      return { shape: new R.Capsule(half, s.radius), ...at(mid, angle, change) };
    }
  }
}

function contact(a, b, prediction) {
  return a.shape.contactShape(a.translation, a.rotation, b.shape, b.translation, b.rotation, prediction);
}

function floatShapes(line) {
  return [rapierShape(shapeField(line, 'a', float32)), rapierShape(shapeField(line, 'b', float32))];
}

function gjkDistance(line) {
  const [a, b] = floatShapes(line);
  const c = contact(a, b, Infinity);  // every distance is within an unbounded prediction
  if (!c) throw new Error('contactShape returned no contact with an unbounded prediction');
  const intersecting = c.distance <= 0;
  const r = { intersecting, distance: intersecting ? 0 : c.distance };
  if (!intersecting) {
    r.point_a = vec(c.point1.x, c.point1.y);
    r.point_b = vec(c.point2.x, c.point2.y);
  }
  declareChanges(line, a.change, b.change);
  if (!intersecting) line.allowances = { distance_tolerance: PARRY_GJK_RELATIVE_TOLERANCE * r.distance };
  line.result = r;
}

function epaPenetration(line) {
  const [a, b] = floatShapes(line);
  const c = contact(a, b, 0);
  let r;
  if (!c || c.distance > 0) {
    r = { intersecting: false, depth: 0 };
  } else {
    // normal1 points out of the first shape, towards the second: a to b.
    r = { intersecting: true, depth: -c.distance, normal: vec(c.normal1.x, c.normal1.y) };
  }
  declareChanges(line, a.change, b.change);
  line.allowances = { epa_tolerance: PARRY_EPA_TOLERANCE };
  line.result = r;
}

// ---- contact.manifold ------------------------------------------------------------------

// The collider Rapier builds for a protocol shape, fixed in the world
// (no body: the shape's coordinates are world coordinates).
function colliderDesc(s) {
  switch (s.kind) {
    case 'polygon':
      return s.radius > 0 ? R.ColliderDesc.roundConvexPolyline(flat(s.vertices), s.radius) : R.ColliderDesc.convexPolyline(flat(s.vertices));
    case 'circle':
    case 'point': return R.ColliderDesc.ball(s.radius).setTranslation(s.center.x, s.center.y);
    case 'segment': {
      const [p, q] = s.ends;
      if (s.radius === 0) return R.ColliderDesc.segment({ x: p.x, y: p.y }, { x: q.x, y: q.y });
      const { half, mid, angle } = capsulePose(s);
      return R.ColliderDesc.capsule(half, s.radius).setTranslation(mid.x, mid.y).setRotation(angle);
    }
  }
}

function contactManifold(line) {
  const sa = shapeField(line, 'a', float32), sb = shapeField(line, 'b', float32);
  const changes = [sa, sb].map((s) => (s.kind === 'polygon' ? polygonKept(s.vertices).change
    : s.kind === 'segment' && s.radius > 0 ? capsulePose(s).change : null));
  const world = new R.World({ x: 0, y: 0 });
  try {
    // Each shape on its own kinematic body at the origin: the narrow phase
    // skips pairs without a moving body and fixed-fixed pairs (measured:
    // no manifold), kinematic pairs it builds once ActiveCollisionTypes.ALL
    // asks for them (collider.d.ts). Nothing moves in the step.
    const make = (s) => {
      const desc = colliderDesc(s).setActiveCollisionTypes(R.ActiveCollisionTypes.ALL);
      return createCollider(world, desc, world.createRigidBody(R.RigidBodyDesc.kinematicPositionBased()));
    };
    const ca = make(sa), cb = make(sb);
    world.step();
    const points = [];
    let normal = null;
    world.contactPair(ca, cb, (manifold, flipped) => {
      // With flipped, the manifold's first shape is b: its normal (out of the
      // first shape) and its first contact points belong to b.
      const n = manifold.normal();
      const sign = flipped ? -1 : 1;
      normal = vec(sign * n.x, sign * n.y);
      for (let i = 0; i < manifold.numContacts(); ++i) {
        // Local points of the first shape, in its collider's frame (the
        // body is at the origin, the collider at its translation and rotation).
        const first = flipped ? cb : ca;
        const local = manifold.localContactPoint1(i);
        const t = first.translation(), rot = first.rotation();
        const p = { x: t.x + Math.cos(rot) * local.x - Math.sin(rot) * local.y, y: t.y + Math.sin(rot) * local.x + Math.cos(rot) * local.y };
        points.push({ point: vec(p.x, p.y), separation: manifold.contactDist(i) });
      }
    });
    const r = points.length ? { normal, points } : { points: [] };
    declareChanges(line, changes[0], changes[1]);
    // The narrow phase keeps contact points up to the prediction distance,
    // normalizedPredictionDistance * lengthUnit (IntegrationParameters).
    line.allowances = { prediction_distance: world.integrationParameters.normalizedPredictionDistance * world.integrationParameters.lengthUnit };
    line.result = r;
  } finally {
    world.free();
  }
}

// ---- step.pair ---------------------------------------------------------------------------

// Rapier's solver (rapier src/dynamics/solver/velocity_solver.rs,
// solve_constraints) is not a run of plain Gauss-Seidel sweeps: the step is
// cut into numSolverIterations substeps of dt / n, and each substep adds
// gravity, warm starts from the impulses so far, makes
// numInternalPgsIterations projected Gauss-Seidel sweeps with a soft bias
// (the contacts are springs: contact_erp, natural frequency and damping),
// integrates the positions, and makes num_internal_stabilization_iterations
// sweeps without bias (Rust default 1; the binding does not expose it).
// The allowance solver_iterations is numSolverIterations x
// numInternalPgsIterations, the biased sweeps in the step (4 x 1 by
// default, = numSolverIterations); engine_settings says the rest.
function integrationSettings(world, scene = false) {
  const p = world.integrationParameters;
  return { dt: p.dt, numSolverIterations: p.numSolverIterations, numInternalPgsIterations: p.numInternalPgsIterations,
    numInternalStabilizationIterations: '1 (Rust default; not exposed by the JS binding)',
    solverIterationsMeaning: 'numSolverIterations substeps of dt / n; in each, after warm starting, '
      + 'numInternalPgsIterations projected Gauss-Seidel sweeps with the soft (spring) bias, the position '
      + 'integration, then the stabilization sweeps without bias; solver_iterations = numSolverIterations x '
      + 'numInternalPgsIterations, the biased sweeps',
    warmStarting: 'on (warmstart_coefficient 1, Rust default; not exposed): each substep starts from the impulses '
      + 'of the one before; a new contact starts from none',
    normalizedAllowedLinearError: p.normalizedAllowedLinearError, normalizedPredictionDistance: p.normalizedPredictionDistance,
    contact_erp: p.contact_erp, lengthUnit: p.lengthUnit, maxCcdSubsteps: p.maxCcdSubsteps, canSleep: false,
    substeps: 'numSolverIterations substeps of dt / n (velocities and positions integrated in each)',
    frictionCombineRule: 'Average', restitutionCombineRule: 'Average',
    restitution: 'applied on a contact\'s first step only (SolverContact::is_bouncy)',
    // RigidBodyDesc's defaults, left as they are.
    ...(scene ? { linearDamping: 0, angularDamping: 0, ccdEnabled: false,
      allowedLinearError: p.normalizedAllowedLinearError * p.lengthUnit,
      predictionDistance: p.normalizedPredictionDistance * p.lengthUnit,
      positionIterations: 'none as such: the stabilization sweeps (without bias) after each substep' } : {}) };
}

// A World as the request describes it: its gravity and time step; every
// body gets the request's friction and restitution (Average of equal values).
function makeWorld(req) {
  const world = new R.World({ x: req.gravity.x, y: req.gravity.y });
  world.timestep = req.dt;
  return { world, material: { friction: req.friction, restitution: req.restitution } };
}

const after = (body) => bodyAfter(body.translation(), body.rotation(), body.linvel(), body.angvel());

function addBody(world, b, material) {
  const desc = (b.isStatic ? R.RigidBodyDesc.fixed() : R.RigidBodyDesc.dynamic())
    .setTranslation(b.position.x, b.position.y).setRotation(b.angle).setCanSleep(false);
  const body = world.createRigidBody(desc);
  const shape = b.vertices ? R.ColliderDesc.convexPolyline(flat(b.vertices)) : R.ColliderDesc.ball(b.radius);
  const collider = createCollider(world, shape.setDensity(b.density).setFriction(material.friction)
    .setRestitution(material.restitution), body);
  // After the collider (which sets the mass properties): Rapier's linvel is
  // the velocity of the centre of mass, its translation the body origin
  // (RigidBody::velocity_at_point uses the world centre of mass).
  if (!b.isStatic) {
    body.setLinvel({ x: b.velocity.x, y: b.velocity.y }, true);
    body.setAngvel(b.angularVelocity, true);
  }
  const change = b.vertices ? polygonChange(b.vertices, unflat(collider.vertices()), { call: 'convexPolyline' }) : null;
  return { body, collider, change };
}

function stepPair(line) {
  const req = stepRequest(line, float32);
  const { world, material } = makeWorld(req);
  try {
    const one = addBody(world, req.body1, material);
    const two = addBody(world, req.body2, material);
    const start = { x: req.body1.position.x, y: req.body1.position.y, angle: req.body1.angle };
    world.step();
    const contacts = [];
    world.contactPair(one.collider, two.collider, (manifold, flipped) => {
      // manifold.normal() points out of the manifold's first collider; with
      // flipped that is body2's.
      const sign = flipped ? -1 : 1;
      const n = manifold.normal();
      const normal = { x: sign * n.x, y: sign * n.y };
      for (let i = 0; i < manifold.numContacts(); ++i) {
        const jn = manifold.contactImpulse(i);
        if (jn === 0 && manifold.contactTangentImpulse(i) === 0) continue;  // not in the solve (beyond the margin)
        const local = flipped ? manifold.localContactPoint2(i) : manifold.localContactPoint1(i);
        const c = Math.cos(start.angle), s = Math.sin(start.angle);
        // local is on body1's surface; the protocol's point is midway between
        // the surfaces: half the signed distance along n (D-DYNENG-3).
        const half = manifold.contactDist(i) / 2;
        // Rapier's friction direction for body1 is orthonormal_basis(-n) =
        // (n.y, -n.x) = -t, and body2 takes the opposite impulse: +jt t on
        // body2 (contact_with_coulomb_friction.rs, tangents1). Flipped swaps
        // the bodies and the normal, and t with it: the sign stays.
        contacts.push({ point: vec(start.x + c * local.x - s * local.y + half * normal.x,
                              start.y + s * local.x + c * local.y + half * normal.y),
          normal: vec(normal.x, normal.y), jn, jt: manifold.contactTangentImpulse(i) });
      }
    });
    diagnostics(line).engine_settings = integrationSettings(world);
    const params = world.integrationParameters;
    line.allowances = { solver_iterations: params.numSolverIterations * params.numInternalPgsIterations };
    line.result = { body1_after: after(one.body), body2_after: after(two.body), contacts };
    declareChanges(line, one.change && `vertices: ${one.change}`, two.change && `vertices: ${two.change}`, ['body1', 'body2']);
  } finally {
    world.free();
  }
}

// ---- scene.run ---------------------------------------------------------------------------

// The bodies of step.pair, one world.step() per step. The allowed linear
// error (normalizedAllowedLinearError x lengthUnit) is the "amount of
// penetration the engine won't attempt to correct" (IntegrationParameters'
// documentation): the allowance penetration_slop. The narrow phase also
// makes contacts of shapes up to the prediction distance apart
// (engine_settings).
function sceneRun(line) {
  const req = sceneRequest(line, float32);
  const { world, material } = makeWorld(req);
  try {
    const added = req.bodies.map((b) => addBody(world, b, material));
    line.result = runScene(req, () => world.step(), (i) => after(added[i].body), line);
    const params = world.integrationParameters;
    diagnostics(line).engine_settings = integrationSettings(world, true);
    line.allowances = { solver_iterations: params.numSolverIterations * params.numInternalPgsIterations,
      penetration_slop: params.normalizedAllowedLinearError * params.lengthUnit };
    added.forEach(({ change }, i) => declareInputChange(line, 'bodies', change && `bodies[${i}].vertices: ${change}`));
  } finally {
    world.free();
  }
}

export const ops = {
  'mass.polygon': massPolygon,
  'gjk.distance': gjkDistance,
  'epa.penetration': epaPenetration,
  'contact.manifold': contactManifold,
  'step.pair': stepPair,
  'scene.run': sceneRun,
};

if (isMain(import.meta.url)) {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`rigidref-rapier: ${e.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  await load(options.package);
  await runAdapter({ engine: ENGINE, precision: 'float', ops, isCrash, restart: load });
}
