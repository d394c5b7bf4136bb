// rigidref-matter: answers eval requests with matter-js 0.20.0 (double
// precision), for `rigidref check`.
//   mass.polygon      Body.create({vertices, density}): body.area, body.mass,
//                     body.inertia; the centroid is Vertices.centre(vertices),
//                     the point Body.setVertices re-centres the body on.
//   gjk.distance      unsupported: matter has no distance query.
//   epa.penetration   Collision.collides (SAT): collision.depth and normal.
//   contact.manifold  Collision.collides: collision.supports, no separations.
//   step.pair         Engine + two bodies, one Engine.update; the allowance
//                     solver_iterations is engine.velocityIterations (see
//                     stepPair: matter's sweeps are Jacobi within a pair).
//   scene.run         the same Engine and bodies, one Engine.update per step;
//                     also the allowance penetration_slop (body.slop).
// Matter's own choices, reported as computed (not corrected):
//   - body.inertia is Body._inertiaScale = 4 times the polygon's moment
//     (Body.setVertices: "Body._inertiaScale * Vertices.inertia(...)";
//     diagnostics.inertia_scale).
//   - bodies are polygons only: Bodies.circle is a regular polygon of
//     10..25 sides (declared in diagnostics.input_changes); no points,
//     segments, capsules or rounded polygons.
//   - Body.setVertices moves a polygon so that its centroid is at the body's
//     position (declared in diagnostics.input_changes).
// Units: matter has no units of its own; the adapter takes 1 length unit =
// 1 m and converts matter's time base (velocities per Body._baseDelta =
// 1000/60 ms, time in ms, gravity.scale), each where it is used below.
import Matter from 'matter-js';
import {
  Unsupported, runAdapter, shapeField, polygonField, stepRequest, sceneRequest, runScene, vec, bodyAfter, polygonChange,
  declareChanges, declareInputChange, diagnostics, polygonDensity, isMain,
} from './lib/adapter_io.mjs';

const { Body, Bodies, Vertices, Collision, Engine, Composite, Resolver, Common } = Matter;
export const ENGINE = 'matter-js-0.20.0';

// Matter's velocities are "per Body._baseDelta" (Body.setVelocity /
// getVelocity scale by body.deltaTime / Body._baseDelta): a velocity of v m/s
// is v * BASE_DELTA_S units per base delta.
const BASE_DELTA_S = Body._baseDelta / 1000;
const toMatterVelocity = (v) => v * BASE_DELTA_S;
const fromMatterVelocity = (v) => v / BASE_DELTA_S;

// ---- shapes ------------------------------------------------------------------------

// A matter body whose polygon lies where it is given: Body.setVertices moves
// the vertices so that their centre is at body.position, so the body is
// placed at that centre (Vertices.centre, the same function).
function polygonBody(vertices, options = {}) {
  const centre = Vertices.centre(vertices.map((p) => ({ x: p.x, y: p.y })));
  const body = Body.create({ ...options, position: centre, vertices: vertices.map((p) => ({ x: p.x, y: p.y })) });
  const used = body.vertices.map((p) => ({ x: p.x, y: p.y }));
  return { body, change: polygonChange(vertices, used, { call: 'Body.setVertices (re-centred and moved back)' }) };
}

function matterBody(s, what) {
  switch (s.kind) {
    case 'polygon':
      if (s.radius > 0) throw new Unsupported(`${what}: matter has no rounded polygons (chamfer replaces corners by polygon arcs)`);
      return polygonBody(s.vertices);
    case 'circle': {
      const body = Bodies.circle(s.center.x, s.center.y, s.radius);
      return { body, change: `Bodies.circle made a regular ${body.vertices.length}-gon of circumradius ${s.radius}` };
    }
    default:
      throw new Unsupported(`${what}: matter has no ${s.kind} shape (bodies are polygons)`);
  }
}

// Collision.collides orders the pair by body id ("collision.bodyA = bodyA.id
// < bodyB.id ? bodyA : bodyB") and turns the normal so that
// normal . (bodyB.position - bodyA.position) < 0 ("ensure normal is facing
// away from bodyA": it points from collision.bodyB into collision.bodyA, the
// direction Resolver.solveVelocity pushes bodyA). Turned here to point from
// a to b.
function collide(line) {
  const a = matterBody(shapeField(line, 'a'), 'a');
  const b = matterBody(shapeField(line, 'b'), 'b');
  const collision = Collision.collides(a.body, b.body);
  const sign = collision && collision.bodyA === a.body ? -1 : 1;
  return { a, b, collision, normal: collision && vec(sign * collision.normal.x, sign * collision.normal.y) };
}

// ---- ops ------------------------------------------------------------------------------

function massPolygon(line) {
  const density = polygonDensity(line);
  const vertices = polygonField(line, 'vertices');
  const centre = Vertices.centre(vertices.map((p) => ({ x: p.x, y: p.y })));
  const body = Body.create({ vertices: vertices.map((p) => ({ x: p.x, y: p.y })), density });
  line.result = { area: body.area, centroid: vec(centre.x, centre.y), mass: body.mass,
    inertia: body.inertia };  // 4 x the moment about the centroid (Body._inertiaScale), as matter uses it
  diagnostics(line).inertia_scale = Body._inertiaScale;
  declareInputChange(line, 'vertices', 'Body.setVertices moves the vertices so that their centroid is at '
    + 'body.position, the origin (area, mass and inertia are computed from the moved vertices)');
}

function gjkDistance() {
  throw new Unsupported('matter has no distance query (Collision.collides is SAT overlap only)');
}

function epaPenetration(line) {
  const { a, b, collision, normal } = collide(line);
  const r = collision ? { intersecting: true, depth: collision.depth, normal } : { intersecting: false, depth: 0 };
  declareChanges(line, a.change, b.change);
  line.result = r;
}

function contactManifold(line) {
  const { a, b, collision, normal } = collide(line);
  // The supports are vertices of one body inside the other; matter keeps no
  // separation per point (the protocol leaves the field out then).
  const r = collision ? { normal, points: collision.supports.slice(0, collision.supportCount).map((p) => ({ point: vec(p.x, p.y) })) }
    : { points: [] };
  declareChanges(line, a.change, b.change);
  line.result = r;
}

// ---- step.pair --------------------------------------------------------------------------

const rotate = (p, angle) => ({ x: Math.cos(angle) * p.x - Math.sin(angle) * p.y, y: Math.sin(angle) * p.x + Math.cos(angle) * p.y });

// A step.pair body. Matter's body.position is the centroid of its vertices
// (Body.setVertices re-centres them), the protocol's position the body
// origin: position = origin + R(angle) c, with c the centroid in the body frame.
function addBody(b, material) {
  const local = b.vertices ?? null;
  const options = { angle: b.angle, isStatic: b.isStatic, density: b.density, ...material };
  let body, c;
  if (local) {
    c = Vertices.centre(local.map((p) => ({ x: p.x, y: p.y })));
    const at = rotate(c, b.angle);
    body = Body.create({ ...options, vertices: local.map((p) => ({ x: p.x, y: p.y })),
      position: { x: b.position.x + at.x, y: b.position.y + at.y } });
  } else {
    c = { x: 0, y: 0 };
    body = Bodies.circle(b.position.x, b.position.y, b.radius, options);
  }
  if (!b.isStatic) {
    // The described body's mass and moment: matter multiplies a polygon's
    // moment by Body._inertiaScale = 4 (Body.setVertices), and its circle is
    // a regular polygon of smaller area; Body.setMass / Body.setInertia set
    // the request's values (m = rho A, I = polar moment about the centroid;
    // circle m = rho pi r^2, I = m r^2 / 2) so that the step, not the mass
    // model, is judged. The collision shape stays matter's.
    if (local) {
      Body.setInertia(body, body.inertia / Body._inertiaScale);
    } else {
      const m = b.density * Math.PI * b.radius * b.radius;
      Body.setMass(body, m);
      Body.setInertia(body, m * b.radius * b.radius / 2);
    }
    Body.setVelocity(body, { x: toMatterVelocity(b.velocity.x), y: toMatterVelocity(b.velocity.y) });
    Body.setAngularVelocity(body, toMatterVelocity(b.angularVelocity));
  }
  const change = local
    ? 'vertices: Body.setVertices keeps the polygon about its centroid c (the vertices minus c, turned by the angle, '
      + 'placed at the position plus R(angle) c): the same body up to rounding in double'
    : `radius: Bodies.circle made a regular ${body.vertices.length}-gon of circumradius ${b.radius}`;
  return { body, c, change };
}

// Engine.gravity {x, y, scale}: the acceleration is gravity * scale in
// length units per ms^2 (Engine._bodiesApplyGravity adds mass * gravity *
// scale to the force, Body.update multiplies force / mass by deltaTime^2
// in ms). g m/s^2 is g * 1e-6 m/ms^2: scale 1e-6 (matter's default 0.001
// is its pixel-scale gravity).
const GRAVITY_SCALE = 1e-6;
const makeEngine = (req) => Engine.create({ gravity: { x: req.gravity.x, y: req.gravity.y, scale: GRAVITY_SCALE },
  enableSleeping: false });

// The body's origin and centre-of-mass velocity in the protocol's units.
function after({ body, c }) {
  const at = rotate(c, body.angle);
  const v = Body.getVelocity(body);
  return bodyAfter({ x: body.position.x - at.x, y: body.position.y - at.y }, body.angle,
    { x: fromMatterVelocity(v.x), y: fromMatterVelocity(v.y) }, fromMatterVelocity(Body.getAngularVelocity(body)));
}

function engineSettings(engine, body) {
  return { positionIterations: engine.positionIterations,
    velocityIterations: engine.velocityIterations,
    velocityIterationsMeaning: 'Resolver.solveVelocity sweeps: Gauss-Seidel across pairs, Jacobi within a pair '
      + '(velocities read once per pair, each contact\'s impulse scaled by contactShare = 1 / contactCount); '
      + 'with one pair every sweep is a damped Jacobi sweep over its contacts',
    warmStarting: 'on (Resolver.preSolveVelocity applies the cached contact impulses); none in this one step: a new '
      + 'pair has no cached impulses',
    constraintIterations: engine.constraintIterations, enableSleeping: false, gravityScale: GRAVITY_SCALE,
    frictionAir: '0 (matter default 0.01: the described world has no drag)', frictionStatic: body.frictionStatic,
    slop: body.slop, inertiaScale: Body._inertiaScale, restingThresh: Resolver._restingThresh,
    restingThreshTangent: Resolver._restingThreshTangent, positionDampen: Resolver._positionDampen,
    positionWarming: Resolver._positionWarming, frictionNormalMultiplier: Resolver._frictionNormalMultiplier,
    baseDelta_ms: Common._baseDelta };
}

function stepPair(line) {
  const req = stepRequest(line);
  const engine = makeEngine(req);
  // Same values on both bodies: matter combines friction by min,
  // restitution by max (Pair.update). frictionAir (default 0.01) is drag the
  // described world does not have: 0.
  const material = { friction: req.friction, restitution: req.restitution, frictionAir: 0 };
  const one = addBody(req.body1, material);
  const two = addBody(req.body2, material);
  Composite.add(engine.world, [one.body, two.body]);
  Engine.update(engine, req.dt * 1000);  // matter's time is in ms
  diagnostics(line).engine_settings = { ...engineSettings(engine, one.body),
    contacts: 'not reported: contact.normalImpulse is a warm-start cache, cleared on fast contacts (Resolver.solveVelocity)' };
  // No restitution_threshold: Resolver._restingThresh (2 length units per
  // base delta, 120 m/s) does not switch restitution off. Below it
  // Resolver.solveVelocity still applies (1 + restitution) times the approach
  // each iteration, only with the accumulated impulse clamped (Catto's
  // method); above it the impulse is unclamped. Declaring it as a threshold
  // would excuse every bounce in the case set.
  // solver_iterations: engine.velocityIterations (default 4), the number of
  // Resolver.solveVelocity calls in the step (Engine.update). Each sweeps the
  // pairs in order (Gauss-Seidel across pairs), but within a pair it reads
  // the bodies' velocities once and scales each contact's impulse by
  // contactShare = 1 / contactCount: a damped Jacobi sweep over the pair's
  // contacts, not projected Gauss-Seidel (engine_settings says so; how the
  // judge takes the count is the judge's).
  line.allowances = { solver_iterations: engine.velocityIterations };
  line.result = { body1_after: after(one), body2_after: after(two) };
  declareChanges(line, one.change, two.change, ['body1', 'body2']);
}

// ---- scene.run ---------------------------------------------------------------------------

// The bodies of step.pair, one Engine.update(dt in ms) per step. Matter's
// static friction threshold is friction * frictionStatic (Pair.update takes
// the larger frictionStatic, Resolver.solveVelocity multiplies): frictionStatic
// 1 makes static and kinetic friction both `friction`, where step.pair keeps
// matter's default 0.5. Resolver.solvePosition pushes apart only the overlap
// beyond body.slop (times min(1, dt / base delta)): that much stays at rest,
// in length units = m, the allowance penetration_slop.
function sceneRun(line) {
  const req = sceneRequest(line);
  const engine = makeEngine(req);
  const material = { friction: req.friction, restitution: req.restitution, frictionAir: 0, frictionStatic: 1 };
  const added = req.bodies.map((b) => addBody(b, material));
  Composite.add(engine.world, added.map(({ body }) => body));
  line.result = runScene(req, () => Engine.update(engine, req.dt * 1000), (i) => after(added[i]), line);
  const body = added[0].body;
  diagnostics(line).engine_settings = { ...engineSettings(engine, body),
    warmStarting: 'on (Resolver.preSolveVelocity applies the cached contact impulses of the step before)',
    slopDampen: 'min(1, dt / baseDelta) (Resolver.solvePosition)',
    frictionModel: 'not Coulomb: a contact sticks while its tangential speed is within friction x frictionStatic x '
      + 'frictionNormalMultiplier x min(overlap + normal speed, 1); sliding, its impulse is friction per step '
      + '(Resolver.solveVelocity), not friction x the normal impulse',
    mixFriction: 'min(mu1, mu2)', mixFrictionStatic: 'max', mixRestitution: 'max(e1, e2)', mixSlop: 'max' };
  line.allowances = { solver_iterations: engine.velocityIterations, penetration_slop: body.slop };
  added.forEach(({ change }, i) => declareInputChange(line, 'bodies', change && `bodies[${i}]: ${change}`));
}

export const ops = {
  'mass.polygon': massPolygon,
  'gjk.distance': gjkDistance,
  'epa.penetration': epaPenetration,
  'contact.manifold': contactManifold,
  'step.pair': stepPair,
  'scene.run': sceneRun,
};

export { toMatterVelocity, fromMatterVelocity, addBody };

if (isMain(import.meta.url)) {
  await runAdapter({ engine: ENGINE, precision: 'double', ops });
}
