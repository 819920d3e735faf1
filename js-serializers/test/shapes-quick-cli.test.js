'use strict';
// The quick benchmark's command line: a --heap it does not know is refused, naming the protocols, before anything
// runs, and so is a --family that picks no document, naming the families; one member is picked by its name; a run says in its raw report which protocol its timings followed (bench/heap-protocols.js), so that two runs'
// ratios are never compared across protocols unknowingly.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const SCRIPT = path.join(__dirname, '../bench/shapes-quick.js');
// One family at a thousandth of its size, one round: seconds.
const SMALL = ['--scale', '0.001', '--rounds', '1', '--family', 'arrays, small leaves'];

const run = (args) => spawnSync(process.execPath, ['--expose-gc', SCRIPT, ...SMALL, ...args], { encoding: 'utf8' });

/** The raw report a run saved (its last line names it), read and removed. */
function savedReport(stdout) {
  const saved = /^raw results: (.+\.json)$/m.exec(stdout);
  assert.ok(saved, stdout);
  const file = path.resolve(saved[1]);
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } finally {
    fs.unlinkSync(file);
  }
}

test('an unknown --heap is refused before anything runs', () => {
  const { status, stdout, stderr } = run(['--heap', 'warm']);
  assert.strictEqual(status, 1, stderr);
  assert.match(stderr, /--heap is one of steady, cold/);
  assert.strictEqual(stdout, '');
});

for (const heap of [null, 'steady']) {
  test(`a run records its heap protocol: ${heap || 'the default, cold'}`, () => {
    const { status, stdout, stderr } = run(heap === null ? [] : ['--heap', heap]);
    assert.strictEqual(status, 0, stderr);
    const report = savedReport(stdout);
    assert.strictEqual(report.heap, heap || 'cold');
    assert.ok(report.members.length > 0 && report.members.every((m) => m.family === 'arrays, small leaves'));
    assert.ok(report.members.every((m) => Object.values(m.approaches).every((a) => a.verified)), 'every output verified');
    assert.match(stdout, /^arrays, small leaves /m);
  });
}

test('a --family that picks no document is refused, naming the families, before anything runs', () => {
  const { status, stdout, stderr } = run(['--family', 'no such family']);
  assert.strictEqual(status, 1, stderr);
  assert.match(stderr, /--family "no such family" is in no family's name nor any document's; the families: objects, small leaves; /);
  assert.match(stderr, /corpus: /);
  assert.strictEqual(stdout, '');
});

test('one member is picked by its own name', () => {
  const { status, stdout, stderr } = run(['--family', 'arrays, small leaves, branching 8, depth 1']);
  assert.strictEqual(status, 0, stderr);
  const report = savedReport(stdout);
  assert.deepStrictEqual(report.members.map((m) => m.name), ['arrays, small leaves, branching 8, depth 1']);
});
