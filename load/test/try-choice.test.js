'use strict';
// The choice a try run ends with (src/try/try-choice.js), on recorded scenario summaries: the fastest approach, the
// lowest probe p99, the shortest longest block, and the pick: the fastest whose longest block stays under the limit,
// over an approach's rounds, compared with the others on their runs' times (a tie goes to the simpler one); with no
// pick, the limits that would pick one and what would move each block. Properties of given figures, no clock.
const test = require('node:test');
const assert = require('node:assert');
const { chooseApproaches, DEFAULT_BLOCK_MS } = require('../src/try/try-choice');
const { describeChoice } = require('../src/try/try-choice-text');
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
  const choice = chooseApproaches([
    recorded('node-async', 'parse', 'yieldable', { passed: false, problems: ['12 responses not validated'], runMeanMs: null, runs: 0, probeP99Ms: 1, longestBlockMs: 0.5 }),
    recorded('node-async', 'parse', 'json-ext', { passed: false, problems: ['3 connection errors (3 timeouts)'], runMeanMs: 0.1, probeP99Ms: 1, longestBlockMs: 1 }),
    recorded('node-async', 'parse', 'native', { runMeanMs: 3, probeP99Ms: 4, longestBlockMs: 3.2 }),
    recorded('node-async', 'parse', 'fast', { runMeanMs: 3.5, probeP99Ms: 2, longestBlockMs: 2 }),
    recorded('node-async', 'parse', 'stopped-one', { stopped: true, problems: ['stopped'], runMeanMs: 0.01, probeP99Ms: 0.1, longestBlockMs: 0.1 }),
  ]);
  const [g] = choice.groups;
  assert.deepStrictEqual([g.fastest, g.lowestProbe, g.shortestBlock, g.pick], ['native', 'fast', 'fast', 'native']);
  const byName = Object.fromEntries(g.rows.map((r) => [r.approach, r]));
  assert.strictEqual(byName.yieldable.passed, false);
  assert.deepStrictEqual(byName['json-ext'].problems, ['3 connection errors (3 timeouts)']);
  assert.strictEqual(byName['stopped-one'].passed, false);
  const lines = describeChoice(choice);
  assert.match(lines[0], /^each approach ran in 1 interleaved round;/);
  assert.match(lines[1], /^node-async · parse: pick native — /);
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
  assert.match(groups[0].reason, /no approach kept its longest block under 10 ms \(the closest: fast, 15 ms\)/);
  assert.strictEqual(groups[1].reason, 'every approach failed: nothing to pick');
  assert.match(groups[2].reason, /the closest: unknown/, 'a block nobody measured is never under the limit');
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
  assert.match(none.reason, /the closest: json, 14 ms of probe p99, no event loop/);
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
  assert.match(none.reason, /the closest: json, 14 ms of probe p99, no event loop; its slowest run: 40\.5 ms on its thread/);
  // Where the service cannot read the wait, nothing is said of it.
  const unsplit = chooseApproaches([recorded('jvm-serializer', 'serde', 'json', Object.assign({ runMeanMs: 3, probeP99Ms: 4, longestBlockMs: null, longestBlockFrom: null }, thread(40.5, 12.25, null)))], 10, infos).groups[0];
  assert.doesNotMatch(unsplit.reason, /slowest run/);
});

test("a block the machine made is not the approach's: the part its thread waited for a CPU is left out of the limit, and said", () => {
  // Issue 59's case: native charged a 27.8 ms block for a 10.5 ms run, 17.1 ms of it waiting while another process ran.
  const choice = chooseApproaches([
    recorded('node-async', 'stringify', 'native', { longestBlockFrom: 'runs', runMeanMs: 10.5, probeP99Ms: 30, longestBlockMs: 27.8, longestBlockWaitMs: 17.1, longestOwnBlockMs: 10.7 }),
    recorded('node-async', 'stringify', 'fast', { longestBlockFrom: 'runs', runMeanMs: 26, probeP99Ms: 20, longestBlockMs: 19, longestBlockWaitMs: 14, longestOwnBlockMs: 5 }),
  ], 12);
  const [g] = choice.groups;
  assert.deepStrictEqual([g.pick, g.shortestBlock], ['native', 'fast']);
  assert.match(g.reason, /longest block 10\.7 ms of its own \(the longest block 27\.8 ms, 17\.1 ms of it waiting for a CPU\) < 12 ms/);
  assert.deepStrictEqual(g.rows.map((r) => [r.approach, r.longestBlockMs, r.longestBlockWaitMs, r.ownBlockMs, r.accountableMs]), [['native', 27.8, 17.1, 10.7, 10.7], ['fast', 19, 14, 5, 5]]);
  assert.match(describeChoice(choice).join('\n'), /waiting ms\s+own block ms/);

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

/**
 * The summaries of a try run in rounds, in the order try-suite.js runs them: round 1 of every approach, then round 2...
 * figures(approach, round) gives each summary's figures (round from 1).
 */
function inRounds(target, workload, approaches, rounds, figures) {
  const summaries = [];
  for (let round = 1; round <= rounds; round++) {
    for (const approach of approaches) {
      summaries.push(Object.assign(recorded(target, workload, approach, { longestBlockFrom: 'runs' }), { name: `${target}-${workload}-${approach}${round > 1 ? `-r${round}` : ''}` }, figures(approach, round)));
    }
  }
  return summaries;
}

// Each round's run times: ten runs around ms, the same spread in every round.
const runTimes = (ms) => [0.9, 1.1, 0.95, 1.05, 1, 0.92, 1.08, 0.97, 1.03, 1].map((f) => Number((ms * f).toFixed(3)));

test('over 3 rounds an approach is one row: the median of its rounds\' times, its median round\'s block, its worst beside it', () => {
  const own = { native: [12, 6, 7], fast: [3, 30, 4] }; // native over the limit in one round only, fast too
  const ms = { native: [4, 9, 4.2], fast: [5, 5.2, 20] };
  const choice = chooseApproaches(inRounds('node-async', 'stringify', ['native', 'fast'], 3, (a, r) => ({ runMeanMs: ms[a][r - 1], longestBlockMs: own[a][r - 1], longestOwnBlockMs: own[a][r - 1], longestBlockWaitMs: 0, probeP99Ms: r, runs: 10 * r })), 10);
  assert.strictEqual(choice.rounds, 3);
  const [g] = choice.groups;
  assert.strictEqual(g.rounds, 3);
  const native = g.rows.find((r) => r.approach === 'native');
  assert.deepStrictEqual(g.rows.map((r) => r.approach), ['native', 'fast'], 'one row per approach, in the service\'s order');
  assert.deepStrictEqual(native.scenarios, ['node-async-stringify-native', 'node-async-stringify-native-r2', 'node-async-stringify-native-r3']);
  assert.deepStrictEqual([native.runMeanMs, native.accountableMs, native.blockRound, native.worstAccountableMs, native.runs, native.probeP99Ms], [4.2, 7, 3, 12, 60, 2]);
  assert.deepStrictEqual(native.rounds.map((r) => [r.runMeanMs, r.accountableMs]), [[4, 12], [9, 6], [4.2, 7]]);
  // One round over the limit neither excludes native nor lets fast's one slow round count: native is picked.
  assert.strictEqual(g.pick, 'native');
  assert.match(g.reason, /^the fastest, and its longest block stays under 10 ms \(4\.2 ms a run, the median of 3 rounds; longest block 7 ms < 10 ms in its median round\)/);
  const lines = describeChoice(choice);
  assert.match(lines[0], /^each approach ran in 3 interleaved rounds;/);
  assert.ok(lines.some((l) => /^ {2}native .* 4 \/ 9 \/ 4\.2 .* 12 \/ 6 \/ 7 /.test(l)), lines.join('\n'));
});

test('a block over the limit in its median round is over it, whatever its best round was', () => {
  const [g] = chooseApproaches(inRounds('node-async', 'parse', ['native'], 3, (a, r) => ({ runMeanMs: 3, longestBlockMs: [4, 14, 15][r - 1] })), 10).groups;
  assert.strictEqual(g.pick, null);
  assert.match(g.reason, /no approach kept its longest block under 10 ms in its median round \(the closest: native, 14 ms\)/);
});

test('candidates whose run times cannot be told apart are a tie, and the simpler one is picked, with the p-value', () => {
  // fast's rounds are a little faster on average, but its runs' times are the same set as native's.
  const times = runTimes(4);
  const summaries = inRounds('node-async', 'stringify', ['native', 'async', 'fast'], 3, (a) => ({
    runMeanMs: { native: 4.2, async: 40, fast: 4.1 }[a],
    longestBlockMs: { native: 6, async: 3, fast: 2.5 }[a],
    runMsSamples: a === 'async' ? runTimes(40) : times,
  }));
  const choice = chooseApproaches(summaries, 10);
  const [g] = choice.groups;
  assert.strictEqual(g.fastest, 'fast');
  assert.strictEqual(g.pick, 'native');
  assert.deepStrictEqual(g.comparedWith, { approach: 'fast', p: 1, tied: true });
  assert.ok(g.comparedWith.p >= choice.alpha && choice.alpha === 0.05);
  assert.match(g.reason, /^fast and native are indistinguishable on this document \(p = 1\): both keep the loop under 10 ms; native is simpler \(4\.2 ms a run, the median of 3 rounds; longest block 6 ms < 10 ms in its median round\)$/);
  // async, under the limit too but ten times slower, is told apart from the pick.
  const async = g.comparisons.find((c) => c.approach === 'async');
  assert.ok(async.p < 0.05 && async.slower, JSON.stringify(async));
  const lines = describeChoice(choice);
  assert.ok(lines.some((l) => /^ {2}fast .* 1 {2}fastest, shortest block$/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^ {2}async .* <0\.001 {2}/.test(l)), lines.join('\n'));

  // Without native, the tie goes to the one the service lists first.
  const [other] = chooseApproaches(summaries.filter((s) => s.approach !== 'native').map((s) => Object.assign({}, s, { runMsSamples: times })), 10).groups;
  assert.strictEqual(other.pick, 'async');
  assert.match(other.reason, /^fast and async are indistinguishable on this document \(p = 1\): both keep the loop under 10 ms; async comes first in node-async's list/);
});

test('clearly separated run times give the faster one, and the reason says by how sure', () => {
  const [g] = chooseApproaches(inRounds('node-async', 'parse', ['native', 'fast'], 3, (a) => ({
    runMeanMs: { native: 4, fast: 2 }[a],
    longestBlockMs: 5,
    runMsSamples: runTimes({ native: 4, fast: 2 }[a]),
  })), 10).groups;
  assert.strictEqual(g.pick, 'fast');
  assert.strictEqual(g.comparedWith.approach, 'native');
  assert.ok(g.comparedWith.p < 0.05 && !g.comparedWith.tied, JSON.stringify(g.comparedWith));
  assert.match(g.reason, /^the fastest, and its longest block stays under 10 ms \(2 ms a run, the median of 3 rounds; longest block 5 ms < 10 ms in its median round\); faster than native, the next under the limit \(p < 0\.001\)$/);

  // The fastest of all over the limit is named with its p-value against the pick.
  const [over] = chooseApproaches(inRounds('node-async', 'parse', ['native', 'fast'], 3, (a) => ({
    runMeanMs: { native: 2, fast: 4 }[a],
    longestBlockMs: { native: 50, fast: 5 }[a],
    runMsSamples: runTimes({ native: 2, fast: 4 }[a]),
  })), 10).groups;
  assert.strictEqual(over.pick, 'fast');
  assert.match(over.reason, /; native is faster \(2 ms, p < 0\.001\) but blocked for 50 ms$/);
});

test('an approach that failed in one round is failed, with the round, and not picked', () => {
  const [g] = chooseApproaches(inRounds('node-async', 'parse', ['native', 'fast'], 3, (a, r) => ({
    runMeanMs: { native: 4, fast: 2 }[a],
    longestBlockMs: 5,
    ...(a === 'fast' && r === 2 ? { passed: false, problems: ['3 responses not validated'] } : {}),
  })), 10).groups;
  const fast = g.rows.find((r) => r.approach === 'fast');
  assert.strictEqual(fast.passed, false);
  assert.deepStrictEqual(fast.problems, ['round 2: 3 responses not validated']);
  assert.deepStrictEqual(fast.rounds.map((r) => r.passed), [true, false, true]);
  assert.strictEqual(g.pick, 'native');
  assert.ok(describeChoice({ blockMs: 10, rounds: 3, alpha: 0.05, groups: [g] }).some((l) => /^ {2}fast .*FAILED: round 2: 3 responses not validated$/.test(l)));
});

test('with no pick, the reason names what would move each block: the knob the service lists, and none where it lists none', () => {
  const info = { runtime: { name: 'node' }, workloads: { stringify: { approaches: ['native', 'yieldable', 'json-ext', 'fast'], params: { yieldMs: { default: 5, min: 1, max: 1000 } } } } };
  const summaries = inRounds('node-async', 'stringify', ['native', 'yieldable', 'json-ext', 'fast'], 3, (a) => ({ runMeanMs: { native: 50, yieldable: 900, 'json-ext': 300, fast: 90 }[a], longestBlockMs: { native: 51, yieldable: 40, 'json-ext': 30, fast: 15 }[a] }));
  const [g] = chooseApproaches(summaries, 10, { 'node-async': info }).groups;
  assert.strictEqual(g.pick, null);
  assert.deepStrictEqual(g.knobs.map((k) => [k.approach, k.param]), [['native', null], ['yieldable', null], ['json-ext', 'yieldMs'], ['fast', 'yieldMs']]);
  assert.match(g.reason, /\(the closest: fast, 15 ms\); a limit of 16 ms would pick fast, 52 ms would pick native; what moves each block: yieldMs for json-ext and fast \(how long it runs before giving the event loop a turn; 5 by default, 1 at least\), none of node-async's parameters for native and yieldable$/);
  // A service whose /info lists no yieldMs gets no such knob; without its /info nothing is said.
  const bare = { runtime: { name: 'node' }, workloads: { stringify: { approaches: ['native', 'fast'], params: {} } } };
  assert.ok(chooseApproaches(summaries, 10, { 'node-async': bare }).groups[0].knobs.every((k) => k.param === null));
  assert.deepStrictEqual(chooseApproaches(summaries, 10).groups[0].knobs, []);
  assert.doesNotMatch(chooseApproaches(summaries, 10).groups[0].reason, /what moves/);
  // csv: the chunk size moves the approaches that give the loop a turn between chunks, not the synchronous ones.
  const csvInfo = { workloads: { csv: { approaches: ['memory', 'fast'], params: { chunkChars: { default: 65536, min: 1024 } } } } };
  const [csv] = chooseApproaches(inRounds('node-async', 'csv', ['memory', 'fast'], 1, () => ({ runMeanMs: 50, longestBlockMs: 40 })), 10, { 'node-async': csvInfo }).groups;
  assert.match(csv.reason, /what moves each block: chunkChars for fast \(how many characters it parses between turns of the event loop; 65536 by default, 1024 at least\), none of node-async's parameters for memory$/);
  // transfer: yieldMs moves wasm-runner's worker approach only; the others are one synchronous call an op.
  const wasmInfo = { runtime: { name: 'node' }, workloads: { transfer: { approaches: ['typed', 'worker'], params: { yieldMs: { default: 5, min: 1, max: 1000 } } } } };
  const [transfer] = chooseApproaches(inRounds('wasm-runner', 'transfer', ['typed', 'worker'], 1, (a) => ({ runMeanMs: { typed: 300, worker: 800 }[a], longestBlockMs: { typed: 300, worker: 12 }[a] })), 10, { 'wasm-runner': wasmInfo }).groups;
  assert.deepStrictEqual(transfer.knobs.map((k) => [k.approach, k.param]), [['typed', null], ['worker', 'yieldMs']]);
  assert.match(transfer.reason, /what moves each block: yieldMs for worker \(how long its main-thread part of an op runs before giving the event loop a turn; 5 by default, 1 at least\), none of wasm-runner's parameters for typed$/);
});

test("report.html's choice shows the rounds, each round's figures and the p-values, with data attributes a browser reads", () => {
  const { documentChoice } = require('../src/report/choice-html');
  const summaries = inRounds('node-async', 'stringify', ['native', 'fast'], 3, (a, r) => ({ runMeanMs: { native: 4.2, fast: 4.1 }[a] + r / 100, longestBlockMs: 5, runMsSamples: runTimes(4) }));
  const choice = chooseApproaches(summaries, 10);
  const html = documentChoice(choice, { document: 'a'.repeat(64), handOff: {} });
  assert.match(html, /<p class="small" data-rounds="3">Each approach ran in <strong>3<\/strong> interleaved rounds/);
  assert.match(html, /<h3 data-group="node-async\/stringify" data-rounds="3" data-p="1">.*<strong data-pick="node-async\/stringify\/native">native<\/strong><\/h3>/);
  assert.match(html, /<p>fast and native are indistinguishable on this document \(p = 1\): both keep the loop under 10 ms; native is simpler/);
  assert.match(html, /<tr data-approach="fast" data-rounds="3" data-p="1">[^]*?<td class="num">4\.11 \/ 4\.12 \/ 4\.13<\/td>/);
  assert.match(html, /<tr data-approach="native" data-rounds="3" class="pick">/, 'the pick has no p-value against itself');
});

test('a group whose scenarios ran on a busy machine keeps its pick but says it is not a verdict; a quiet one says nothing', () => {
  const machine = (elsewherePercent) => ({ cpus: 2, elsewherePercent, elsewherePeakPercent: elsewherePercent, stealPercent: 0, load1Max: 2, frequencyMHz: null, targetThrottledSeconds: null, busyLimitPercent: 25, busy: elsewherePercent > 25 });
  const { groups } = chooseApproaches([
    recorded('node-async', 'stringify', 'native', { runMeanMs: 4.2, longestBlockMs: 6.1, machineBusy: machine(80) }),
    recorded('node-async', 'stringify', 'fast', { runMeanMs: 5.5, longestBlockMs: 2.4, machineBusy: machine(10) }),
    recorded('node-async', 'parse', 'native', { runMeanMs: 3, longestBlockMs: 3.2, machineBusy: machine(5) }),
    recorded('node-async', 'parse', 'fast', { runMeanMs: 3.5, longestBlockMs: 2, machineBusy: null }),
  ]);
  const [stringify, parse] = groups;
  assert.strictEqual(stringify.pick, 'native');
  assert.match(stringify.reason, /; but the machine was busy in 1 of its 2 scenarios \(up to 80 % of its CPU went to processes outside the lab\): not a verdict$/);
  assert.deepStrictEqual(stringify.machineBusy.busyScenarios, ['node-async-stringify-native']);
  assert.doesNotMatch(parse.reason, /busy/);
  assert.strictEqual(parse.machineBusy.busy, false);
  assert.ok(describeChoice({ blockMs: 10, rounds: 1, alpha: 0.05, groups }).some((line) => /pick native — .*not a verdict$/.test(line)));
});

test("a block the collector's pauses were part of says so; where they alone put approaches over the limit, the reason gives the longest block outside them", () => {
  const own = (ms, gc, lessGc) => ({ longestBlockFrom: 'runs', longestBlockMs: ms, longestBlockWaitMs: 0, longestOwnBlockMs: ms, longestOwnBlockGcMs: gc, longestOwnBlockLessGcMs: lessGc });
  const blocks = { native: own(120, 2, 118), yieldable: own(10.6, 0, 10.6), 'json-ext': own(12.2, 6.5, 5.7), fast: own(15.2, 9.1, 7.4) };
  const summaries = inRounds('node-async', 'parse', ['native', 'yieldable', 'json-ext', 'fast'], 3, (a) => Object.assign({ runMeanMs: { native: 110, yieldable: 8500, 'json-ext': 375, fast: 130 }[a] }, blocks[a]));
  const [g] = chooseApproaches(summaries, 10).groups;
  assert.strictEqual(g.pick, null);
  const fast = g.rows.find((r) => r.approach === 'fast');
  assert.deepStrictEqual([fast.collectorMs, fast.ownLessCollectorMs], [9.1, 7.4]);
  assert.match(g.reason, /\(the closest: yieldable, 10\.6 ms\)/);
  // Fastest first; the closest, with no pause in its block, is not among them; the figure is over every gap, not the
  // longest block less its pauses (15.2 - 9.1).
  assert.match(g.reason, /; outside the collector's pauses, fast's longest was 7\.4 ms, json-ext's 5\.7 ms: the pauses follow what the process allocates and keeps and the runtime's heap settings, which no parameter of an approach moves$/);
  const closestPaused = chooseApproaches(inRounds('node-async', 'parse', ['native', 'fast'], 3, (a) => Object.assign({ runMeanMs: { native: 110, fast: 130 }[a] }, blocks[a])), 10).groups[0];
  assert.match(closestPaused.reason, /\(the closest: fast, 15\.2 ms, 9\.1 ms of it the collector's pauses\)/);
  assert.ok(describeChoice(chooseApproaches(summaries, 10)).some((line) => /collector ms/.test(line)), 'the table has the column');
  // Pauses that are not what put it over the limit are said with the block, and nothing more.
  const [h] = chooseApproaches(inRounds('node-async', 'parse', ['fast'], 3, () => Object.assign({ runMeanMs: 130 }, own(25, 4, 21))), 10).groups;
  assert.match(h.reason, /25 ms, 4 ms of it the collector's pauses\)/);
  assert.doesNotMatch(h.reason, /outside the collector's pauses/);
  // A service that does not say (an older one, or a runtime without the figure) gets neither.
  const unsaid = inRounds('node-async', 'parse', ['fast'], 3, () => Object.assign({ runMeanMs: 130 }, own(15, null, null)));
  assert.doesNotMatch(chooseApproaches(unsaid, 10).groups[0].reason, /collector/);
});
