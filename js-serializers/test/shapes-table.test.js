'use strict';
// The shape benchmark's verdict (bench/shapes-table.js) on reports shaped like bench/shapes-bench.js's: each target
// missed is named, a FAIL is never a time, and a block is put down to V8 only when a step V8 takes in one piece on
// that document is itself over the target, or to its collector only when its pauses are all the block has over it;
// a ratio to the collector only when fast is within the target once both approaches' pauses inside their rounds are
// taken out.
const test = require('node:test');
const assert = require('node:assert');
const { verdicts, render } = require('../bench/shapes-table');

const run = (ms, blockMs) => ({ ms, verified: true, timerGapMs: blockMs, eldMaxMs: blockMs, probeP99Ms: 1, probeMaxMs: blockMs, stats: { yields: 3 } });
const result = (approach, kind, ms, blockMs, extra) => Object.assign({
  workload: 'stringify', shape: 'wide', approach, label: approach, kind, bytes: 1e7, warmups: [], runs: [run(ms, blockMs)],
}, extra);
const report = (results) => ({ results });

test('a fast function within 1.5x of native, ahead of the peers and without a long block meets every target', () => {
  const [v] = verdicts(report([result('native', 'native', 100, 100), result('fast chunks()', 'fast', 140, 6), result('peer', 'peer', 200, 5)]));
  assert.deepStrictEqual(v.misses, []);
});

test('each missed target is named: the ratio, the faster peer, the block', () => {
  const [v] = verdicts(report([result('native', 'native', 100, 100), result('fast chunks()', 'fast', 200, 30), result('peer', 'peer', 150, 5)]));
  assert.deepStrictEqual(v.misses, ['2.00× native (target 1.5×)', 'slower than peer (200.0 vs 150.0 ms)', 'a 30.0 ms block (target 10 ms)']);
  assert.strictEqual(v.atFloor, false);
});

test('a block is put down to V8 only when one of its one-piece steps on that document is over the target', () => {
  const keys = { step: 'listing the keys of its widest object (1000000; 0.28 µs a key)', ms: 280 };
  const atFloor = verdicts(report([result('native', 'native', 500, 500), result('fast chunks()', 'fast', 600, 300, { steps: [keys] })]))[0];
  assert.deepStrictEqual(atFloor.misses, ['a 300.0 ms block (target 10 ms); V8\'s floor: listing the keys of its widest object (1000000; 0.28 µs a key) takes 280.0 ms in one piece']);
  assert.strictEqual(atFloor.atFloor, true);
  const small = verdicts(report([result('native', 'native', 500, 500), result('fast chunks()', 'fast', 600, 30, { steps: [Object.assign({}, keys, { ms: 4 })] })]))[0];
  assert.deepStrictEqual(small.misses, ['a 30.0 ms block (target 10 ms)']);
  assert.strictEqual(small.atFloor, false);
});

test('a block is put down to the collector only when its pauses inside it are all the block has over the target', () => {
  const withPauses = (blockMs, inBlockMs) => {
    const fast = result('fast parse()', 'fast', 120, blockMs);
    fast.runs[0].gc = { pauses: 3, longestMs: inBlockMs, inBlockMs, inBlockKind: 'scavenge' };
    return verdicts(report([result('native', 'native', 100, 100), fast]))[0];
  };
  const byCollector = withPauses(14, 6);
  assert.deepStrictEqual(byCollector.misses, ['a 14.0 ms block (target 10 ms); V8\'s collector paused 6.0 ms inside it (scavenge)']);
  assert.strictEqual(byCollector.byCollector, true);
  const slices = withPauses(30, 6);
  assert.deepStrictEqual(slices.misses, ['a 30.0 ms block (target 10 ms)']);
  assert.strictEqual(slices.byCollector, false);
});

test('a ratio is put down to V8 only when fast stays within the target\'s allowance above native plus the work a sliced build must add', () => {
  const withSpread = (fastMs, spreadMs) => {
    const fast = result('fast parse()', 'fast', fastMs, 5, { steps: [{ step: 'inserting the 9 keys of its widest object from JavaScript', ms: spreadMs, keys: 9, spread: true, extra: true }] });
    return verdicts(report([result('native', 'native', 100, 100), fast]))[0];
  };
  const inserting = 'inserting the 9 keys of its widest object from JavaScript';
  const atFloor = withSpread(210, 90);
  assert.deepStrictEqual(atFloor.misses, [`2.10× native (target 1.5×); V8's floor: native's 100.0 ms and ${inserting} (90.0 ms) make 1.90×, the target's allowance above it 2.40×`]);
  assert.deepStrictEqual([atFloor.ratioAtFloor, atFloor.own], [true, 0]);
  // The floor is 1.90×: fast is allowed the target's 0.5× above it, to 2.40×, and no further.
  const farAbove = withSpread(260, 90);
  assert.deepStrictEqual(farAbove.misses, [`2.60× native (target 1.5×); over V8's floor by more than the target allows: native's 100.0 ms and ${inserting} (90.0 ms) make 1.90×, the target's allowance above it 2.40×`]);
  assert.deepStrictEqual([farAbove.ratioAtFloor, farAbove.own], [false, 1]);
  // A floor under the target moves the bound as far as it reaches, no further: 1.45× allows 1.95×, not 2.10×.
  const underTarget = withSpread(190, 45);
  assert.deepStrictEqual([underTarget.ratioAtFloor, underTarget.own], [true, 0]);
  const own = withSpread(210, 45);
  assert.deepStrictEqual(own.misses, [`2.10× native (target 1.5×); over V8's floor by more than the target allows: native's 100.0 ms and ${inserting} (45.0 ms) make 1.45×, the target's allowance above it 1.95×`]);
  assert.deepStrictEqual([own.ratioAtFloor, own.own], [false, 1]);
  // Work besides native's of under 1 % of its time: no floor to name, the target itself.
  const negligible = withSpread(210, 0.5);
  assert.deepStrictEqual(negligible.misses, ['2.10× native (target 1.5×)']);
  assert.deepStrictEqual([negligible.ratioAtFloor, negligible.own], [false, 1]);
  // No work besides native's: the target itself.
  const plain = verdicts(report([result('native', 'native', 100, 100), result('fast parse()', 'fast', 160, 5)]))[0];
  assert.deepStrictEqual(plain.misses, ['1.60× native (target 1.5×)']);
  assert.deepStrictEqual([plain.ratioAtFloor, plain.own], [false, 1]);
});

test('a ratio is put down to the collector only when, its pauses inside both approaches\' rounds taken out, fast is within the target', () => {
  const withPausesInRun = (approach, kind, ms, inRunMs) => {
    const row = result(approach, kind, ms, 5);
    row.runs[0].gc = { pauses: 2, longestMs: inRunMs, inBlockMs: 0, inBlockKind: null, inRunMs };
    return row;
  };
  // Native's collection fell after its clock (2 ms inside), fast's inside its rounds (40 ms): 135 against 98 ms is 1.38×.
  const byCollector = verdicts(report([withPausesInRun('native', 'native', 100, 2), withPausesInRun('fast parse()', 'fast', 175, 40)]))[0];
  assert.deepStrictEqual(byCollector.misses, ['1.75× native (target 1.5×); V8\'s collector paused 40.0 ms inside its rounds (median), ' +
    'native\'s 2.00 ms inside its own: without those pauses 135.0 against 98.0 ms, 1.38×']);
  assert.deepStrictEqual([byCollector.ratioByCollector, byCollector.own], [true, 0]);
  // 20 ms of pauses leave 155 against 98 ms, 1.58×: the work itself is over the target.
  const own = verdicts(report([withPausesInRun('native', 'native', 100, 2), withPausesInRun('fast parse()', 'fast', 175, 20)]))[0];
  assert.deepStrictEqual(own.misses, ['1.75× native (target 1.5×)']);
  assert.deepStrictEqual([own.ratioByCollector, own.own], [false, 1]);
  // Reports from before the pauses inside the rounds were recorded: the target itself.
  const unrecorded = verdicts(report([result('native', 'native', 100, 100), result('fast parse()', 'fast', 175, 5)]))[0];
  assert.deepStrictEqual([unrecorded.ratioByCollector, unrecorded.own], [false, 1]);
});

test('a run whose output was not verified is a failure, never a time', () => {
  const failed = result('fast chunks()', 'fast', 50, 2);
  failed.runs[0].verified = false;
  const [v] = verdicts(report([result('native', 'native', 100, 100), failed]));
  assert.deepStrictEqual(v.misses, ['FAILED: output differs from native']);
});

test('with several passes, a time is the median of all their rounds and the table shows the passes\' spread', () => {
  const fast = result('fast chunks()', 'fast', 0, 6, { runs: [run(130, 6), run(150, 6), run(170, 6), run(140, 6), run(160, 6), run(900, 6)], passMedians: [140, 150] });
  const native = result('native', 'native', 0, 100, { runs: [run(100, 100), run(100, 100)], passMedians: [100, 100] });
  const [v] = verdicts(report([native, fast]));
  assert.deepStrictEqual(v.misses, ['1.60× native (target 1.5×)']);
  const printed = render(Object.assign(report([native, fast]), { loadAverage: [0, 0, 0], peers: {}, rounds: 3, warmups: 1, passes: 2, yieldMs: 5, scale: 1 }));
  assert.match(printed, /\| fast chunks\(\) +\| +160\.0 \| 140\.0-150\.0 \| +1\.60× \|/);
});

test('a small document\'s ratio is the median of its rounds\' ratios to the reference timed beside it, when the report has them', () => {
  const paired = (ms, ratio) => Object.assign(run(ms, 1), { pairedMs: ms / ratio, pairedRatio: ratio });
  const print = (results) => render(Object.assign(report(results), { loadAverage: [0, 0, 0], peers: {}, rounds: 3, warmups: 1, passes: 1, yieldMs: 5, scale: 1 }));
  // Native's own process was the lucky one (29 us against 45 in fast's): apart, 1.55x; paired, each round 1.05-1.2x.
  const native = result('native', 'native', 0.029, 1, { bytes: 5e4 });
  const fast = result('fast stringify()', 'fast', 0, 1, { bytes: 5e4, runs: [paired(0.05, 1.2), paired(0.045, 1.05), paired(0.044, 1.1)] });
  assert.deepStrictEqual(verdicts(report([native, fast]))[0].misses, []);
  assert.match(print([native, fast]), /\| fast stringify\(\) +\| +0\.04 \| +- \| +1\.10× \|/);
  assert.match(print([native, fast]), /the median of its rounds' ratios to that reference timed beside it/);
  // A round whose reference's output was wrong has no ratio: the rows' medians, apart, as in reports from before.
  fast.runs[1].pairedRatio = null;
  assert.deepStrictEqual(verdicts(report([native, fast]))[0].misses, ['1.55× native (target 1.5×)']);
  assert.match(print([native, fast]), /\| fast stringify\(\) +\| +0\.04 \| +- \| +1\.55× \|/);
});

test('pipeTo() is measured against native\'s text written to the same sink, when the report has that row', () => {
  const native = result('native', 'native', 100, 100);
  const written = result('native written', 'reference', 150, 150);
  const pipeTo = result('fast pipeTo()', 'fast', 200, 5, { comparedWith: 'native written' });
  const stringify = result('fast stringify()', 'fast', 200, 5);
  // 200 ms: 1.33x the written text, but 2x native alone, as stringify() is.
  const [ofPipeTo, ofStringify] = verdicts(report([native, written, pipeTo, stringify]));
  assert.deepStrictEqual(ofPipeTo.misses, []);
  assert.deepStrictEqual(ofStringify.misses, ['2.00× native (target 1.5×)']);
  assert.deepStrictEqual(verdicts(report([native, written, result('fast pipeTo()', 'fast', 240, 5, { comparedWith: 'native written' })]))[0].misses,
    ['1.60× native written (target 1.5×)']);
  // A report from before the reference: native alone.
  assert.deepStrictEqual(verdicts(report([native, pipeTo]))[0].misses, ['2.00× native (target 1.5×)']);
  const printed = render(Object.assign(report([native, written, pipeTo]), { loadAverage: [0, 0, 0], peers: {}, rounds: 1, warmups: 1, passes: 1, yieldMs: 5, scale: 1 }));
  assert.match(printed, /\| fast pipeTo\(\) +\| +200\.0 \| +- \| +1\.33× \|/);
});
