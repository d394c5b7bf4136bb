// rigidref-planck: answers eval requests with planck 1.5.0 (a JavaScript port
// of Box2D 2.x, in double precision), for `rigidref check`.
//   mass.polygon      new PolygonShape(vertices) + computeMass; the inertia
//                     about the centroid as Body.resetMassData forms it,
//                     I - m |c|^2 (planck.mjs, Body.resetMassData).
//   gjk.distance      Distance() on two DistanceProxy.setVertices(vertices,
//                     count, radius) with useRadii: the shapes as given
//                     (polygon, rounded polygon, circle, point, segment,
//                     capsule): Box2D's GJK takes a core plus a radius.
//   epa.penetration   the Collide* function the contact factory would pick;
//                     depth and normal from the world manifold's deepest
//                     point, separations taken with the shapes' own radii
//                     (0 for polygons), as rigidref-box2d does.
//   contact.manifold  the same Collide* call and getWorldManifold.
//   step.pair         World + two bodies, one step with the World's default
//                     iterations (8 velocity, 3 position); the allowance
//                     solver_iterations is the velocity count (see stepPair).
//   scene.run         the same World and bodies, world.step(dt) per step;
//                     also the allowance penetration_slop (Settings.linearSlop).
// planck's PolygonShape changes its input silently (PolygonShape._set): it
// keeps the first Settings.maxPolygonVertices = 12 vertices, welds those
// closer than 0.5 linearSlop, takes the convex hull, and replaces a polygon
// with fewer than 3 distinct hull points by the box [-1, 1]^2. The answer
// reports what was used (diagnostics.vertices_used) and declares the change
// (diagnostics.input_changes). The result holds the op's fields only;
// iterations, manifold_points and engine_settings are diagnostics.
import * as planck from 'planck';
import {
  Unsupported, runAdapter, shapeField, polygonField, stepRequest, sceneRequest, runScene, vec, bodyAfter, polygonChange,
  declareChanges, declareInputChange, diagnostics, polygonDensity, isMain,
} from './lib/adapter_io.mjs';

const { Settings, Vec2, PolygonShape, CircleShape, EdgeShape, Transform } = planck;

export const ENGINE = 'planck-1.5.0';
const identity = Transform.identity();

// ---- shapes ----------------------------------------------------------------------

const toVec2 = (p) => Vec2(p.x, p.y);
const fromVec2 = (v) => ({ x: v.x, y: v.y });

// A planck polygon from the vertices as given, and what _set did to them.
function planckPolygon(vertices) {
  const shape = new PolygonShape(vertices.map(toVec2));
  const used = shape.m_vertices.slice(0, shape.m_count).map(fromVec2);
  return { shape, used, change: describeChange(vertices, used) };
}

const describeChange = (given, used) => polygonChange(given, used,
  { call: 'PolygonShape._set', maxVertices: Settings.maxPolygonVertices, limitName: 'Settings.maxPolygonVertices' });

// The collision shape planck builds for a protocol shape. Polygons and edges
// carry planck's skin (Settings.polygonRadius, "should not be modified"), so
// planck has no rounded polygon and no capsule for contacts.
function collisionShape(s, what) {
  switch (s.kind) {
    case 'polygon': {
      if (s.radius > 0) throw new Unsupported(`${what}: planck has no rounded polygons (a polygon's radius is its fixed skin, Settings.polygonRadius)`);
      return { ...planckPolygon(s.vertices), radius: 0 };
    }
    case 'circle':
    case 'point':
      return { shape: new CircleShape(toVec2(s.center), s.radius), radius: s.radius, change: null };
    case 'segment': {
      if (s.radius > 0) throw new Unsupported(`${what}: planck has no capsules (an edge's radius is its fixed skin, Settings.polygonRadius)`);
      return { shape: new EdgeShape(toVec2(s.ends[0]), toVec2(s.ends[1])), radius: 0, change: null };
    }
  }
}

// The core points and radius Box2D's GJK takes for a protocol shape.
function proxyOf(s) {
  const proxy = new planck.DistanceProxy();
  switch (s.kind) {
    case 'polygon': {
      // The polygon as planck stores it (its _set may change it), with the
      // protocol's radius instead of the skin.
      const p = planckPolygon(s.vertices);
      proxy.setVertices(p.shape.m_vertices, p.shape.m_count, s.radius);
      return { proxy, change: p.change };
    }
    case 'circle':
    case 'point': proxy.setVertices([toVec2(s.center)], 1, s.radius); break;
    case 'segment': proxy.setVertices(s.ends.map(toVec2), 2, s.radius); break;
  }
  return { proxy, change: null };
}

// ---- ops ---------------------------------------------------------------------------

function massPolygon(line) {
  const density = polygonDensity(line);
  const vertices = polygonField(line, 'vertices');
  const { shape, used, change } = planckPolygon(vertices);
  const md = { mass: 0, center: Vec2(0, 0), I: 0 };
  shape.computeMass(md, density);
  // computeMass gives the inertia about the shape origin; Body.resetMassData
  // moves it to the centre of mass as I - m |c|^2.
  const inertia = md.I - md.mass * Vec2.dot(md.center, md.center);
  line.result = { area: md.mass / density, centroid: vec(md.center.x, md.center.y), mass: md.mass, inertia };
  diagnostics(line).vertices_used = used.length;
  declareInputChange(line, 'vertices', change);
}

function gjkDistance(line) {
  const a = proxyOf(shapeField(line, 'a'));
  const b = proxyOf(shapeField(line, 'b'));
  const input = new planck.DistanceInput();
  input.proxyA = a.proxy;
  input.proxyB = b.proxy;
  input.useRadii = true;  // distance between the shapes grown by their radii
  const output = new planck.DistanceOutput();
  planck.Distance(output, new planck.SimplexCache(), input);
  const intersecting = output.distance === 0;
  const r = { intersecting, distance: output.distance };
  if (!intersecting) {
    r.point_a = vec(output.pointA.x, output.pointA.y);
    r.point_b = vec(output.pointB.x, output.pointB.y);
  }
  line.result = r;
  diagnostics(line).iterations = output.iterations;
  declareChanges(line, a.change, b.change);
}

// Runs the Collide* function planck's contact factory registers for the
// pair. The factory has one function per unordered pair and, for the other
// order, swaps the fixtures (Contact.create: "s_registers[typeB][typeA]" ->
// new contact with B first); we do the same and flip the normal back so it
// points from a to b.
function collide(sa, sb) {
  const type = (s) => s.shape.getType();
  const table = {
    'circle|circle': planck.CollideCircles,
    'polygon|circle': planck.CollidePolygonCircle,
    'polygon|polygon': planck.CollidePolygons,
    'edge|circle': planck.CollideEdgeCircle,
    'edge|polygon': planck.CollideEdgePolygon,
  };
  let first = sa, second = sb, flipped = false;
  let fn = table[`${type(sa)}|${type(sb)}`];
  if (!fn && table[`${type(sb)}|${type(sa)}`]) {
    fn = table[`${type(sb)}|${type(sa)}`];
    [first, second, flipped] = [sb, sa, true];
  }
  if (!fn) throw new Unsupported(`planck has no contact between a ${type(sa)} and a ${type(sb)} (no Collide* function)`);
  const manifold = new planck.Manifold();
  fn(manifold, first.shape, identity, second.shape, identity);
  // Separations with the protocol's radii (0 for polygons and edges): the
  // geometric surfaces, not planck's skin.
  const wm = manifold.getWorldManifold(null, identity, first.radius, identity, second.radius);
  const sign = flipped ? -1 : 1;
  const pts = [];
  for (let i = 0; i < manifold.pointCount; ++i) {
    pts.push({ point: vec(wm.points[i].x, wm.points[i].y), separation: wm.separations[i] });
  }
  return { count: manifold.pointCount, normal: manifold.pointCount ? vec(sign * wm.normal.x, sign * wm.normal.y) : null, points: pts };
}

// Box2D/planck make manifold points while the separation of the cores is
// below the shapes' total radius: planck's skin, Settings.polygonRadius =
// 2 linearSlop, for each polygon or edge (planck.mjs: PolygonShape/EdgeShape
// constructors set m_radius = SettingsInternal.polygonRadius).
function skinMargin(...shapes) {
  return shapes.reduce((sum, s) => sum + (s.shape.getType() === 'circle' ? 0 : Settings.polygonRadius), 0);
}

function epaPenetration(line) {
  const a = collisionShape(shapeField(line, 'a'), 'a');
  const b = collisionShape(shapeField(line, 'b'), 'b');
  const m = collide(a, b);
  let r;
  if (m.count === 0) {
    r = { intersecting: false, depth: 0 };
  } else {
    const deepest = Math.min(...m.points.map((p) => p.separation));
    const intersecting = deepest <= 0;
    r = { intersecting, depth: intersecting ? -deepest : 0 };
    if (intersecting) r.normal = m.normal;
    diagnostics(line).manifold_points = m.count;
  }
  declareChanges(line, a.change, b.change);
  // CollidePolygons keeps A's face unless B's separates by more than
  // k_tol = 0.1 linearSlop (planck.mjs, CollidePolygons).
  line.allowances = { reference_face_tolerance: 0.1 * Settings.linearSlop };
  line.result = r;
}

function contactManifold(line) {
  const a = collisionShape(shapeField(line, 'a'), 'a');
  const b = collisionShape(shapeField(line, 'b'), 'b');
  const m = collide(a, b);
  const r = m.count ? { normal: m.normal, points: m.points } : { points: [] };
  declareChanges(line, a.change, b.change);
  // getWorldManifold gives the separations of the skinned shapes (the
  // geometric separation less both skins), as Box2D does: polygon_radius.
  line.allowances = { polygon_radius: skinMargin(a, b), reference_face_tolerance: 0.1 * Settings.linearSlop };
  line.result = r;
}

// ---- step.pair -----------------------------------------------------------------------

// The World's settings as planck keeps them (its DEFAULTS, left as they
// are: world.step(dt) without counts takes m_velocityIterations).
// planck's velocity iterations, like Box2D's: each is one sweep of
// sequential impulses over the contacts (ContactConstraint
// .solveVelocityConstraint): per contact the friction impulses point by
// point, then the normal ones, point by point for one point and jointly for
// two (blockSolve: the manifold's 2x2 LCP solved exactly by enumerating its
// cases). So the count is that of projected Gauss-Seidel sweeps, where a
// two-point manifold's normal block is one exact step. A TOI sub-step
// (continuous physics) runs the count again, without warm starting.
function engineSettings(world, scene = false) {
  return { velocityIterations: world.m_velocityIterations,
    velocityIterationsMeaning: 'sweeps of sequential impulses over the contacts; a two-point manifold\'s normal '
      + 'impulses are solved as one block (blockSolve), exactly',
    positionIterations: world.m_positionIterations, warmStarting: world.m_warmStarting,
    warmStartingEffect: scene ? 'each step starts a persisting contact from its impulses of the step before'
      : 'none in this one step: a new contact has no impulses to start from, and a TOI sub-step does not warm start',
    continuousPhysics: world.m_continuousPhysics, subStepping: world.m_subStepping, blockSolve: world.m_blockSolve,
    allowSleep: false, linearSlop: Settings.linearSlop, polygonRadius: Settings.polygonRadius,
    velocityThreshold: Settings.velocityThreshold, baumgarte: Settings.baumgarte,
    maxLinearCorrection: Settings.maxLinearCorrection, maxTranslation: Settings.maxTranslation,
    maxRotation: Settings.maxRotation, mixFriction: 'sqrt(mu1 mu2)', mixRestitution: 'max(e1, e2)',
    // planck's BodyDef defaults, left as they are.
    ...(scene ? { linearDamping: 0, angularDamping: 0 } : {}) };
}

// A World as the request describes it: its gravity, no sleeping, the
// default iterations; every body gets the request's friction and restitution.
function makeWorld(req) {
  return { world: new planck.World({ gravity: Vec2(req.gravity.x, req.gravity.y), allowSleep: false }),
    material: { friction: req.friction, restitution: req.restitution } };
}

const after = (body) => bodyAfter(body.getPosition(), body.getAngle(), body.getLinearVelocity(), body.getAngularVelocity());

// Both fixtures get mu; the contact mixes sqrt(mu mu), which is mu again
// (the square root of a rounded square is the number) unless mu mu
// underflows.
function declareFrictionMix(line, friction) {
  const mixed = Math.sqrt(friction * friction);
  if (mixed !== friction) {
    declareInputChange(line, 'friction', `mixFriction(mu, mu) = sqrt(mu mu) is ${mixed} (mu mu underflows)`);
    line.friction = mixed;
  }
}

// Box2D applies restitution only when the approach speed exceeds
// Settings.velocityThreshold (planck.mjs, ContactSolver: vRel < -velocityThreshold).
const stepAllowances = (world) => ({ restitution_threshold: Settings.velocityThreshold,
  solver_iterations: world.m_velocityIterations });

function stepShape(body) {
  if (body.vertices) {
    const p = planckPolygon(body.vertices);
    return { shape: p.shape, change: p.change };
  }
  return { shape: new CircleShape(Vec2(0, 0), body.radius), change: null };
}

function addBody(world, b, material) {
  const body = world.createBody({ type: b.isStatic ? 'static' : 'dynamic', position: Vec2(b.position.x, b.position.y),
    angle: b.angle });
  const { shape, change } = stepShape(b);
  body.createFixture({ shape, density: b.isStatic ? 0 : b.density, ...material });
  // Velocities after the fixture: createFixture's resetMassData moves the
  // centre of mass and adds w x shift to the linear velocity;
  // setLinearVelocity sets the velocity of the centre of mass (Body.ts:
  // "Set the linear velocity of the center of mass"), the protocol's.
  if (!b.isStatic) {
    body.setLinearVelocity(Vec2(b.velocity.x, b.velocity.y));
    body.setAngularVelocity(b.angularVelocity);
  }
  return { body, change };
}

// The contacts of the step: pre-solve sees the manifold at the start
// positions (point, normal), post-solve the accumulated impulses.
function recordContacts(world, body1) {
  const seen = new Map();
  world.on('pre-solve', (contact) => {
    // The first pre-solve is the discrete solve's, at the start poses; a TOI
    // sub-step's pre-solve (later poses) must not replace it, nor the
    // impulses summed so far.
    if (seen.has(contact)) return;
    const wm = contact.getWorldManifold(null);
    if (!wm) return;
    seen.set(contact, { wm: { normal: fromVec2(wm.normal), points: wm.points.slice(0, wm.pointCount).map(fromVec2) } });
  });
  // post-solve is called once by the discrete solve and again for each TOI
  // sub-step that solves the contact (continuous physics, World.solveTOI):
  // each call reports the impulses of that solve alone, so they are summed
  // (the Box2D adapter does the same); keeping only the last call reported
  // the TOI solve's impulses (often 0) as the step's.
  world.on('post-solve', (contact, impulse) => {
    const entry = seen.get(contact);
    if (!entry) return;
    if (!entry.impulse) entry.impulse = { normal: [0, 0], tangent: [0, 0] };
    impulse.normalImpulses.forEach((j, i) => { entry.impulse.normal[i] += j; });
    impulse.tangentImpulses.forEach((j, i) => { entry.impulse.tangent[i] += j; });
  });
  return () => {
    const contacts = [];
    for (const [contact, { wm, impulse }] of seen) {
      if (!impulse) continue;
      // Box2D's normal points from fixture A to B; the protocol's from body1.
      const sign = contact.getFixtureA().getBody() === body1 ? 1 : -1;
      const n = { x: sign * wm.normal.x, y: sign * wm.normal.y };
      wm.points.forEach((p, i) => {
        // Box2D's friction direction is cross(n, 1) = (n.y, -n.x) = -t for
        // either order of the fixtures (b2ContactSolver), so jt = -tangentImpulse;
        // the normal impulse acts on B along n_AB, i.e. on body2 along n.
        contacts.push({ point: vec(p.x, p.y), normal: vec(n.x, n.y), jn: impulse.normal[i], jt: -impulse.tangent[i] });
      });
    }
    return contacts;
  };
}

function stepPair(line) {
  const req = stepRequest(line);
  const { world, material } = makeWorld(req);
  const one = addBody(world, req.body1, material);
  const two = addBody(world, req.body2, material);
  const contacts = recordContacts(world, one.body);
  world.step(req.dt);  // the World's velocity and position iterations
  diagnostics(line).engine_settings = engineSettings(world);
  line.allowances = stepAllowances(world);
  line.result = { body1_after: after(one.body), body2_after: after(two.body), contacts: contacts() };
  declareChanges(line, one.change && `vertices: ${one.change}`, two.change && `vertices: ${two.change}`, ['body1', 'body2']);
  declareFrictionMix(line, req.friction);
}

// ---- scene.run -------------------------------------------------------------------------

// The bodies of step.pair, world.step(dt) per step. At rest Box2D keeps an
// overlap of up to linearSlop: the position solver pushes apart only what
// is deeper (ContactSolver.solvePositionConstraint: C = baumgarte (s + linearSlop)).
function sceneRun(line) {
  const req = sceneRequest(line);
  const { world, material } = makeWorld(req);
  const added = req.bodies.map((b) => addBody(world, b, material));
  line.result = runScene(req, () => world.step(req.dt), (i) => after(added[i].body), line);
  diagnostics(line).engine_settings = engineSettings(world, true);
  // Polygons carry a skin of polygonRadius: two resting polygons keep a gap
  // of both skins less the slop. polygon_radius is a pair's skins, as for
  // the collision ops: two when the scene has two polygons.
  const polygons = req.bodies.filter((b) => b.vertices !== undefined).length;
  line.allowances = { ...stepAllowances(world), penetration_slop: Settings.linearSlop,
    ...(polygons > 0 && { polygon_radius: Math.min(polygons, 2) * Settings.polygonRadius }) };
  added.forEach(({ change }, i) => declareInputChange(line, 'bodies', change && `bodies[${i}].vertices: ${change}`));
  declareFrictionMix(line, req.friction);
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
  await runAdapter({ engine: ENGINE, precision: 'double', ops });
}
