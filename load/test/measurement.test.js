'use strict';
// The client's per-second samples and the checks of the measurement itself (Little's law), with a given clock: what
// they compute, not how fast anything ran.
const test = require('node:test');
const assert = require('node:assert');
const { perSecondRecorder } = require('../src/scenario/per-second');
const { littlesLaw, saturationFlags } = require('../src/scenario/saturation');

test('responses land in the second they arrived in; silent seconds are samples; a short last second is dropped', () => {
  let now = 1000;
  const recorder = perSecondRecorder(() => now);
  for (const ms of [10, 20, 30, 40]) recorder.record(200, ms);
  now += 1500; // second 1
  recorder.record(500, 100);
  now += 1000; // second 2: nothing; 2.5 s elapsed at finish, so second 2 counts (half a second or more)
  const seconds = recorder.finish();
  assert.deepStrictEqual(seconds.map((s) => [s.second, s.requests, s.non2xx]), [[0, 4, 0], [1, 1, 1], [2, 0, 0]]);
  assert.deepStrictEqual([seconds[0].latencyMeanMs, seconds[0].latencyP50Ms, seconds[0].latencyP99Ms, seconds[0].latencyMaxMs], [25, 20, 40, 40]);
  assert.strictEqual(seconds[2].latencyMeanMs, null);
  assert.strictEqual(recorder.meanLatencyMs(), 40);

  let later = 0;
  const short = perSecondRecorder(() => later);
  short.record(200, 5);
  later = 1200; // 0.2 s into second 1: dropped
  short.record(200, 5);
  assert.deepStrictEqual(short.finish().map((s) => s.requests), [1]);
});

test("Little's law: connections ≈ throughput × mean latency, flagged outside the tolerance, not checked on few answers", () => {
  const busy = littlesLaw(10, 1000, 100, 10); // 100 req/s × 0.1 s = 10 in flight
  assert.strictEqual(busy.holds, true);
  assert.strictEqual(busy.ratio, 1);
  const starved = littlesLaw(10, 200, 100, 10); // 20 req/s × 0.1 s = 2 in flight for 10 connections
  assert.strictEqual(starved.holds, false);
  assert.match(saturationFlags({ reasons: [] }, starved)[0], /Little's law broken: 20 req\/s × 100 ms = 2 in flight for 10 connections/);
  assert.strictEqual(littlesLaw(10, 10, 100, 10).holds, null);
  assert.deepStrictEqual(saturationFlags({ reasons: ['driver CPU busy 95 % of the time'] }, busy), ['client saturated: driver CPU busy 95 % of the time']);
});
