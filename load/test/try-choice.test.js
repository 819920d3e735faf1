'use strict';
// The choice a try run ends with (src/try-choice.js), on recorded scenario summaries: the fastest approach, the
// lowest probe p99, the shortest longest block, and the pick: the fastest whose longest block stays under the limit.
const test = require('node:test');
const assert = require('node:assert');
const { chooseApproaches, describeChoice, DEFAULT_BLOCK_MS } = require('../src/try/try-choice');
const { round } = require('@lab/loop-kit/round');

/** A scenario summary as summary.js writes it, with the figures the choice reads. */
function recorded(target, workload, approach, figures) {
  return Object.assign({
    name: `${target}-${workload}-${approach}`,
    target,
    workload,
    approach,
    passed: true,
    stopped: false,
    problems: [],
    runs: 20,
    requestsPerSecond: 10,
    longestBlockFrom: 'server lag max',
  }, figures);
}

test('the fastest approach is picked when its longest block stays under the limit', () => {
  const { groups, blockMs } = chooseApproaches([
    recorded('node-async', 'stringify', 'native', { runMeanMs: 4.2, probeP99Ms: 9, longestBlockMs: 6.1 }),
    recorded('node-async', 'stringify', 'fast', { runMeanMs: 5.5, probeP99Ms: 3, longestBlockMs: 2.4 }),
  ]);
  assert.strictEqual(blockMs, DEFAULT_BLOCK_MS);
  assert.strictEqual(groups.length, 1);
  const [g] = groups;
  assert.deepStrictEqual([g.fastest, g.lowestProbe, g.shortestBlock, g.pick], ['native', 'fast', 'fast', 'native']);
  assert.match(g.reason, /the fastest, and its longest block stays under 10 ms \(4\.2 ms a run, longest block 6\.1 ms/);
});

test('the fastest is over the block limit, so the next fastest under it is picked, with the figures that say why', () => {
  const { groups } = chooseApproaches([
    recorded('node14-fibers', 'stringify', 'native', { runMeanMs: 180, probeP99Ms: 210, longestBlockMs: 182.5 }),
    recorded('node14-fibers', 'stringify', 'yieldable', { runMeanMs: 2400, probeP99Ms: 6, longestBlockMs: 8 }),
    recorded('node14-fibers', 'stringify', 'fast', { runMeanMs: 260, probeP99Ms: 5, longestBlockMs: 7.5 }),
    recorded('node14-fibers', 'stringify', 'async', { runMeanMs: 900, probeP99Ms: 4, longestBlockMs: 12 }),
  ], 10);
  const [g] = groups;
  assert.deepStrictEqual([g.fastest, g.lowestProbe, g.shortestBlock, g.pick], ['native', 'async', 'fast', 'fast']);
  assert.match(g.reason, /fastest whose longest block stays under 10 ms \(260 ms a run, longest block 7\.5 ms < 10 ms\); native is faster \(180 ms\) but blocked for 182\.5 ms/);
  // A higher limit lets the fastest through.
  assert.strictEqual(chooseApproaches(groups[0].rows.map((r) => recorded('node14-fibers', 'stringify', r.approach, r)), 200).groups[0].pick, 'native');
});

test('a failed approach is listed as failed and never picked, however fast it was', () => {
  const { groups } = chooseApproaches([
    recorded('node-async', 'parse', 'yieldable', { passed: false, problems: ['12 responses not validated'], runMeanMs: null, runs: 0, probeP99Ms: 1, longestBlockMs: 0.5 }),
    recorded('node-async', 'parse', 'json-ext', { passed: false, problems: ['3 connection errors (3 timeouts)'], runMeanMs: 0.1, probeP99Ms: 1, longestBlockMs: 1 }),
    recorded('node-async', 'parse', 'native', { runMeanMs: 3, probeP99Ms: 4, longestBlockMs: 3.2 }),
    recorded('node-async', 'parse', 'fast', { runMeanMs: 3.5, probeP99Ms: 2, longestBlockMs: 2 }),
    recorded('node-async', 'parse', 'stopped-one', { stopped: true, problems: ['stopped'], runMeanMs: 0.01, probeP99Ms: 0.1, longestBlockMs: 0.1 }),
  ]);
  const [g] = groups;
  assert.deepStrictEqual([g.fastest, g.lowestProbe, g.shortestBlock, g.pick], ['native', 'fast', 'fast', 'native']);
  const byName = Object.fromEntries(g.rows.map((r) => [r.approach, r]));
  assert.strictEqual(byName.yieldable.passed, false);
  assert.deepStrictEqual(byName['json-ext'].problems, ['3 connection errors (3 timeouts)']);
  assert.strictEqual(byName['stopped-one'].passed, false);
  const lines = describeChoice({ blockMs: 10, groups });
  assert.match(lines[0], /^node-async · parse: pick native — /);
  assert.ok(lines.some((l) => /^ {2}yieldable .*FAILED: 12 responses not validated$/.test(l)), lines.join('\n'));
});

test('no pick when every approach failed or none stays under the limit, and one group per service and workload', () => {
  const { groups } = chooseApproaches([
    recorded('node-async', 'stringify', 'native', { runMeanMs: 50, probeP99Ms: 60, longestBlockMs: 51 }),
    recorded('node-async', 'stringify', 'fast', { runMeanMs: 70, probeP99Ms: 20, longestBlockMs: 15 }),
    recorded('node-async', 'parse', 'native', { passed: false, problems: ['HTTP 404'], runMeanMs: null, runs: 0, probeP99Ms: null, longestBlockMs: null }),
    recorded('node14-fibers', 'stringify', 'native', { runMeanMs: 50, probeP99Ms: 60, longestBlockMs: null, longestBlockFrom: null }),
    { name: 'node-async-offload', target: 'node-async', workload: null, approach: null, passed: true, problems: [] },
  ], 10);
  assert.deepStrictEqual(groups.map((g) => `${g.target}/${g.workload}:${g.pick}`), ['node-async/stringify:null', 'node-async/parse:null', 'node14-fibers/stringify:null']);
  assert.match(groups[0].reason, /no approach kept its longest block under 10 ms \(the shortest: fast, 15 ms\)/);
  assert.strictEqual(groups[1].reason, 'every approach failed: nothing to pick');
  assert.match(groups[2].reason, /the shortest: unknown/, 'a block nobody measured is never under the limit');
});

test('a runtime without an event loop (the JVM) is judged by the probe p99 beside its runs, and the reason says so', () => {
  const infos = { 'jvm-serializer': { runtime: { name: 'jvm' } }, 'node-async': { runtime: { name: 'node' } } };
  const summaries = [
    recorded('jvm-serializer', 'serde', 'json', { runMeanMs: 3, probeP99Ms: 14, longestBlockMs: null, longestBlockFrom: null }),
    recorded('jvm-serializer', 'serde', 'jackson', { runMeanMs: 5, probeP99Ms: 4, longestBlockMs: null, longestBlockFrom: null }),
    recorded('jvm-serializer', 'serde', 'jackson-cbor', { runMeanMs: 4, probeP99Ms: null, longestBlockMs: null, longestBlockFrom: null }),
    recorded('node-async', 'parse', 'native', { runMeanMs: 3, probeP99Ms: 2, longestBlockMs: null, longestBlockFrom: null }),
  ];
  const { groups } = chooseApproaches(summaries, 10, infos);
  const [jvm, node] = groups;
  assert.strictEqual(jvm.pick, 'jackson', 'json is faster but its probe p99 is over the limit; jackson-cbor has no probe figure');
  assert.match(jvm.reason, /no event loop: the probe's p99 4 ms stands in for the longest block < 10 ms/);
  assert.match(jvm.reason, /json is faster \(3 ms\) but its probe p99 was 14 ms$/);
  const none = chooseApproaches(summaries.slice(0, 1), 10, infos).groups[0];
  assert.match(none.reason, /the shortest: json, 14 ms of probe p99, no event loop/);
  assert.deepStrictEqual(jvm.rows.map((r) => r.longestBlockFrom), ['probe p99 (no event loop)', 'probe p99 (no event loop)', null]);
  assert.strictEqual(node.pick, null, 'a Node service with no block figure gets no stand-in: its event loop could have blocked');
  assert.strictEqual(chooseApproaches(summaries, 10).groups[0].pick, null, 'without the /infos nothing says the JVM has no event loop');
});

test("a JVM row says how long its slowest run's thread waited for a CPU, and the probe stand-in stays what the limit holds", () => {
  const infos = { 'jvm-serializer': { runtime: { name: 'jvm' } } };
  // Beside two CPU hogs: json's slowest run spent most of its wall time waiting for a CPU.
  const thread = (wall, cpu, wait) => ({ longestRunWallMs: wall, longestRunCpuMs: cpu, longestRunWaitMs: wait, runWaitShare: round(wait / wall) });
  const summaries = [
    recorded('jvm-serializer', 'serde', 'json', Object.assign({ runMeanMs: 3, probeP99Ms: 14, longestBlockMs: null, longestBlockFrom: null }, thread(40.5, 12.25, 27))),
    recorded('jvm-serializer', 'serde', 'jackson', Object.assign({ runMeanMs: 5, probeP99Ms: 4, longestBlockMs: null, longestBlockFrom: null }, thread(9, 6, 0.5))),
  ];
  const [g] = chooseApproaches(summaries, 10, infos).groups;
  assert.strictEqual(g.pick, 'jackson', "json's probe p99 is over the limit, whatever its thread waited");
  assert.deepStrictEqual(g.rows.map((r) => [r.approach, r.accountableMs, r.longestRunWallMs, r.longestRunCpuMs, r.longestRunWaitMs]), [['json', 14, 40.5, 12.25, 27], ['jackson', 4, 9, 6, 0.5]]);
  assert.match(g.reason, /stands in for the longest block < 10 ms; its slowest run: 9 ms on its thread, 6 ms of it on a CPU, 0\.5 ms waiting for one\)/);
  assert.match(g.reason, /but its probe p99 was 14 ms; its slowest run: 40\.5 ms on its thread, 12\.25 ms of it on a CPU, 27 ms waiting for one$/);
  const none = chooseApproaches(summaries.slice(0, 1), 10, infos).groups[0];
  assert.match(none.reason, /the shortest: json, 14 ms of probe p99, no event loop; its slowest run: 40\.5 ms on its thread/);
  // Where the service cannot read the wait, nothing is said of it.
  const unsplit = chooseApproaches([recorded('jvm-serializer', 'serde', 'json', Object.assign({ runMeanMs: 3, probeP99Ms: 4, longestBlockMs: null, longestBlockFrom: null }, thread(40.5, 12.25, null)))], 10, infos).groups[0];
  assert.doesNotMatch(unsplit.reason, /slowest run/);
});

test("a block the machine made is not the approach's: the part its thread waited for a CPU is left out of the limit, and said", () => {
  // Issue 59's case: native charged a 27.8 ms block for a 10.5 ms run, 17.1 ms of it waiting while another process ran.
  const { groups } = chooseApproaches([
    recorded('node-async', 'stringify', 'native', { longestBlockFrom: 'runs', runMeanMs: 10.5, probeP99Ms: 30, longestBlockMs: 27.8, longestBlockWaitMs: 17.1, longestOwnBlockMs: 10.7 }),
    recorded('node-async', 'stringify', 'fast', { longestBlockFrom: 'runs', runMeanMs: 26, probeP99Ms: 20, longestBlockMs: 19, longestBlockWaitMs: 14, longestOwnBlockMs: 5 }),
  ], 12);
  const [g] = groups;
  assert.deepStrictEqual([g.pick, g.shortestBlock], ['native', 'fast']);
  assert.match(g.reason, /longest block 10\.7 ms of its own \(the longest block 27\.8 ms, 17\.1 ms of it waiting for a CPU\) < 12 ms/);
  assert.deepStrictEqual(g.rows.map((r) => [r.approach, r.longestBlockMs, r.longestBlockWaitMs, r.ownBlockMs, r.accountableMs]), [['native', 27.8, 17.1, 10.7, 10.7], ['fast', 19, 14, 5, 5]]);
  assert.match(describeChoice({ blockMs: 12, groups }).join('\n'), /waiting ms\s+own block ms/);

  // An approach's own block over the limit is over it, however little the machine added.
  const over = chooseApproaches([recorded('node-async', 'stringify', 'native', { longestBlockFrom: 'runs', runMeanMs: 30, probeP99Ms: 40, longestBlockMs: 31, longestBlockWaitMs: 0.2, longestOwnBlockMs: 30.8 })], 12).groups[0];
  assert.strictEqual(over.pick, null);
  // A service that cannot split its blocks (no own figure) is held to the whole block, as before.
  const whole = chooseApproaches([recorded('node-async', 'stringify', 'native', { longestBlockFrom: 'runs', runMeanMs: 3, probeP99Ms: 4, longestBlockMs: 13, longestBlockWaitMs: null, longestOwnBlockMs: null })], 12).groups[0];
  assert.strictEqual(whole.pick, null);
  assert.strictEqual(whole.rows[0].accountableMs, 13);
});

test('with no pick, the summary says which limit would pick which approach; one a faster approach out-blocks never is', () => {
  // wasm-runner's transfer on a 370 KB document beside two CPU hogs (own block ms): typed the fastest, json next.
  const rows = [['json', 9.883, 19.107], ['embind', 46.844, 52.796], ['msgpack', 14.67, 40.822], ['msgpackr', 10.38, 17.928], ['typed', 6.052, 28.462]];
  const [g] = chooseApproaches(rows.map(([approach, runMeanMs, own]) => recorded('wasm-runner', 'transfer', approach, { longestBlockFrom: 'runs', runMeanMs, probeP99Ms: 50, longestBlockMs: own + 10, longestBlockWaitMs: 10, longestOwnBlockMs: own })), 10).groups;
  assert.strictEqual(g.pick, null);
  // msgpackr at 18 ms (json, faster, blocks 19.1: over 18); json at 20 ms; typed, the fastest, at 29 ms. msgpack and
  // embind never: a faster approach blocks less.
  assert.deepStrictEqual(g.limitsToPick, [{ approach: 'msgpackr', blockMs: 18 }, { approach: 'json', blockMs: 20 }, { approach: 'typed', blockMs: 29 }]);
  assert.match(g.reason, /a limit of 18 ms would pick msgpackr, 20 ms would pick json, 29 ms would pick typed$/);
  // Each limit does pick its approach.
  for (const { approach, blockMs } of g.limitsToPick) {
    const [again] = chooseApproaches(rows.map(([a, runMeanMs, own]) => recorded('wasm-runner', 'transfer', a, { longestBlockFrom: 'runs', runMeanMs, probeP99Ms: 50, longestBlockMs: own + 10, longestBlockWaitMs: 10, longestOwnBlockMs: own })), blockMs).groups;
    assert.strictEqual(again.pick, approach, `${blockMs} ms`);
  }
});
