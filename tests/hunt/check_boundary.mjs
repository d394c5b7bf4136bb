// For the tests of `rigidref hunt`: reads its --out file for a planted
// defect (tests/hunt/reference_adapter.mjs) and checks that the defect's
// failure was found and shrunk to the boundary of the defect.
//   node check_boundary.mjs RIGIDREF_CLI OUT_FILE DEFECT
// Exit 0 when it was, 1 (with the reason) when not.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const [cli, file, defect] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const fail = (why) => { console.error(`check_boundary ${defect}: ${why}`); process.exit(1); };
const found = (field) => lines.find((l) => l.hunt && l.hunt.field === field) || fail(`no failure on ${field} in ${file}`);
const largest = (v) => Array.isArray(v) ? Math.max(...v.map(largest))
  : v && typeof v === 'object' ? Math.max(...Object.values(v).map(largest)) : typeof v === 'number' ? Math.abs(v) : 0;
const inputs = (l) => Object.fromEntries(Object.entries(l).filter(([k]) =>
  !['engine', 'precision', 'result', 'error', 'allowances', 'diagnostics', 'shrink_steps', 'original', 'hunt'].includes(k)));

let line, ok, what;
switch (defect) {
  case 'inertia-from-9':
    line = found('inertia');
    what = `${line.vertices.length} vertices`;
    ok = line.vertices.length === 9;
    break;
  case 'distance-from-1e3': {
    line = found('distance');
    const m = Math.max(largest(line.a), largest(line.b));
    what = `largest coordinate ${m}`;
    ok = m > 1000 && m <= 1010;
    break;
  }
  case 'flag-absolute-1e-3': {
    line = found('intersecting');
    const exact = JSON.parse(execFileSync(cli, ['eval'], { input: JSON.stringify({ ...inputs(line), precision: 'mp100' }) }));
    const depth = Number(exact.result.depth);
    what = `depth ${depth}`;
    ok = depth > 0.9e-3 && depth < 1e-3;
    break;
  }
  case 'restitution-above-0.5':
    line = found('restitution');
    what = `restitution ${line.restitution}`;
    ok = line.restitution > 0.5 && line.restitution <= 0.51;
    break;
  default:
    fail('unknown defect');
}
if (!ok) fail(`shrunk to ${what}, not to the boundary (after ${line.shrink_steps} steps)`);
console.log(`check_boundary ${defect}: shrunk in ${line.shrink_steps} steps to ${what}`);
