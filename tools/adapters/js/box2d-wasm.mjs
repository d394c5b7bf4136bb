// rigidref-box2d-wasm: answers eval requests with box2d-wasm 7.0.0 (Box2D
// v2.4.1 compiled to WebAssembly, float), for `rigidref check`.
//   mass.polygon      b2PolygonShape.Set + ComputeMass; the inertia about the
//                     centroid as b2Body::ResetMassData forms it, I - m |c|^2,
//                     in float.
//   gjk.distance      unsupported: the bindings (Box2D.idl) expose no
//                     b2Distance / b2DistanceProxy.
//   epa.penetration   the b2Collide* function of the pair (b2CollidePolygons
//                     for two polygons); depth and normal from the world
//                     manifold's deepest point, separations with radius 0, as
//                     rigidref-box2d does.
//   contact.manifold  the same b2Collide* call and b2WorldManifold.
//   step.pair         b2World + two bodies, one Step(dt, 8, 3); the allowance
//                     solver_iterations is the velocity count (see stepPair).
//   scene.run         the same b2World and bodies, Step(dt, 8, 3) per step;
//                     also the allowance penetration_slop (b2_linearSlop).
// The module is built without assertions (NDEBUG): where Debian's Box2D
// aborts (rigidref-box2d, D-ENGINE-3), b2PolygonShape::Set here goes on
// silently: it reads at most b2_maxPolygonVertices = 8 vertices, welds those
// closer than 0.5 b2_linearSlop, takes the convex hull, and replaces a
// polygon with fewer than 3 hull points by the box [-1, 1]^2 (b2_polygon_shape.cpp,
// the branch after b2Assert(false)). The answer reports what was used
// (diagnostics.vertices_used) and declares the change
// (diagnostics.input_changes). A trap or abort of the module is answered
// "crashed" and the module is instantiated again for the next case.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  Unsupported, runAdapter, shapeField, polygonField, numberField, stepRequest, sceneRequest, runScene, vec, bodyAfter,
  polygonChange, declareChanges, declareInputChange, diagnostics, float32, polygonDensity, isMain,
} from './lib/adapter_io.mjs';

export const ENGINE = 'box2d-wasm-7.0.0';
const f32 = Math.fround;  // Box2D's own float arithmetic (constants, products); inputs go through float32

// Box2D 2.4.1 constants (b2_common.h / b2_settings.h), in float as Box2D has them.
const B2_LINEAR_SLOP = f32(0.005);
const B2_POLYGON_RADIUS = f32(2 * B2_LINEAR_SLOP);
const B2_MAX_POLYGON_VERTICES = 8;
// b2World::Step has no default iteration counts; these are the counts the
// Box2D manual suggests ("8 for velocity and 3 for position") and its testbed uses.
const VELOCITY_ITERATIONS = 8;
const POSITION_ITERATIONS = 3;

// ---- the module ------------------------------------------------------------------

const require = createRequire(import.meta.url);
// The UMD build: the ES build reads __dirname, which ES modules lack in Node.
const modulePath = require.resolve('box2d-wasm/dist/umd/Box2D.js');
const factory = require(modulePath);
// Node's fetch cannot load a file path: hand the module its bytes.
const wasmBinary = readFileSync(modulePath.replace(/\.js$/, '.wasm'));

let B = null;
export async function load() {
  B = await factory({ wasmBinary });
  return B;
}

// An abort (Emscripten's abort() throws a RuntimeError) or a trap
// (unreachable, out-of-bounds access).
const isCrash = (e) => e instanceof WebAssembly.RuntimeError || /abort/i.test(String(e?.message ?? e));

// Everything allocated in the module for one case, freed at its end.
function scope() {
  const owned = [];
  const own = (obj) => (owned.push(obj), obj);
  return { own, vec2: (x, y) => own(new B.b2Vec2(x, y)), free: () => owned.forEach((o) => B.destroy(o)) };
}

const fromVec2 = (v) => ({ x: v.get_x(), y: v.get_y() });

// ---- shapes ------------------------------------------------------------------------

function box2dPolygon(s, vertices) {
  const [array, destroyArray] = B.tuplesToVec2Array(vertices.map((p) => [p.x, p.y]));
  const shape = s.own(new B.b2PolygonShape());
  try {
    shape.Set(array, vertices.length);
  } finally {
    destroyArray();
  }
  const used = [];
  for (let i = 0; i < shape.get_m_count(); ++i) used.push(fromVec2(shape.get_m_vertices(i)));
  return { shape, used, change: describeChange(vertices, used) };
}

const describeChange = (given, used) => polygonChange(given, used,
  { call: 'b2PolygonShape::Set', maxVertices: B2_MAX_POLYGON_VERTICES, limitName: 'b2_maxPolygonVertices, its assertion compiled out' });

// Box2D 2.4's shapes: polygons and edges carry the skin b2_polygonRadius
// ("For polygonal shapes this must be b2_polygonRadius. There is no support
// for making rounded polygons", b2_shape.h); so no rounded polygon, no capsule.
function collisionShape(s, shape, what) {
  switch (shape.kind) {
    case 'polygon': {
      if (shape.radius > 0) throw new Unsupported(`${what}: Box2D 2.4 has no rounded polygons (b2Shape::m_radius must be b2_polygonRadius for polygons)`);
      return { ...box2dPolygon(s, shape.vertices), type: 'polygon', radius: 0 };
    }
    case 'circle':
    case 'point': {
      const circle = s.own(new B.b2CircleShape());
      circle.set_m_p(s.vec2(shape.center.x, shape.center.y));
      circle.set_m_radius(shape.radius);
      return { shape: circle, type: 'circle', radius: shape.radius, change: null };
    }
    case 'segment': {
      if (shape.radius > 0) throw new Unsupported(`${what}: Box2D 2.4 has no capsules (an edge's m_radius is b2_polygonRadius)`);
      const edge = s.own(new B.b2EdgeShape());
      edge.SetTwoSided(s.vec2(shape.ends[0].x, shape.ends[0].y), s.vec2(shape.ends[1].x, shape.ends[1].y));
      return { shape: edge, type: 'edge', radius: 0, change: null };
    }
  }
}

// The b2Collide* function b2Contact::Create registers for the pair; for the
// other order it swaps the fixtures (b2_contact.cpp: "s_registers[typeB][typeA]
// ... create(fixtureB, indexB, fixtureA, indexA)"). We swap the same way and
// flip the normal back so it points from a to b.
function collide(s, sa, sb) {
  const table = {
    'circle|circle': B.b2CollideCircles,
    'polygon|circle': B.b2CollidePolygonAndCircle,
    'polygon|polygon': B.b2CollidePolygons,
    'edge|circle': B.b2CollideEdgeAndCircle,
    'edge|polygon': B.b2CollideEdgeAndPolygon,
  };
  let first = sa, second = sb, flipped = false;
  let fn = table[`${sa.type}|${sb.type}`];
  if (!fn && table[`${sb.type}|${sa.type}`]) {
    fn = table[`${sb.type}|${sa.type}`];
    [first, second, flipped] = [sb, sa, true];
  }
  if (!fn) throw new Unsupported(`Box2D has no contact between a ${sa.type} and a ${sb.type} (no b2Collide* function)`);
  const identity = s.own(new B.b2Transform());
  identity.SetIdentity();
  const manifold = s.own(new B.b2Manifold());
  fn(manifold, first.shape, identity, second.shape, identity);
  const count = manifold.get_pointCount();
  const wm = s.own(new B.b2WorldManifold());
  // Separations with the protocol's radii (0 for polygons and edges): the
  // geometric surfaces, not the skin.
  wm.Initialize(manifold, identity, first.radius, identity, second.radius);
  const sign = flipped ? -1 : 1;
  const points = [];
  for (let i = 0; i < count; ++i) {
    const p = wm.get_points(i);
    points.push({ point: vec(p.get_x(), p.get_y()), separation: wm.get_separations(i) });
  }
  const n = wm.get_normal();
  return { count, normal: count ? vec(sign * n.get_x(), sign * n.get_y()) : null, points };
}

function floatShapes(line, s) {
  return [collisionShape(s, shapeField(line, 'a', float32), 'a'), collisionShape(s, shapeField(line, 'b', float32), 'b')];
}

// ---- ops -------------------------------------------------------------------------------

function withScope(op) {
  return (line) => {
    const s = scope();
    try {
      op(line, s);
    } finally {
      try {
        s.free();
      } catch {
        // the module trapped: the next case gets a fresh one
      }
    }
  };
}

function massPolygon(line, s) {
  polygonDensity(line);  // "mass" unsupported, density > 0
  const vertices = polygonField(line, 'vertices', float32);
  const density = numberField(line, 'density', 1, float32);
  if (!(density > 0)) throw new Unsupported(`density: ${line.density} is 0 in float`);
  const { shape, used, change } = box2dPolygon(s, vertices);
  const md = s.own(new B.b2MassData());
  shape.ComputeMass(md, density);
  const mass = md.get_mass(), c = fromVec2(md.get_center()), I = md.get_I();
  // b2Body::ResetMassData: m_I -= m_mass * b2Dot(localCenter, localCenter), in float.
  const inertia = f32(I - f32(mass * f32(f32(c.x * c.x) + f32(c.y * c.y))));
  line.result = { area: f32(mass / density), centroid: vec(c.x, c.y), mass, inertia };
  diagnostics(line).vertices_used = used.length;
  declareInputChange(line, 'vertices', change);
}

function gjkDistance() {
  throw new Unsupported('box2d-wasm does not bind b2Distance or b2DistanceProxy (Box2D.idl); b2TestOverlap only '
    + 'answers overlap of the shapes grown by their skin');
}

function epaPenetration(line, s) {
  const [a, b] = floatShapes(line, s);
  const m = collide(s, a, b);
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
  // b2CollidePolygons keeps A's face unless B's separates by more than
  // k_tol = 0.1 b2_linearSlop (b2_collide_polygon.cpp).
  line.allowances = { reference_face_tolerance: f32(0.1 * B2_LINEAR_SLOP) };
  line.result = r;
}

// b2Collide* make manifold points while the separation is below the total
// radius: b2_polygonRadius for each polygon or edge (b2_collide_polygon.cpp,
// totalRadius = polyA->m_radius + polyB->m_radius).
const skinMargin = (...shapes) => shapes.reduce((sum, x) => sum + (x.type === 'circle' ? 0 : B2_POLYGON_RADIUS), 0);

function contactManifold(line, s) {
  const [a, b] = floatShapes(line, s);
  const m = collide(s, a, b);
  const r = m.count ? { normal: m.normal, points: m.points } : { points: [] };
  declareChanges(line, a.change, b.change);
  // b2WorldManifold gives the separations of the skinned shapes (the
  // geometric separation less both skins), as in rigidref-box2d: polygon_radius.
  line.allowances = { polygon_radius: skinMargin(a, b), reference_face_tolerance: f32(0.1 * B2_LINEAR_SLOP) };
  line.result = r;
}

// ---- step.pair -------------------------------------------------------------------------

function addBody(s, world, b, material) {
  const def = s.own(new B.b2BodyDef());
  def.set_type(b.isStatic ? B.b2_staticBody : B.b2_dynamicBody);
  def.set_position(s.vec2(b.position.x, b.position.y));
  def.set_angle(b.angle);
  const body = world.CreateBody(def);
  let shape, change = null;
  if (b.vertices) ({ shape, change } = box2dPolygon(s, b.vertices));
  else {
    shape = s.own(new B.b2CircleShape());
    shape.set_m_radius(b.radius);
  }
  const fixture = s.own(new B.b2FixtureDef());
  fixture.set_shape(shape);
  fixture.set_density(b.isStatic ? 0 : b.density);
  fixture.set_friction(material.friction);
  fixture.set_restitution(material.restitution);
  body.CreateFixture(fixture);
  // After the fixture: CreateFixture's ResetMassData moves the centre of mass
  // and adds w x shift to the linear velocity; SetLinearVelocity sets "the
  // linear velocity of the center of mass" (b2_body.h), the protocol's.
  if (!b.isStatic) {
    body.SetLinearVelocity(s.vec2(b.velocity.x, b.velocity.y));
    body.SetAngularVelocity(b.angularVelocity);
  }
  return { body, change, restitutionThreshold: fixture.get_restitutionThreshold() };
}

// PreSolve sees the manifold at the start positions, PostSolve the impulses.
function recordContacts(s, world, body1) {
  const seen = new Map();
  const listener = s.own(new B.JSContactListener());
  listener.BeginContact = () => {};
  listener.EndContact = () => {};
  listener.PreSolve = (contactPtr) => {
    // The first PreSolve is the discrete solve's, at the start poses; a TOI
    // sub-step's (later poses) must not replace it nor the impulses so far.
    if (seen.has(contactPtr)) return;
    const contact = B.wrapPointer(contactPtr, B.b2Contact);
    const wm = new B.b2WorldManifold();
    contact.GetWorldManifold(wm);
    const count = contact.GetManifold().get_pointCount();
    const points = [];
    for (let i = 0; i < count; ++i) points.push(fromVec2(wm.get_points(i)));
    seen.set(contactPtr, { sign: contact.GetFixtureA().GetBody().ptr === body1.ptr ? 1 : -1, normal: fromVec2(wm.get_normal()), points });
    B.destroy(wm);
  };
  listener.PostSolve = (contactPtr, impulsePtr) => {
    const impulse = B.wrapPointer(impulsePtr, B.b2ContactImpulse);
    const entry = seen.get(contactPtr);
    if (!entry) return;
    // PostSolve comes once from the discrete solve and again from each TOI
    // sub-step that solves this contact (b2World::SolveTOI), each with that
    // solve's impulses alone: summed, as the C++ Box2D adapter does.
    const add = (sum, get) => entry.points.map((_, i) => (sum ? sum[i] : 0) + get(i));
    entry.normalImpulses = add(entry.normalImpulses, (i) => impulse.get_normalImpulses(i));
    entry.tangentImpulses = add(entry.tangentImpulses, (i) => impulse.get_tangentImpulses(i));
  };
  world.SetContactListener(listener);
  return () => {
    const contacts = [];
    for (const entry of seen.values()) {
      if (!entry.normalImpulses) continue;
      // b2WorldManifold's normal points from fixture A to B: the protocol's
      // from body1. Box2D's friction direction is b2Cross(normal, 1) =
      // (n.y, -n.x) = -t for either order of the fixtures (b2_contact_solver.cpp),
      // so jt = -tangentImpulse.
      const n = { x: entry.sign * entry.normal.x, y: entry.sign * entry.normal.y };
      entry.points.forEach((p, i) => contacts.push({ point: vec(p.x, p.y), normal: vec(n.x, n.y),
        jn: entry.normalImpulses[i], jt: -entry.tangentImpulses[i] }));
    }
    return contacts;
  };
}

// A b2World as the request describes it: its gravity, no sleeping; every
// body gets the request's friction and restitution.
function makeWorld(s, req) {
  const world = new B.b2World(s.vec2(req.gravity.x, req.gravity.y));
  world.SetAllowSleeping(false);
  return { world, material: { friction: req.friction, restitution: req.restitution } };
}

const after = (body) => bodyAfter(fromVec2(body.GetPosition()), body.GetAngle(), fromVec2(body.GetLinearVelocity()),
  body.GetAngularVelocity());

function engineSettings(world, restitutionThreshold, scene = false) {
  return { velocityIterations: VELOCITY_ITERATIONS,
    velocityIterationsMeaning: 'sweeps of sequential impulses over the contacts; a two-point manifold\'s normal '
      + 'impulses are solved as one block (g_blockSolve, default true, not bound), exactly',
    positionIterations: POSITION_ITERATIONS, allowSleeping: false, warmStarting: world.GetWarmStarting(),
    warmStartingEffect: scene ? 'each step starts a persisting contact from its impulses of the step before'
      : 'none in this one step: a new contact has no impulses to start from, and a TOI sub-step does not warm start',
    continuousPhysics: world.GetContinuousPhysics(), subStepping: world.GetSubStepping(),
    linearSlop: B2_LINEAR_SLOP, polygonRadius: B2_POLYGON_RADIUS, restitutionThreshold,
    frictionMixing: 'sqrt(mu1 mu2)', restitutionMixing: 'max(e1, e2)',
    // b2BodyDef's defaults, left as they are.
    ...(scene ? { linearDamping: 0, angularDamping: 0 } : {}) };
}

// Box2D 2.4.1 applies restitution only above b2FixtureDef::restitutionThreshold
// (default 1 * b2_lengthUnitsPerMeter m/s; b2_contact_solver.cpp: vRel < -threshold).
const stepAllowances = (restitutionThreshold) => ({ restitution_threshold: restitutionThreshold,
  solver_iterations: VELOCITY_ITERATIONS });

// b2MixFriction(mu, mu) = sqrt(mu mu) in float: mu again (the square root of
// a rounded square is the number) unless mu mu underflows.
function declareFrictionMix(line, friction) {
  const mixed = f32(Math.sqrt(f32(friction * friction)));
  if (mixed !== friction) {
    declareInputChange(line, 'friction', `b2MixFriction(mu, mu) = sqrt(mu mu) in float is ${mixed} (mu mu underflows)`);
    line.friction = mixed;
  }
}

// Box2D's velocity iterations: each is one sweep of sequential impulses over
// the contacts (b2ContactSolver::SolveVelocityConstraints): per contact the
// friction impulses point by point, then the normal ones, point by point for
// one point and jointly for two (g_blockSolve, default true in
// b2_contact_solver.cpp, not bound: the manifold's 2x2 LCP solved exactly by
// enumerating its cases). So VELOCITY_ITERATIONS counts projected
// Gauss-Seidel sweeps, where a two-point manifold's normal block is one exact
// step. A TOI sub-step (continuous physics) runs the count again, without
// warm starting.
function stepPair(line, s) {
  const req = stepRequest(line, float32);
  const { world, material } = makeWorld(s, req);
  try {
    const one = addBody(s, world, req.body1, material);
    const two = addBody(s, world, req.body2, material);
    const contacts = recordContacts(s, world, one.body);
    world.Step(req.dt, VELOCITY_ITERATIONS, POSITION_ITERATIONS);
    diagnostics(line).engine_settings = engineSettings(world, one.restitutionThreshold);
    line.allowances = stepAllowances(one.restitutionThreshold);
    line.result = { body1_after: after(one.body), body2_after: after(two.body), contacts: contacts() };
    declareChanges(line, one.change && `vertices: ${one.change}`, two.change && `vertices: ${two.change}`, ['body1', 'body2']);
    declareFrictionMix(line, req.friction);
  } finally {
    B.destroy(world);
  }
}

// ---- scene.run ---------------------------------------------------------------------------

// The bodies of step.pair, one Step per step. At rest Box2D keeps an
// overlap of up to b2_linearSlop: the position solver pushes apart only
// what is deeper (b2ContactSolver::SolvePositionConstraints: C = baumgarte (s + linearSlop)).
function sceneRun(line, s) {
  const req = sceneRequest(line, float32);
  const { world, material } = makeWorld(s, req);
  try {
    const added = req.bodies.map((b) => addBody(s, world, b, material));
    line.result = runScene(req, () => world.Step(req.dt, VELOCITY_ITERATIONS, POSITION_ITERATIONS),
      (i) => after(added[i].body), line);
    const threshold = added[0].restitutionThreshold;
    diagnostics(line).engine_settings = engineSettings(world, threshold, true);
    // Polygons carry a skin of b2_polygonRadius: polygon_radius is a pair's
    // skins, as for the collision ops (two when the scene has two polygons).
    const polygons = req.bodies.filter((b) => b.vertices !== undefined).length;
    line.allowances = { ...stepAllowances(threshold), penetration_slop: B2_LINEAR_SLOP,
      ...(polygons > 0 && { polygon_radius: f32(Math.min(polygons, 2) * B2_POLYGON_RADIUS) }) };
    added.forEach(({ change }, i) => declareInputChange(line, 'bodies', change && `bodies[${i}].vertices: ${change}`));
    declareFrictionMix(line, req.friction);
  } finally {
    B.destroy(world);
  }
}

export const ops = {
  'mass.polygon': withScope(massPolygon),
  'gjk.distance': gjkDistance,
  'epa.penetration': withScope(epaPenetration),
  'contact.manifold': withScope(contactManifold),
  'step.pair': withScope(stepPair),
  'scene.run': withScope(sceneRun),
};

export { isCrash };

if (isMain(import.meta.url)) {
  await load();
  await runAdapter({ engine: ENGINE, precision: 'float', ops, isCrash, restart: load });
}
