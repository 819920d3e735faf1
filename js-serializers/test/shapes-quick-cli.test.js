'use strict';
// The quick benchmark's command line: a --heap it does not know is refused, naming the protocols, before anything
// runs; a run says in its raw report which protocol its timings followed (bench/heap-protocols.js), so that two runs'
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
    const saved = /^raw results: (.+\.json)$/m.exec(stdout);
    assert.ok(saved, stdout);
    const file = path.resolve(saved[1]);
    try {
      const report = JSON.parse(fs.readFileSync(file, 'utf8'));
      assert.strictEqual(report.heap, heap || 'cold');
      assert.ok(report.members.length > 0 && report.members.every((m) => m.family === 'arrays, small leaves'));
      assert.ok(report.members.every((m) => Object.values(m.approaches).every((a) => a.verified)), 'every output verified');
    } finally {
      fs.unlinkSync(file);
    }
    assert.match(stdout, /^arrays, small leaves /m);
  });
}
