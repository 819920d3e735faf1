'use strict';
// The collector's part of a block (collector-pauses.js, event-loop.js' withCollector), as properties, never against
// the clock: a full collection the test asks for inside a window is found in it, at most the window; a run whose one
// synchronous block holds one says so, at most the block. The ring's arithmetic on pauses of the test's own.
const test = require('node:test');
const assert = require('node:assert');
const v8 = require('node:v8');
const vm = require('node:vm');
const { performance } = require('node:perf_hooks');
const { watchCollector, settled, collectorMsWithin, PauseRing } = require('../collector-pauses');
const { startLoopWatch, withCollector } = require('../event-loop');

// A full collection on demand, without starting the test's process with --expose-gc.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');

test('a collection inside a window is found in it, once reported, and at most the window', async () => {
  watchCollector();
  const from = performance.now();
  collect();
  const to = performance.now();
  await settled();
  const ms = collectorMsWithin({ from, to });
  assert.ok(ms > 0, `the collection's pause is inside the window: ${ms}`);
  assert.ok(ms <= to - from, `no more than the window: ${ms} of ${to - from}`);
  assert.strictEqual(collectorMsWithin({ from: to, to }), 0, 'an empty window holds no pause');
});

test("a run's synchronous block that holds a collection says so, at most the block", async () => {
  const stop = startLoopWatch();
  // One synchronous piece from the watch's start to its stop: the whole run is the longest block, and holds the pause.
  collect();
  const figures = await withCollector(stop());
  assert.ok(figures.maxBlockGcMs > 0, JSON.stringify(figures));
  assert.ok(figures.maxBlockGcMs <= figures.maxBlockMs, JSON.stringify(figures));
  if (figures.maxOwnBlockMs !== null) {
    assert.ok(figures.maxOwnBlockGcMs > 0 && figures.maxOwnBlockGcMs <= figures.maxOwnBlockMs, JSON.stringify(figures));
  } else {
    assert.strictEqual(figures.maxOwnBlockGcMs, null, 'no own block, no collector part of it');
  }
  assert.deepStrictEqual(Object.keys(JSON.parse(JSON.stringify(figures))).sort(), ['maxBlockAt', 'maxBlockCpuMs', 'maxBlockGcMs', 'maxBlockMs', 'maxBlockWaitMs', 'maxOwnBlockGcMs', 'maxOwnBlockMs', 'p99Ms']);
});

test('the ring sums overlaps, and says unknown once the window is older than what it kept', () => {
  const ring = new PauseRing(3);
  ring.add(10, 12);
  ring.add(20, 25);
  assert.strictEqual(ring.msWithin({ from: 0, to: 100 }), 7);
  assert.strictEqual(ring.msWithin({ from: 11, to: 22 }), 3, 'the parts of two pauses inside the window');
  assert.strictEqual(ring.msWithin({ from: 13, to: 19 }), 0, 'between pauses');
  ring.add(30, 31);
  ring.add(40, 44); // overwrites 10-12: the oldest kept now begins at 20
  assert.strictEqual(ring.msWithin({ from: 20, to: 50 }), 10);
  assert.strictEqual(ring.msWithin({ from: 5, to: 50 }), null, 'the pause at 10 is no longer known');
});
