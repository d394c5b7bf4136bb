// The shared loop of the JavaScript engine adapters, the counterpart of
// reference/include/rigidref/protocol/adapter_io.hpp: read eval request
// lines on stdin, let the engine answer the ops it has, write one answer
// line per request on stdout, in order (docs/eval-protocol.md, section 4:
// answer lines; the shapes, contact.manifold and step.pair are specified
// there too). An answer line is the request's own fields, unchanged except
// for rounding the inputs to the engine's precision, plus only:
//   engine, precision   set by runAdapter;
//   result              ONLY the op's result fields (any other key fails the
//                       case in check), or error {code, message};
//   allowances          optional {name: number};
//   diagnostics         optional, free-form, ignored by the judge: everything
//                       else an adapter reports (vertices used, iterations,
//                       engine settings, ...), and in input_changes
//                       {"<input field>": "<what and why>"} every change the
//                       engine made to an input beyond rounding
//                       (declareInputChange); an undeclared change fails.
//
// Error codes written here:
//   unsupported    the engine does not take this case (check: skipped)
//   invalid_input  the request itself is malformed (not a valid case)
//   engine_error   the engine threw on a valid case (check: failed)
//   crashed        the WebAssembly module aborted or trapped (check: failed);
//                  the adapter re-instantiates the module for the next case
import { fstatSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

// The engine does not take this case; `message` says why.
export class Unsupported extends Error {}

// The request is malformed (a missing field, a non-number, ...).
export class InvalidInput extends Error {}

// ---- diagnostics -----------------------------------------------------------------

// The line's diagnostics object (made on first use).
export function diagnostics(line) {
  if (line.diagnostics === null || typeof line.diagnostics !== 'object' || Array.isArray(line.diagnostics)) {
    line.diagnostics = {};
  }
  return line.diagnostics;
}

// Declares that the engine used input `field` (a top-level field of the
// request: "vertices", "a", "body1", ...) changed beyond rounding, and why;
// a second declaration for the field is appended. `reason` null: nothing.
export function declareInputChange(line, field, reason) {
  if (!reason) return;
  const d = diagnostics(line);
  if (d.input_changes === undefined) d.input_changes = {};
  d.input_changes[field] = d.input_changes[field] ? `${d.input_changes[field]}; ${reason}` : reason;
}

// ---- reading requests ---------------------------------------------------------

export function number(value, what) {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  throw new InvalidInput(`${what}: expected a finite number, got ${JSON.stringify(value)}`);
}

export function optionalNumber(value, fallback, what) {
  return value === undefined ? fallback : number(value, what);
}

// x rounded to float (what a float engine is given). A finite x beyond
// float's range would become infinite (and null in JSON): the engine cannot
// take that case.
export function float32(x, what = 'a number') {
  const f = Math.fround(x);
  if (!Number.isFinite(f) && Number.isFinite(x)) {
    throw new Unsupported(`${what}: ${x} is beyond float's range (the engine computes in float)`);
  }
  return f;
}

// The density of a mass.polygon request (default 1, finite and > 0 as eval
// requires). A request by total "mass" is unsupported: the adapters set a
// density.
export function polygonDensity(line) {
  if (line.mass !== undefined) throw new Unsupported('this adapter takes "density", not the total "mass"');
  const density = optionalNumber(line.density, 1, 'density');
  if (!(density > 0)) throw new InvalidInput('density: must be > 0');
  return density;
}

export function point(value, what) {
  if (!Array.isArray(value) || value.length !== 2) throw new InvalidInput(`${what}: expected [x, y]`);
  return { x: number(value[0], what), y: number(value[1], what) };
}

export function points(list, what) {
  if (!Array.isArray(list)) throw new InvalidInput(`${what}: expected a list of [x, y]`);
  return list.map((p, i) => point(p, `${what}[${i}]`));
}

const pointJson = (p) => [p.x, p.y];
export const pointsJson = (list) => list.map(pointJson);

// A collision shape of the protocol, as a tagged object:
//   { kind: 'polygon', vertices, radius }   convex polygon, rounded when radius > 0
//   { kind: 'circle', center, radius }      a point when radius is 0
//   { kind: 'point', center }
//   { kind: 'segment', ends: [p, q], radius }  a capsule when radius > 0
export function parseShape(json, what) {
  if (Array.isArray(json)) return { kind: 'polygon', vertices: points(json, what), radius: 0 };
  if (json === null || typeof json !== 'object') throw new InvalidInput(`${what}: expected a shape`);
  const radius = optionalNumber(json.radius, 0, `${what}.radius`);
  if (radius < 0) throw new InvalidInput(`${what}.radius: must be >= 0`);
  if ('vertices' in json) return { kind: 'polygon', vertices: points(json.vertices, `${what}.vertices`), radius };
  if ('center' in json) return { kind: 'circle', center: point(json.center, `${what}.center`), radius };
  if ('point' in json) return { kind: 'point', center: point(json.point, `${what}.point`), radius: 0 };
  if ('segment' in json) {
    const ends = points(json.segment, `${what}.segment`);
    if (ends.length !== 2) throw new InvalidInput(`${what}.segment: expected two endpoints`);
    if (ends[0].x === ends[1].x && ends[0].y === ends[1].y) throw new InvalidInput(`${what}.segment: endpoints must differ`);
    return { kind: 'segment', ends, radius };
  }
  throw new InvalidInput(`${what}: expected a polygon, {vertices, radius}, {center, radius}, {point} or {segment, radius}`);
}

// The shape as protocol JSON again, in the form it was given (`original`,
// whose other fields are kept), with the values the engine used.
export function shapeJson(shape, original) {
  const withRadius = (out) => (original.radius !== undefined ? { ...out, radius: shape.radius } : out);
  switch (shape.kind) {
    case 'polygon':
      return Array.isArray(original) ? pointsJson(shape.vertices) : withRadius({ ...original, vertices: pointsJson(shape.vertices) });
    case 'circle': return withRadius({ ...original, center: pointJson(shape.center) });
    case 'point': return { ...original, point: pointJson(shape.center) };
    case 'segment': return withRadius({ ...original, segment: pointsJson(shape.ends) });
  }
  throw new Error(`unknown shape kind ${shape.kind}`);
}

// Every coordinate and radius through `round(x, what)` (float32 for a float
// engine); `what` names the shape in round's errors.
export function roundShape(shape, round, what = 'shape') {
  const p = (q) => ({ x: round(q.x, what), y: round(q.y, what) });
  switch (shape.kind) {
    case 'polygon': return { ...shape, vertices: shape.vertices.map(p), radius: round(shape.radius, `${what}.radius`) };
    case 'circle':
    case 'point': return { ...shape, center: p(shape.center), radius: round(shape.radius, `${what}.radius`) };
    case 'segment': return { ...shape, ends: shape.ends.map(p), radius: round(shape.radius, `${what}.radius`) };
  }
  throw new Error(`unknown shape kind ${shape.kind}`);
}

const identity = (x) => x;

// Reads shape `field` of the line; for a float engine (`round` = float32)
// rewrites the line's field to the values the engine really uses.
export function shapeField(line, field, round = identity) {
  const shape = roundShape(parseShape(line[field], field), round, field);
  if (round !== identity) line[field] = shapeJson(shape, line[field]);
  return shape;
}

// The polygon `field` (a list of [x, y]) of the line, rounded as above.
export function polygonField(line, field, round = identity) {
  const vertices = points(line[field], field).map((q) => roundPoint(q, round, field));
  if (round !== identity) line[field] = pointsJson(vertices);
  return vertices;
}

// A number field with a default, rounded and rewritten like shapeField
// (only where the request gives it: an answer line adds no inputs).
export function numberField(line, field, fallback, round = identity) {
  const value = round(optionalNumber(line[field], fallback, field), field);
  if (round !== identity && line[field] !== undefined) line[field] = value;
  return value;
}

// One body of a step.pair request, its inputs rounded by `round`; the
// fields the request gives are rewritten, the defaults are not added.
export function stepBody(line, field, round = identity) {
  const { body, json } = readBody(line[field], field, round);
  if (round !== identity) line[field] = json;
  return body;
}

// A body object of step.pair or scene.run (`what` names it in messages):
// { body, json }, json the object with the given fields rounded by `round`
// (the object itself when nothing is rounded).
function readBody(json, what, round) {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new InvalidInput(`${what}: expected a body object`);
  const r = (v, fallback, key) => round(optionalNumber(v, fallback, `${what}.${key}`), `${what}.${key}`);
  // Absent fields take their defaults; a null is a wrong value, not an absence.
  const vector = (key) => roundPoint(point(json[key] === undefined ? [0, 0] : json[key], `${what}.${key}`), round,
    `${what}.${key}`);
  if (json.static !== undefined && typeof json.static !== 'boolean') {
    throw new InvalidInput(`${what}.static: expected true or false, got ${JSON.stringify(json.static)}`);
  }
  const body = {
    position: vector('position'),
    angle: r(json.angle, 0, 'angle'),
    velocity: vector('velocity'),
    angularVelocity: r(json.angular_velocity, 0, 'angular_velocity'),
    density: r(json.density, 1, 'density'),
    isStatic: json.static === true,
  };
  if (json.vertices !== undefined) {
    body.vertices = points(json.vertices, `${what}.vertices`).map((q) => roundPoint(q, round, `${what}.vertices`));
  } else if (json.radius !== undefined) body.radius = r(json.radius, 0, 'radius');
  else throw new InvalidInput(`${what}: expected "vertices" or "radius"`);
  if (body.density <= 0 && !body.isStatic) throw new InvalidInput(`${what}.density: must be > 0`);
  if (round === identity) return { body, json };
  const out = { ...json };
  const set = (key, value) => { if (json[key] !== undefined) out[key] = value; };
  set('position', pointJson(body.position));
  set('angle', body.angle);
  set('velocity', pointJson(body.velocity));
  set('angular_velocity', body.angularVelocity);
  set('density', body.density);
  if (body.vertices) out.vertices = pointsJson(body.vertices);
  else out.radius = body.radius;
  return { body, json: out };
}

const roundPoint = (p, round, what) => ({ x: round(p.x, what), y: round(p.y, what) });

// The whole step.pair request: bodies, material, dt and gravity.
export function stepRequest(line, round = identity) {
  const req = {
    body1: stepBody(line, 'body1', round),
    body2: stepBody(line, 'body2', round),
    restitution: numberField(line, 'restitution', 0, round),
    friction: numberField(line, 'friction', 0, round),
    dt: numberField(line, 'dt', 1 / 60, round),
    gravity: roundPoint(point(line.gravity === undefined ? [0, 0] : line.gravity, 'gravity'), round, 'gravity'),
  };
  if (round !== identity && line.gravity !== undefined) line.gravity = pointJson(req.gravity);
  if (!(req.dt > 0)) throw new InvalidInput('dt: must be > 0');
  return req;
}

// scene.run's limits: the bodies of one scene, and its steps.
export const SCENE_MAX_BODIES = 1000;
export const SCENE_MAX_STEPS = 100000;
// The body states (frames x bodies) one answer line holds at most.
export const SCENE_MAX_STATES = 1000000;

// An integer field in [low, high] (a number or a numeric string, as numbers are).
function integerField(line, field, fallback, low, high) {
  const value = optionalNumber(line[field], fallback, field);
  if (value === undefined) throw new InvalidInput(`${field}: missing (an integer from ${low} to ${high})`);
  if (!Number.isInteger(value) || value < low || value > high) {
    throw new InvalidInput(`${field}: expected an integer from ${low} to ${high}, got ${JSON.stringify(line[field])}`);
  }
  return value;
}

// The whole scene.run request: bodies (in request order), material, dt,
// gravity, steps and record_every. A static body's velocities are zero
// whatever is given (as in step.pair, the engines ignore them).
export function sceneRequest(line, round = identity) {
  const given = line.bodies;
  if (!Array.isArray(given) || given.length < 1 || given.length > SCENE_MAX_BODIES) {
    throw new InvalidInput(`bodies: expected a list of 1 to ${SCENE_MAX_BODIES} bodies`);
  }
  const read = given.map((json, i) => readBody(json, `bodies[${i}]`, round));
  const bodies = read.map(({ body }, i) => {
    if (body.radius !== undefined && !(body.radius > 0)) throw new InvalidInput(`bodies[${i}].radius: must be > 0`);
    return body.isStatic ? { ...body, velocity: { x: 0, y: 0 }, angularVelocity: 0 } : body;
  });
  if (round !== identity) line.bodies = read.map(({ json }) => json);
  const steps = integerField(line, 'steps', undefined, 1, SCENE_MAX_STEPS);
  const req = {
    bodies,
    steps,
    recordEvery: integerField(line, 'record_every', 1, 1, steps),
    restitution: numberField(line, 'restitution', 0, round),
    friction: numberField(line, 'friction', 0, round),
    dt: numberField(line, 'dt', 1 / 60, round),
    gravity: roundPoint(point(line.gravity === undefined ? [0, 0] : line.gravity, 'gravity'), round, 'gravity'),
  };
  if (round !== identity && line.gravity !== undefined) line.gravity = pointJson(req.gravity);
  if (!(req.dt > 0)) throw new InvalidInput('dt: must be > 0');
  if (!(req.friction >= 0)) throw new InvalidInput('friction: must be >= 0');
  if (!(req.restitution >= 0 && req.restitution <= 1)) throw new InvalidInput('restitution: must be in [0, 1]');
  return req;
}

// Runs a scene: `step()` advances the engine by one step, `state(i)` is
// body i's bodyAfter; a frame is recorded after every recordEvery-th step.
// Once a state is not finite the engine is not stepped again (an engine may
// loop or trap on NaN bounds, as the C++ adapters note): the later frames
// hold nulls, and diagnostics.non_finite_at_step names the step. A
// non-finite number is written as null by JSON.stringify.
export function runScene(req, step, state, line) {
  const n = req.bodies.length;
  const frameCount = Math.floor(req.steps / req.recordEvery);
  // One answer is one JSON string, which V8 caps at about 2^29 characters
  // (some 150 per body state): refuse what could not be written, rather
  // than crash the adapter at the end.
  if (frameCount * n > SCENE_MAX_STATES) {
    throw new Unsupported(`the answer would hold ${frameCount} frames of ${n} bodies; this adapter writes at most `
      + `${SCENE_MAX_STATES} body states in one answer line (raise record_every)`);
  }
  const finite = (b) => [b.position[0], b.position[1], b.angle, b.velocity[0], b.velocity[1], b.angular_velocity]
    .every(Number.isFinite);
  const none = { position: [null, null], angle: null, velocity: [null, null], angular_velocity: null };
  const frames = [];
  let now = [];
  let brokenAt = 0;  // the step after which some state was not finite
  for (let k = 1; k <= req.steps; ++k) {
    if (brokenAt === 0) {
      step();
      now = req.bodies.map((_, i) => state(i));
      if (!now.every(finite)) brokenAt = k;
    }
    if (k % req.recordEvery !== 0) continue;
    frames.push({ step: k, bodies: brokenAt !== 0 && brokenAt < k ? now.map(() => none) : now });
  }
  if (brokenAt !== 0) diagnostics(line).non_finite_at_step = brokenAt;
  return { frames };
}

// ---- writing results ------------------------------------------------------------

export const vec = (x, y) => [x, y];

// A step.pair body result from the engine's state (already in the protocol's
// units and reference point).
export const bodyAfter = (position, angle, velocity, angularVelocity) => ({
  position: vec(position.x, position.y), angle, velocity: vec(velocity.x, velocity.y), angular_velocity: angularVelocity,
});

// The fixed tangent of the protocol: t = (-n.y, n.x).
export const tangentOf = (n) => ({ x: -n.y, y: n.x });

// Whether the engine kept a polygon as given: the same vertices in the same
// cyclic order, either orientation. Returns a description of the change (with
// the vertices used), or null when there is none. `call`: the engine function
// that changed it; `maxVertices`, `limitName`: the engine's vertex limit,
// when it reads only the first ones.
export function polygonChange(given, used, { call, maxVertices = Infinity, limitName = '' }) {
  if (sameCycle(given, used)) return null;
  const key = (p) => `${p.x},${p.y}`;
  const givenKeys = new Set(given.map(key));
  const usedKeys = new Set(used.map(key));
  const dropped = given.filter((p) => !usedKeys.has(key(p))).length;
  const added = used.filter((p) => !givenKeys.has(key(p))).length;
  const parts = [];
  if (isUnitBox(used) && !given.some((p) => Math.abs(p.x) === 1 && Math.abs(p.y) === 1)) {
    parts.push(`${call} replaced the polygon by the box [-1, 1]^2 (fewer than 3 distinct hull points)`);
  } else {
    parts.push(`${call} used ${used.length} of the ${given.length} vertices given`);
    if (dropped) parts.push(`dropped ${dropped}`);
    if (added) parts.push(`added ${added} not given`);
    if (!dropped && !added) parts.push('re-ordered');
  }
  if (given.length > maxVertices) parts.push(`only the first ${maxVertices} were read (${limitName})`);
  return `${parts.join(', ')}; vertices used: ${JSON.stringify(pointsJson(used))}`;
}

const isUnitBox = (v) => v.length === 4 && v.every((p) => Math.abs(p.x) === 1 && Math.abs(p.y) === 1);

// Declares the changes the engine made to the shapes of one request (null
// where it made none), under input fields `names`.
export function declareChanges(line, changeA, changeB, names = ['a', 'b']) {
  declareInputChange(line, names[0], changeA);
  declareInputChange(line, names[1], changeB);
}

function sameCycle(a, b) {
  if (a.length !== b.length) return false;
  const n = a.length;
  const eq = (p, q) => p.x === q.x && p.y === q.y;
  for (let shift = 0; shift < n; ++shift) {
    let forward = true, backward = true;
    for (let i = 0; i < n && (forward || backward); ++i) {
      if (!eq(a[i], b[(shift + i) % n])) forward = false;
      if (!eq(a[i], b[(shift - i + n * 2) % n])) backward = false;
    }
    if (forward || backward) return true;
  }
  return false;
}

// Whether the module at `url` is the program node was started with (an
// adapter runs its loop then; the tests import it without running).
export const isMain = (url) => process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href;

// ---- the loop ------------------------------------------------------------------

// Answers one line in place: line.result (and what the handler adds) or
// line.error. `ops` maps an op name to handler(line), which may throw
// Unsupported, InvalidInput or anything the engine throws. `isCrash(e)` tells
// a WebAssembly abort or trap from an ordinary exception.
export function answer(line, ops, isCrash = () => false) {
  // Own properties only: "op": "constructor" must not find Object's.
  const op = typeof line.op === 'string' ? line.op : JSON.stringify(line.op ?? '');
  const handler = Object.hasOwn(ops, op) ? ops[op] : undefined;
  try {
    if (!handler) throw new Unsupported(`this adapter does not run op "${op}"`);
    handler(line);
    return { crashed: false };
  } catch (e) {
    delete line.result;
    const crashed = isCrash(e);
    const code = e instanceof Unsupported ? 'unsupported'
      : e instanceof InvalidInput ? 'invalid_input'
        : crashed ? 'crashed' : 'engine_error';
    const message = crashed ? `the engine aborted on this case (${e?.message ?? e})` : String(e?.message ?? e);
    line.error = { code, message };
    return { crashed };
  }
}

// The fields of an answer line that only the adapter writes: a request that
// brings them has them dropped, so that a result, an allowance or an input
// change is always the engine's own.
export function dropAnswerFields(line) {
  for (const field of ['result', 'error', 'allowances', 'diagnostics']) delete line[field];
}

// eval's limits on one line (docs/eval-protocol.md 1.4, rigidref/protocol/limits.hpp).
const MAX_LINE_BYTES = 1 << 20;
const MAX_NESTING = 256;

// The deepest [ / { nesting outside strings (the text need not be valid JSON).
function nestingDepth(text) {
  let depth = 0, deepest = 0, inString = false, escaped = false;
  for (const c of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') --depth;
  }
  return deepest;
}

// One request line: { line } when it is a JSON object, { problem } otherwise.
export function readRequest(text) {
  if (Buffer.byteLength(text) > MAX_LINE_BYTES) return { problem: `request line longer than ${MAX_LINE_BYTES} bytes (limit max_line_bytes, docs/eval-protocol.md section 1.4)` };
  if (nestingDepth(text) > MAX_NESTING) return { problem: `JSON nested deeper than ${MAX_NESTING} levels` };
  let line;
  try {
    line = JSON.parse(text);
  } catch (e) {
    return { problem: `not valid JSON: ${e.message}` };
  }
  if (line === null || typeof line !== 'object' || Array.isArray(line)) {
    return { problem: `a request must be a JSON object, got ${line === null ? 'null' : Array.isArray(line) ? 'array' : typeof line}` };
  }
  return { line };
}

// Runs an adapter over `input` (default stdin), writing to `output` (default
// stdout). `engine`: name and version; `precision`: 'float' or 'double';
// `ops`: op name -> handler; `isCrash`, `restart` (async): for a WebAssembly
// engine, tell a crash and build a fresh module before the next case.
export async function runAdapter({ engine, precision, ops, isCrash, restart, input = process.stdin, output = process.stdout }) {
  const lines = createInterface({ input, crlfDelay: Infinity });
  // Answers from a file are written in batches; from a pipe or a terminal
  // each as soon as it is made, so that a caller that waits for one answer
  // before it sends the next request (rigidref hunt) gets it.
  let fromFile = false;
  try {
    fromFile = input.fd !== undefined && fstatSync(input.fd).isFile();
  } catch {
    fromFile = false;
  }
  const batch = fromFile ? 1 << 16 : 0;
  let pending = [];
  let pendingSize = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    pendingSize = 0;
    if (!output.write(text)) await new Promise((resolve) => output.once('drain', resolve));
  };
  for await (const text of lines) {
    if (text.trim() === '') continue;
    const { line, problem } = readRequest(text);
    if (problem) {
      // As `rigidref eval` does: one answer line per request line, with id null.
      const out = JSON.stringify({ id: null, engine, precision, error: { code: 'parse_error', message: problem } }) + '\n';
      pending.push(out);
      pendingSize += out.length;
      if (pendingSize > batch) await flush();
      continue;
    }
    dropAnswerFields(line);
    line.engine = engine;
    line.precision = precision;
    const { crashed } = answer(line, ops, isCrash);
    const out = JSON.stringify(line) + '\n';
    pending.push(out);
    pendingSize += out.length;
    if (pendingSize > batch) await flush();
    if (crashed && restart) await restart();
  }
  await flush();
}
