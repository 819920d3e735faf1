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
const { OwnGaps, KEPT_GAP_MS } = require('../timer-gap');

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
  if (figures.maxOwnBlockMs !== null) {
    assert.ok(figures.maxOwnBlockLessGcMs <= figures.maxOwnBlockMs, JSON.stringify(figures));
    // The one gap held the pause: outside it, the run's own work was that gap less the pause (a gap shorter than
    // KEPT_GAP_MS counts whole).
    if (figures.maxOwnBlockMs >= KEPT_GAP_MS) assert.ok(figures.maxOwnBlockLessGcMs <= figures.maxBlockMs - figures.maxBlockGcMs + 0.002, JSON.stringify(figures));
  } else {
    assert.strictEqual(figures.maxOwnBlockLessGcMs, null);
  }
  assert.deepStrictEqual(Object.keys(JSON.parse(JSON.stringify(figures))).sort(), ['maxBlockAt', 'maxBlockCpuMs', 'maxBlockGcMs', 'maxBlockMs', 'maxBlockWaitMs', 'maxOwnBlockGcMs', 'maxOwnBlockLessGcMs', 'maxOwnBlockMs', 'p99Ms']);
});

test("the longest block outside the pauses is each gap's own part or its length less its pauses, whichever is less, over every gap", () => {
  const ring = new PauseRing(8);
  ring.add(12, 18); // inside the first gap
  ring.add(29, 33); // across the second and third gaps
  const gaps = new OwnGaps();
  gaps.add(10, 20, 10); // 10 ms, no wait, 6 of pauses: 4
  gaps.add(20, 30, 7); // 10 ms, 3 waited, 1 of pauses: its own part, 7 (the pause may have been the wait)
  gaps.add(30, 35, 5); // 5 ms, 3 of pauses: 2
  assert.strictEqual(ring.longestLessPauses(gaps), 7);
  gaps.add(35, 36, 1); // not kept one by one: counts whole
  assert.strictEqual(gaps.from.length, 3);
  assert.strictEqual(ring.longestLessPauses(gaps), 7);
  const quiet = new OwnGaps();
  quiet.add(40, 41.5, 1.5);
  assert.strictEqual(ring.longestLessPauses(quiet), 1.5, 'only unkept gaps: the longest of them');
  for (let i = 0; i < 8; i++) ring.add(100 + i, 100.5 + i); // 12-18 and 29-33 dropped
  assert.strictEqual(ring.longestLessPauses(gaps), null, 'the first gap is older than the pauses kept');
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
