// An engine adapter whose engine is rigidref's own reference in double
// (`rigidref eval`), for the tests of `rigidref hunt`: honest as shipped,
// or with one defect planted (--plant NAME), a wrong engine hunt must find
// and shrink to the boundary of its defect.
//   node reference_adapter.mjs RIGIDREF_CLI [--plant NAME]
// Defects:
//   inertia-from-9       mass.polygon: the inertia 0.1 % high from 9 vertices on
//   distance-from-1e3    gjk.distance: the distance 0.1 % long once a coordinate exceeds 1000
//   flag-absolute-1e-3   epa.penetration: overlaps shallower than 0.001 called separated
//   restitution-above-0.5 step.pair: restitution above 0.5 solved as 0.5
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [cli, ...args] = process.argv.slice(2);
let plant = '';
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--plant' && i + 1 < args.length) plant = args[++i];
  else { console.error(`reference_adapter: unknown argument ${args[i]}`); process.exit(2); }
}
const plants = ['', 'inertia-from-9', 'distance-from-1e3', 'flag-absolute-1e-3', 'restitution-above-0.5'];
if (!cli || !plants.includes(plant)) {
  console.error('usage: node reference_adapter.mjs RIGIDREF_CLI [--plant ' + plants.slice(1).join('|') + ']');
  process.exit(2);
}

const evaluator = spawn(cli, ['eval'], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = createInterface({ input: evaluator.stdout });
const waiting = [];
answers.on('line', (line) => waiting.shift()(line));
const evaluate = (request) => new Promise((resolve) => {
  waiting.push((line) => resolve(JSON.parse(line)));
  evaluator.stdin.write(JSON.stringify({ ...request, precision: 'double' }) + '\n');
});

const largest = (value) => Array.isArray(value) ? Math.max(...value.map(largest))
  : value && typeof value === 'object' ? Math.max(...Object.values(value).map(largest))
  : typeof value === 'number' ? Math.abs(value) : 0;

async function answer(request) {
  let asked = request;
  if (plant === 'restitution-above-0.5' && request.op === 'step.pair' && request.restitution > 0.5)
    asked = { ...request, restitution: 0.5 };
  const reply = await evaluate(asked);
  const line = { ...request, engine: plant ? `reference-double-planted-${plant}` : 'reference-double', precision: 'double' };
  if (!reply.ok) {
    line.error = reply.error;
    return line;
  }
  const result = reply.result;
  if (plant === 'inertia-from-9' && request.op === 'mass.polygon' && request.vertices.length >= 9)
    result.inertia *= 1.001;
  if (plant === 'distance-from-1e3' && request.op === 'gjk.distance' && !result.intersecting &&
      Math.max(largest(request.a), largest(request.b)) > 1000)
    result.distance *= 1.001;
  if (plant === 'flag-absolute-1e-3' && request.op === 'epa.penetration' && result.intersecting && result.depth < 1e-3) {
    result.intersecting = false;
    result.depth = 0;
    delete result.normal;
  }
  line.result = result;
  return line;
}

const requests = createInterface({ input: process.stdin });
let chain = Promise.resolve();
requests.on('line', (text) => {
  chain = chain.then(async () => {
    let request;
    try {
      request = JSON.parse(text);
    } catch {
      process.stdout.write(JSON.stringify({ id: null, engine: 'reference-double', precision: 'double',
        error: { code: 'parse_error', message: 'not JSON' } }) + '\n');
      return;
    }
    process.stdout.write(JSON.stringify(await answer(request)) + '\n');
  });
});
requests.on('close', () => chain.then(() => evaluator.stdin.end()));
