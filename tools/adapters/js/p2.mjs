// rigidref-p2: answers eval requests with p2-es 1.2.3 (the maintained ES
// port of p2.js), for `rigidref check`. p2 keeps every vector in a
// Float32Array by default ("Float32Array is used if it is available",
// P2_ARRAY_TYPE in p2-es.js): vertices, positions, velocities, normals are
// floats, scalars doubles. The adapter keeps that default, declares
// precision float and rounds the inputs to float as p2 stores them.
//   mass.polygon      new Convex({vertices}): .area, .centerOfMass and
//                     computeMomentOfInertia() (per unit mass, about the
//                     shape's local origin), moved to the centroid.
//   gjk.distance      unsupported: p2 has no distance query.
//   epa.penetration   the Narrowphase function of the pair (convexConvex for
//                     two polygons, a SAT and clipping); depth = the deepest
//                     contact's penetration along normalA.
//   contact.manifold  the same Narrowphase call: its ContactEquations.
//   step.pair         World + two bodies, one world.step(dt); the allowance
//                     solver_iterations is world.solver.iterations (see
//                     stepPair: p2's equations are soft).
//   scene.run         the same World and bodies, world.step(dt) per step;
//                     penetration_slop is contactSkinSize (see sceneRun).
// p2 takes convex polygons in counter-clockwise order only (Convex throws
// "Convex vertices must be given in counter-clockwise winding"): a
// clockwise polygon is answered unsupported. Shapes: Convex, Circle,
// Particle (a point), Line (a segment) and Capsule; no rounded polygons. A
// Line or Capsule is built from its length, midpoint and angle, not its
// endpoints: declared (diagnostics.input_changes).
// p2 treats a body's origin as its centre of mass (Body.updateMassProperties
// uses the shape's moment about its local origin as "Icm"). In step.pair the
// adapter therefore gives p2 the polygon about its centroid g (vertices
// v - g, rounded to float as p2 stores them) and the body at the centre of
// mass p + R(a) g, and reports the origin back as c' - R(a') g (declared as
// an input change: the same body up to rounding).
import * as p2 from 'p2-es';
import {
  Unsupported, runAdapter, shapeField, polygonField, stepRequest, sceneRequest, runScene, vec, bodyAfter, tangentOf,
  declareInputChange, diagnostics, float32, polygonDensity, isMain,
} from './lib/adapter_io.mjs';

const { Convex, Circle, Particle, Line, Capsule, Body, Shape, World, Material, ContactMaterial } = p2;
export const ENGINE = 'p2-es-1.2.3';

// ---- shapes ------------------------------------------------------------------------

function convex(vertices) {
  try {
    return new Convex({ vertices: vertices.map((p) => [p.x, p.y]) });
  } catch (e) {
    if (/counter-clockwise/.test(e.message)) throw new Unsupported(`p2 refuses this polygon: ${e.message}`);
    throw e;
  }
}

// A p2 shape and the pose to place it at (Line and Capsule lie along their
// local x axis, centred on their position).
function p2Shape(s, what) {
  switch (s.kind) {
    case 'polygon':
      if (s.radius > 0) throw new Unsupported(`${what}: p2 has no rounded polygons`);
      return { shape: convex(s.vertices), position: [0, 0], angle: 0 };
    case 'circle': return { shape: new Circle({ radius: s.radius }), position: [s.center.x, s.center.y], angle: 0 };
    case 'point': return { shape: new Particle(), position: [s.center.x, s.center.y], angle: 0 };
    case 'segment': {
      const [p, q] = s.ends;
      const length = Math.hypot(q.x - p.x, q.y - p.y);
      const pose = { position: [(p.x + q.x) / 2, (p.y + q.y) / 2], angle: Math.atan2(q.y - p.y, q.x - p.x) };
      return { shape: s.radius > 0 ? new Capsule({ length, radius: s.radius }) : new Line({ length }), ...pose };
    }
  }
}

// How a segment reaches p2: a Line or Capsule of its length, centred at its
// midpoint and turned by its angle, not its two endpoints.
function segmentChange(s) {
  if (s.kind !== 'segment') return null;
  const [p, q] = s.ends;
  return `${s.radius > 0 ? 'Capsule' : 'Line'}(length ${Math.hypot(q.x - p.x, q.y - p.y)}) at `
    + `[${(p.x + q.x) / 2}, ${(p.y + q.y) / 2}] turned by ${Math.atan2(q.y - p.y, q.x - p.x)} rad, not the two endpoints`;
}

function floatShapes(line) {
  const sa = shapeField(line, 'a', float32), sb = shapeField(line, 'b', float32);
  declareInputChange(line, 'a', segmentChange(sa));
  declareInputChange(line, 'b', segmentChange(sb));
  return [sa, sb];
}

// Narrowphase functions that are stubs in p2-es 1.2.3 ("@todo", return 0).
const STUBS = new Set([Shape.CONVEX | Shape.LINE, Shape.LINE | Shape.BOX, Shape.LINE | Shape.CAPSULE, Shape.LINE]);

// Runs the pair through p2's Narrowphase as World.runNarrowphase does: the
// resolver of (typeA | typeB), called with the lower shape type first. The
// contact equations' normalA points out of their bodyA; the answer's normal
// points from a to b.
function collide(sa, sb) {
  const a = p2Shape(sa, 'a'), b = p2Shape(sb, 'b');
  const key = a.shape.type | b.shape.type;
  if (STUBS.has(key)) throw new Unsupported('p2-es has no contact for this pair: its Narrowphase function is a stub that returns 0 (@todo)');
  const np = new p2.Narrowphase();
  const resolver = np.narrowphases[key];
  if (!resolver) throw new Unsupported('p2-es has no Narrowphase function for this pair');
  const bodyA = new Body(), bodyB = new Body();
  np.enableFriction = false;
  // createContactEquation reads the pair's material (World.runNarrowphase sets it).
  np.currentContactMaterial = new ContactMaterial(new Material(), new Material());
  if (a.shape.type <= b.shape.type) resolver.call(np, bodyA, a.shape, a.position, a.angle, bodyB, b.shape, b.position, b.angle, false);
  else resolver.call(np, bodyB, b.shape, b.position, b.angle, bodyA, a.shape, a.position, a.angle, false);
  return np.contactEquations.map((eq) => {
    const sign = eq.bodyA === bodyA ? 1 : -1;
    const n = { x: sign * eq.normalA[0], y: sign * eq.normalA[1] };
    // contactPointA/B are relative to their body's position (both at the origin here).
    const pa = eq.bodyA === bodyA ? eq.contactPointA : eq.contactPointB;
    const pb = eq.bodyA === bodyA ? eq.contactPointB : eq.contactPointA;
    return { normal: n, point: { x: pa[0], y: pa[1] }, separation: n.x * (pb[0] - pa[0]) + n.y * (pb[1] - pa[1]) };
  });
}

// ---- ops -------------------------------------------------------------------------------

function massPolygon(line) {
  const density = polygonDensity(line);  // p2's scalars are doubles: the density as given
  const vertices = polygonField(line, 'vertices', float32);
  const shape = convex(vertices);
  // p2 has no density: a user sets body.mass; this is the mass they would set.
  const mass = density * shape.area;
  const c = shape.centerOfMass;
  // computeMomentOfInertia() is per unit mass about the shape's local origin
  // (the body's origin for a shape at [0, 0]); the centroid's by the
  // parallel-axis theorem, with p2's own centre of mass.
  const inertia = mass * (shape.computeMomentOfInertia() - (c[0] * c[0] + c[1] * c[1]));
  line.result = { area: shape.area, centroid: vec(c[0], c[1]), mass, inertia };
}

function gjkDistance() {
  throw new Unsupported('p2 has no distance query (its Narrowphase only makes contacts)');
}

function epaPenetration(line) {
  const contacts = collide(...floatShapes(line));
  if (contacts.length === 0) {
    line.result = { intersecting: false, depth: 0 };
    return;
  }
  const deepest = contacts.reduce((d, c) => (c.separation < d.separation ? c : d));
  const intersecting = deepest.separation <= 0;
  line.result = { intersecting, depth: intersecting ? -deepest.separation : 0 };
  if (intersecting) line.result.normal = vec(deepest.normal.x, deepest.normal.y);
  diagnostics(line).manifold_points = contacts.length;
}

function contactManifold(line) {
  const contacts = collide(...floatShapes(line));
  line.result = contacts.length === 0 ? { points: [] }
    : { normal: vec(contacts[0].normal.x, contacts[0].normal.y),
      points: contacts.map((c) => ({ point: vec(c.point.x, c.point.y), separation: c.separation })) };
}

// ---- step.pair ---------------------------------------------------------------------------

// p2's bodies lose velocity to Body.damping and angularDamping (default 0.1
// each, applied every step); the described world has no drag, so both are 0.
const NO_DRAG = { damping: 0, angularDamping: 0 };

// The protocol's body origin p and centroid g (body frame) against p2's body,
// whose origin must be the centre of mass: p2 gets the vertices v - g and the
// position c = p + R(a) g; velocities are the centre of mass's in both.
function addBody(world, b, material) {
  let shape, g = { x: 0, y: 0 };
  if (b.vertices) {
    const given = convex(b.vertices);
    g = { x: given.centerOfMass[0], y: given.centerOfMass[1] };
    shape = convex(b.vertices.map((p) => ({ x: p.x - g.x, y: p.y - g.y })));
  } else {
    shape = new Circle({ radius: b.radius });
  }
  shape.material = material;
  const at = rotate(g, b.angle);
  const body = new Body({
    type: b.isStatic ? Body.STATIC : Body.DYNAMIC,
    // p2 has no density: the mass a user would set, density x p2's area.
    mass: b.isStatic ? 0 : b.density * shape.area,
    position: [b.position.x + at.x, b.position.y + at.y], angle: b.angle,
    // p2's body.velocity is the velocity of body.position, its centre of
    // mass (see above): the protocol's centre-of-mass velocity as it is.
    velocity: [b.velocity.x, b.velocity.y], angularVelocity: b.angularVelocity, ...NO_DRAG,
  });
  body.addShape(shape);
  world.addBody(body);
  const change = b.vertices && (g.x !== 0 || g.y !== 0)
    ? `vertices: p2 takes the body origin as the centre of mass: the polygon went in about its centroid g = [${g.x}, `
      + `${g.y}] (vertices minus g, rounded to float as p2 stores them) and the body at the position plus R(angle) g; `
      + 'the same body up to rounding'
    : null;
  return { body, g, change };
}

const rotate = (p, angle) => ({ x: Math.cos(angle) * p.x - Math.sin(angle) * p.y, y: Math.sin(angle) * p.x + Math.cos(angle) * p.y });

// p2's solver (GSSolver.solve) sweeps the equations (contacts and friction)
// in Gauss-Seidel order up to solver.iterations times, stopping early once
// the summed change of the multipliers in a sweep is below tolerance times
// the number of equations (usedIterations counts the sweeps made). The
// equations are soft (SPOOK: stiffness and relaxation regularise each one),
// not the hard complementarity of projected Gauss-Seidel; the allowance
// solver_iterations is the configured count, not the sweeps made (which is
// at most it), and every solve starts from zero multipliers: no warm
// starting.
function engineSettings(world, contactMaterial, scene = false) {
  return { solverIterations: world.solver.iterations, solverUsedIterations: world.solver.usedIterations,
    solverIterationsMeaning: 'Gauss-Seidel sweeps over the soft (SPOOK) contact and friction equations, at most '
      + 'solverIterations, fewer when a sweep changes the multipliers by less than solverTolerance times their number',
    warmStarting: 'off (GSSolver.solve sets every lambda to 0)', solverTolerance: world.solver.tolerance,
    frictionIterations: world.solver.frictionIterations, sleepMode: 'NO_SLEEPING',
    stiffness: contactMaterial.stiffness, relaxation: contactMaterial.relaxation,
    frictionStiffness: contactMaterial.frictionStiffness, frictionRelaxation: contactMaterial.frictionRelaxation,
    enableFrictionReduction: world.narrowphase.enableFrictionReduction,
    useWorldGravityAsFrictionGravity: world.useWorldGravityAsFrictionGravity, frictionGravity: world.frictionGravity,
    friction: 'bounded by mu * frictionGravity * reduced mass (Narrowphase.slipForce), not by mu * jn',
    damping: '0 (p2 default 0.1: the described world has no drag)', angularDamping: '0 (p2 default 0.1)',
    centreOfMass: 'the body origin (p2 does not move it to the polygon centroid)',
    ...(scene ? { positionIterations: 'none: p2 has no position solver; the SPOOK contact equations (stiffness, '
      + 'relaxation) push overlap apart within the velocity solve',
    contactSkinSize: contactMaterial.contactSkinSize,
    contactSkinSizeMeaning: 'the offset of every contact equation (ContactEquation.computeB: Gq = n . (xj + rj - xi '
      + '- ri) + offset): the solver drives the overlap to this depth, not to 0', allowSleep: false,
    restitutionOnFirstImpact: 'ContactEquation applies restitution only on a pair\'s first impact' } : {}) };
}

// A World as the request describes it: its gravity, no sleeping, one
// material whose contact material holds the request's friction and
// restitution (p2 takes the pair's ContactMaterial as it is: no mixing).
function makeWorld(req) {
  const world = new World({ gravity: [req.gravity.x, req.gravity.y] });
  world.sleepMode = World.NO_SLEEPING;
  const material = new Material();
  const contactMaterial = new ContactMaterial(material, material, { friction: req.friction, restitution: req.restitution });
  world.addContactMaterial(contactMaterial);
  return { world, material, contactMaterial };
}

// The body's origin (its centre of mass less R(angle) g) and velocities.
function after({ body, g }) {
  const at = rotate(g, body.angle);
  return bodyAfter({ x: body.position[0] - at.x, y: body.position[1] - at.y }, body.angle,
    { x: body.velocity[0], y: body.velocity[1] }, body.angularVelocity);
}

function stepPair(line) {
  const req = stepRequest(line, float32);
  const { world, material, contactMaterial } = makeWorld(req);
  const one = addBody(world, req.body1, material);
  const two = addBody(world, req.body2, material);
  // The narrowphase runs before the step integrates: contact points are
  // relative to the bodies' positions at the start.
  const start = new Map([one.body, two.body].map((body) => [body, [body.position[0], body.position[1]]]));
  world.step(req.dt);
  diagnostics(line).engine_settings = engineSettings(world, contactMaterial);
  line.allowances = { solver_iterations: world.solver.iterations };
  line.result = { body1_after: after(one), body2_after: after(two), contacts: stepContacts(world, one.body, start, req.dt) };
  declareInputChange(line, 'body1', one.change);
  declareInputChange(line, 'body2', two.change);
}

// ---- scene.run ---------------------------------------------------------------------------

// The bodies of step.pair, one world.step(dt) (a single internal step) per
// step. p2 has no slop setting, but each contact equation carries the
// ContactMaterial's contactSkinSize (default 0.005) as an offset, so a body
// at rest settles that deep into another (measured: a 1x1 box on the
// ground, 0.005004): that is the allowance penetration_slop.
function sceneRun(line) {
  const req = sceneRequest(line, float32);
  const { world, material, contactMaterial } = makeWorld(req);
  const added = req.bodies.map((b) => addBody(world, b, material));
  line.result = runScene(req, () => world.step(req.dt), (i) => after(added[i]), line);
  diagnostics(line).engine_settings = engineSettings(world, contactMaterial, true);
  line.allowances = { solver_iterations: world.solver.iterations, penetration_slop: contactMaterial.contactSkinSize };
  added.forEach(({ change }, i) => declareInputChange(line, 'bodies', change && `bodies[${i}].${change}`));
}

// The step's equations. Equation.multiplier is lambda / dt (GSSolver: "eq.multiplier
// = eq.lambda * invDt"), a force: the impulse is multiplier * dt. A contact
// equation pushes bodyB along normalA; a friction equation pushes bodyB along
// t_p2 = rotate90cw(normalA) = -t. Friction is one averaged equation per
// manifold by default (enableFrictionReduction), not one per point, so the
// impulses are reported per manifold, as Chipmunk's per arbiter: one entry
// with all its "points", jn the sum of its contact equations' impulses and
// jt its friction equation's (the cone |jt| <= mu jn is then the manifold's).
function stepContacts(world, body1, start, dt) {
  const at = (eq) => vec(start.get(eq.bodyA)[0] + eq.contactPointA[0], start.get(eq.bodyA)[1] + eq.contactPointA[1]);
  const np = world.narrowphase;
  if (np.contactEquations.length === 0) return [];
  const first = np.contactEquations[0];
  const sign = first.bodyA === body1 ? 1 : -1;
  const n = { x: sign * first.normalA[0], y: sign * first.normalA[1] };
  let jn = 0;
  for (const eq of np.contactEquations) jn += eq.multiplier * dt;
  let jt = 0;
  for (const eq of np.frictionEquations) {
    // t_p2 = (n_A.y, -n_A.x); with bodyA = body2 the protocol's n and t both
    // flip and the impulse on body2 is minus bodyB's: jt = -lambda either way.
    const s2 = eq.bodyA === body1 ? 1 : -1;
    const t = tangentOf(n);
    jt += s2 * (eq.t[0] * t.x + eq.t[1] * t.y) * eq.multiplier * dt;
  }
  return [{ points: np.contactEquations.map(at), normal: vec(n.x, n.y), jn, jt }];
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
  await runAdapter({ engine: ENGINE, precision: 'float', ops });
}
