// A rigidref engine adapter: copy this file and put your engine in it.
//
// It reads request lines (JSON, one per line; docs/eval-protocol.md) on
// standard input and writes one answer line per request line on standard
// output, in order, for `rigidref check` (docs/adapters.md walks through it):
//
//     node adapter.mjs < data/validation/mass.jsonl > answers.jsonl
//     rigidref check answers.jsonl --cases data/validation/mass.jsonl
//
// An answer line is the request's own fields, unchanged (or rounded to your
// engine's precision, see Math.fround below), plus only:
//   engine       your engine's name and version (ENGINE below)
//   precision    the precision it computes in (PRECISION below)
//   result       ONLY the op's result fields (docs/eval-protocol.md section 3)
//   error        instead of result: {code, message}; "unsupported" when your
//                engine does not take the case (counted as skipped)
//   allowances   optional {name: amount}, what it approximates on purpose
//   diagnostics  optional, free-form, not judged: anything else you want to
//                see again (vertices used, iterations, settings); every change
//                of an input beyond rounding goes in diagnostics.input_changes
//
// As shipped, the "engine" is a stand-in that answers mass.polygon by a
// triangle fan from the first vertex in double (a JavaScript number), and
// every other op with "unsupported". Replace the stand-in by calls to your
// engine where it says YOUR ENGINE. Node 18 or later, no npm package.
import { once } from 'node:events';

// ---- 1. Who answers -------------------------------------------------------------

const ENGINE = 'stand-in-fan-1.0'; // YOUR ENGINE: its name and version
const PRECISION = 'double'; // YOUR ENGINE: 'float' if it computes in float (then round inputs with Math.fround)

// Your engine does not take this case: answered "unsupported" (skipped).
class Unsupported extends Error {}
// The request itself is malformed or no valid case: answered "invalid_input".
class InvalidInput extends Error {}

// ---- 2. Reading the request ------------------------------------------------------

function number(value, what) {
  if (typeof value !== 'number') throw new InvalidInput(`${what}: expected a number, got ${JSON.stringify(value)}`);
  if (!Number.isFinite(value)) throw new InvalidInput(`${what}: not a finite number`);
  return value;
}

function verticesOf(line) {
  if (!Array.isArray(line.vertices)) throw new InvalidInput('vertices: expected a list of [x, y]');
  const out = line.vertices.map((p, i) => {
    if (!Array.isArray(p) || p.length !== 2) throw new InvalidInput(`vertices[${i}]: expected [x, y]`);
    return { x: number(p[0], `vertices[${i}]`), y: number(p[1], `vertices[${i}]`) };
  });
  if (out.length < 3) throw new InvalidInput('vertices: a polygon needs 3 or more vertices');
  return out;
}

function densityOf(line) {
  // The stand-in (like the adapters of rigidref) sets a density; the case sets give one.
  if (line.mass !== undefined) throw new Unsupported('this adapter takes "density", not the total "mass"');
  const density = line.density === undefined ? 1 : number(line.density, 'density');
  if (!(density > 0)) throw new InvalidInput('density: must be > 0');
  return density;
}

function diagnostics(line) {
  if (line.diagnostics === null || typeof line.diagnostics !== 'object' || Array.isArray(line.diagnostics)) {
    line.diagnostics = {};
  }
  return line.diagnostics;
}

// ---- 3. The engine ---------------------------------------------------------------

// The stand-in engine: area, centroid, mass and polar moment of inertia about
// the centroid of a simple polygon, by a fan of triangles from the first
// vertex (signed areas, so either orientation and non-convex polygons work).
function standInPolygonMass(vertices, density) {
  const { x: x0, y: y0 } = vertices[0];
  let twiceArea = 0; // sum of c = cross(e1, e2): twice the signed area
  let momentX = 0; // sum of c (e1 + e2): 6 area times the centroid, from vertex 0
  let momentY = 0;
  let second = 0; // sum of c (|e1|^2 + e1.e2 + |e2|^2): 12 times the polar moment about vertex 0
  for (let i = 1; i + 1 < vertices.length; ++i) {
    const e1x = vertices[i].x - x0, e1y = vertices[i].y - y0;
    const e2x = vertices[i + 1].x - x0, e2y = vertices[i + 1].y - y0;
    const c = e1x * e2y - e1y * e2x;
    twiceArea += c;
    momentX += c * (e1x + e2x);
    momentY += c * (e1y + e2y);
    second += c * (e1x * e1x + e1y * e1y + e1x * e2x + e1y * e2y + e2x * e2x + e2y * e2y);
  }
  if (twiceArea === 0) throw new InvalidInput('vertices: the polygon has no area');
  const sign = twiceArea > 0 ? 1 : -1;
  const dx = momentX / (3 * twiceArea); // the centroid from vertex 0
  const dy = momentY / (3 * twiceArea);
  const area = (sign * twiceArea) / 2;
  const mass = density * area;
  const inertia = (density * sign * second) / 12 - mass * (dx * dx + dy * dy); // parallel-axis shift to the centroid
  return { area, centroid: [x0 + dx, y0 + dy], mass, inertia };
}

function massPolygon(line) {
  const vertices = verticesOf(line);
  const density = densityOf(line);
  // YOUR ENGINE: build its polygon body from `vertices` and `density` and read
  // back area, centroid, mass and inertia (polar, about the centroid).
  // If it computes in float: round each input with Math.fround, write the
  // rounded values back (line.vertices = vertices.map((p) => [p.x, p.y])) and
  // set PRECISION = 'float'. If it changes the polygon beyond that (welds
  // close vertices, drops collinear ones), say so:
  //   (diagnostics(line).input_changes ??= {}).vertices = 'welded 2 vertices closer than 1e-3';
  const m = standInPolygonMass(vertices, density);
  line.result = { area: m.area, centroid: m.centroid, mass: m.mass, inertia: m.inertia };
  diagnostics(line).vertices_used = vertices.length;
}

// One handler per op your engine answers (docs/eval-protocol.md section 3
// lists each op's request and result fields); every other op is answered
// unsupported.
const OPS = new Map([
  ['mass.polygon', massPolygon],
  // ['gjk.distance', gjkDistance],   YOUR ENGINE: result {intersecting, distance, point_a, point_b}
]);

// ---- 4. The loop: one answer line per request line ---------------------------------

const MAX_LINE_BYTES = 1 << 20; // eval's limits (docs/eval-protocol.md section 1.4)
const MAX_NESTING = 256;

function nestingDepth(text) {
  let depth = 0, deepest = 0, inString = false, escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') deepest = Math.max(deepest, ++depth);
    else if (ch === ']' || ch === '}') --depth;
  }
  return deepest;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

// { line } for a request, { problem } for a line that is none (`bytes`: the
// line without its end).
function readRequest(bytes) {
  if (bytes.length > MAX_LINE_BYTES) {
    return { problem: `request line longer than ${MAX_LINE_BYTES} bytes (limit max_line_bytes)` };
  }
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { problem: 'not valid JSON: not UTF-8' };
  }
  if (nestingDepth(text) > MAX_NESTING) return { problem: `JSON nested deeper than ${MAX_NESTING} levels` };
  let line;
  try {
    line = JSON.parse(text, (key, value) => {
      if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('a number is beyond the double range');
      return value;
    });
  } catch (e) {
    return { problem: `not valid JSON: ${e.message}` };
  }
  if (line === null || typeof line !== 'object' || Array.isArray(line)) {
    return { problem: `a request must be a JSON object, got ${line === null ? 'null' : Array.isArray(line) ? 'array' : typeof line}` };
  }
  return { line };
}

function answer(line) {
  const op = typeof line.op === 'string' ? line.op : JSON.stringify(line.op ?? null);
  try {
    const handler = OPS.get(op);
    if (!handler) throw new Unsupported(`this adapter does not run op "${op}"`);
    handler(line);
  } catch (e) {
    delete line.result;
    // An engine that throws on a valid case fails it; Unsupported is a skip.
    const code = e instanceof Unsupported ? 'unsupported' : e instanceof InvalidInput ? 'invalid_input' : 'engine_error';
    line.error = { code, message: String(e?.message ?? e) };
  }
}

// The answer line to one request line (bytes, without the line end).
function answerLine(bytes) {
  const { line, problem } = readRequest(bytes);
  if (problem) return { id: null, engine: ENGINE, precision: PRECISION, error: { code: 'parse_error', message: problem } };
  // Fields only the adapter writes: a request's own never pass for the engine's.
  for (const field of ['result', 'error', 'allowances', 'diagnostics']) delete line[field];
  line.engine = ENGINE;
  line.precision = PRECISION;
  answer(line);
  return line;
}

const isBlank = (bytes) => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d);

async function handle(bytes) {
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
  if (isBlank(bytes)) return; // a blank line is no request and gets no answer
  // JSON.stringify writes a non-finite number as null: the judge fails it as "not finite".
  if (!process.stdout.write(JSON.stringify(answerLine(bytes)) + '\n')) await once(process.stdout, 'drain');
}

// Lines end at "\n" only (a stray "\r" inside a line is not a line end).
let rest = Buffer.alloc(0);
for await (const chunk of process.stdin) {
  const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
  let start = 0;
  for (let at = buf.indexOf(0x0a, start); at >= 0; at = buf.indexOf(0x0a, start)) {
    await handle(buf.subarray(start, at));
    start = at + 1;
  }
  rest = buf.subarray(start);
}
if (rest.length > 0) await handle(rest);
