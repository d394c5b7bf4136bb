#!/usr/bin/env node
'use strict';
// Self-test of generate.js's HTML/script extraction (brace matcher, inline
// <script> finder) and JSON writer, on synthetic inputs. Plain Node + assert.
//
//   node data/generate/test_extract.js

const assert = require('assert');
const { matchBracket, inlineScripts, functionSource, toJson, hex } = require('./generate');

let failed = 0;
function test(name, fn) {
  try { fn(); console.log(`ok   ${name}`); } catch (e) { failed++; console.log(`FAIL ${name}\n     ${e.message}`); }
}

test('matchBracket skips brackets in strings, templates and comments', () => {
  const src = 'f(a) { let s = "}{"; let t = \'}\'; /* } */ // }\n' +
    'let u = `}${ {a: "}"}.a }` + `\\``; if (x) { y(); } }REST';
  const open = src.indexOf('{');
  assert.strictEqual(src.slice(matchBracket(src, open) + 1), 'REST');
});

test('matchBracket rejects mismatched and unbalanced input', () => {
  assert.throws(() => matchBracket('{ ( }', 0), /mismatched/);
  assert.throws(() => matchBracket('{ "x" ', 0), /unbalanced/);
  assert.throws(() => matchBracket('{ "x }', 0), /unterminated string/);
});

test('inlineScripts ignores <script src=...>', () => {
  const html = '<script src="a.js"></script>\n<script>var a = 1;</script><SCRIPT type="x">b</SCRIPT >';
  assert.deepStrictEqual(inlineScripts(html).map((s) => s.text), ['var a = 1;', 'b']);
});

test('functionSource: default parameters with parens, comments before the body, decoys', () => {
  const script = [
    '// function target() { not this one }',
    'const s = "function target() {}";',
    'function notarget() {}',
    'function target(c = new V(0, 0), r = (1), n=3) /* } */ {',
    '  if (n) { return `${"}"}`; }',
    '}',
    'after();',
  ].join('\n');
  const f = functionSource(script, 'target');
  assert.ok(f.text.startsWith('function target(c = new V(0, 0)'));
  assert.ok(f.text.endsWith('}\n}'));
  assert.strictEqual(script.slice(f.end), '\nafter();');
  assert.throws(() => functionSource('function target(){} function target(){}', 'target'), /exactly one/);
  assert.throws(() => functionSource('x()', 'target'), /found 0/);
});

test('hex gives exact IEEE-754 bits', () => {
  assert.strictEqual(hex(1), '0x3ff0000000000000');
  assert.strictEqual(hex(1 / 3), '0x3fd5555555555555');
  assert.strictEqual(hex(-0), '0x8000000000000000');
  assert.strictEqual(hex(0), '0x0000000000000000');
});

test('toJson: 2-space indent, scalar arrays inline, valid JSON, refuses non-finite', () => {
  const v = { a: 1, b: [[0.1, -2e-7], [3, 4]], c: { d: 'x' }, e: [] };
  const text = toJson(v);
  assert.deepStrictEqual(JSON.parse(text), v);
  assert.strictEqual(text, '{\n  "a": 1,\n  "b": [\n    [0.1, -2e-7],\n    [3, 4]\n  ],\n  "c": {\n    "d": "x"\n  },\n  "e": []\n}');
  assert.throws(() => toJson([NaN]), /non-finite/);
  assert.throws(() => toJson({ x: Infinity }), /non-finite/);
});

console.log(failed ? `\n${failed} failed` : '\nall passed');
process.exitCode = failed ? 1 : 0;
