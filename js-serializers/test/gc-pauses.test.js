'use strict';
// The collector's pauses during a benchmark run (bench/gc-pauses.js), on real collections forced with V8's own gc():
// a pause is counted inside a window only for the part of it the window holds.
const test = require('node:test');
const assert = require('node:assert');
const v8 = require('node:v8');
const vm = require('node:vm');
const { performance } = require('node:perf_hooks');
const { startGcPauses } = require('../bench/gc-pauses');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
// Node hands a collection's entry to its observers from a callback it queues after the pause, not during it.
const entriesDelivered = () => new Promise((resolve) => setImmediate(resolve));

test('a collection inside the run\'s window counts in inRunMs, whole; one outside it does not', async () => {
  const stop = startGcPauses();
  const before = performance.now();
  gc({ type: 'minor' });
  gc();
  const after = performance.now();
  await entriesDelivered();
  const inside = stop({ from: 0, to: 0 }, { from: before, to: after });
  assert.ok(inside.pauses >= 2, `the two collections were seen (${inside.pauses})`);
  assert.ok(inside.inRunMs > 0, 'their pauses fell inside the run');
  assert.ok(inside.inRunMs <= after - before, 'no more than the run lasted');
  assert.strictEqual(inside.inBlockMs, 0, 'an empty block holds none of them');

  const later = startGcPauses();
  gc();
  await entriesDelivered();
  const outside = later({ from: 0, to: 0 }, { from: 0, to: before });
  assert.ok(outside.pauses >= 1);
  assert.strictEqual(outside.inRunMs, 0, 'a collection after the run\'s window is not the run\'s');
});
