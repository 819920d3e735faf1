'use strict';
// One child of bench/shapes-bench.js: one approach on one document, in a process of its own so that another
// library's garbage and JIT state cannot bias it. It rebuilds the document (the shape family is deterministic) or
// reads the user's file, computes native's output hash as the reference (untimed), calls the approach back to back
// for spec.warmMs (untimed: its JavaScript optimized, as a service's is after its first requests), then times warm-ups
// and rounds, verifying every output against the reference after the clock stops, and prints one JSON line:
//   {bytes, referenceHash, warmCalls, repeats, warmups: [run], runs: [run], steps: [{step, ms}]}
//   run: {ms, verified, error?, timerGapMs, eldMaxMs, probeP99Ms, probeMaxMs, probeTicks, gc, stats, singleMs?,
//         pairedMs?, pairedRatio?}
//   A round is one call, timed with the loop's figures around it. For a document under 1 MB (repeats > 1,
//   bench/repeated-calls.js) a run of `repeats` calls back to back follows it, untimed by the figures: ms is then the
//   mean of those calls and gc.inRunMs their collector's pauses (a call's mean), singleMs the lone call's time, whose
//   figures give the block. On a document under 1 MB, an approach that is not a reference itself then has its
//   reference (native, or its comparedWith) timed beside it in the same round, call for call, MIN_PAIRS pairs at least
//   (timeInterleaved): pairedMs is the reference's call (the mean), pairedRatio the median of the pairs' ratios (null
//   when an output was wrong). The calls of a small document last tens of microseconds, and the same call timed in
//   two processes differed by up to 2x (where the heap and the code landed), which a ratio of two processes' medians
//   carried whole; in one process, a run of calls right after the round's pause ran up to 1.5x slower than the next
//   one (a run of fast first and native after read 1.51x, the other way round 0.72x, on the same 185 us document);
//   and a scavenge that the two approaches' garbage together brings falls in a call of either (parse of large leaves:
//   a round's sums read 0.8x or 1.3x by where it fell). Calls taking turns meet the same luck, and the pairs' median
//   leaves a pause that fell in one call out of the ratio; the row's ms and gc in run keep it.
//   gc: the collector's pauses during the run (bench/gc-pauses.js): {pauses, longestMs, inBlockMs, inBlockKind,
//   inRunMs}, where the block is the longest timer gap and inRunMs the pauses inside the run's own clock
//   steps: the one-piece steps V8 takes that the approach cannot avoid on this document (bench/v8-steps.js), and,
//   marked spread, the ones it takes over its slices; marked extra, the work it must do besides native's own. Timed
//   after the runs.
//
//   node --expose-gc js-serializers/bench/shape-run.js '<spec>'
// where spec is JSON: {workload, approach, shape (a name in bench/shapes.js), member (a name in bench/tree-families.js
// at that scale) or file (the user's, or a corpus document), scale, warmMs, warmups, rounds, yieldMs,
// heap ('steady' or 'cold': bench/shapes-bench.js's --heap), steps (false: V8's steps are not timed, and steps is [])}.
// Node 14 syntax (the lint's rule for js-serializers/), although only Node 24 runs it.
const fs = require('fs');
const crypto = require('crypto');
const { performance, monitorEventLoopDelay } = require('perf_hooks');
const { shapeNamed, textOf } = require('./shapes');
const { memberNamed } = require('./tree-families');
const { approachOf } = require('./shape-approaches');
const { startLatenessProbe } = require('./lateness-probe');
const { stringifySteps, parseSteps, PARSE_PIECE_CHARS } = require('./v8-steps');
const { startGapWindowMonitor } = require('@lab/loop-kit/timer-gap');
const { startGcPauses } = require('./gc-pauses');
const { round } = require('@lab/loop-kit/round');
const { repeatsFor } = require('./repeated-calls');
const { SMALL_BYTES } = require('./family-summary');
const { median } = require('@lab/bench-kit');

// The delay histogram records nothing until its timer has fired once (its first tick only sets the baseline), so a
// block right after enable() goes unseen, and a native call is nothing but that block: it is armed this long before
// the clock starts. After a run, the timers get as long again to fire, so that the histogram, which records a block
// at its next tick, also sees the block a run ends with.
const SETTLE_MS = 3;
// The most untimed calls of the warm-up, a bound for documents of a few microseconds. Not fewer: after 300 calls of a
// 66 KB document (0.05 ms native), V8 had not finished optimizing fast's one step in every process, and one process in
// two timed it at 2-3 times what the others did (0.15-0.28 ms against 0.06-0.09); after 2000-3000, none did.
const MAX_WARM_CALLS = 3000;
// A small document's round times at least this many pairs of calls beside its reference (timeInterleaved), so that the
// median of their ratios is one: a document of 0.8 MB that native does in about 2 ms made runs of one or two calls,
// and a round's median of two pairs was its worse one (1.72x where the other read 1.06x).
const MIN_PAIRS = 7;

const sha256 = (text) => crypto.createHash('sha256').update(text === undefined ? '' : text).digest('hex');
const collectGarbage = () => typeof global.gc === 'function' && global.gc();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The workload's input and the hash every output must match: stringify takes the value and must produce native's
 * text; parse takes the text and must produce a value whose native JSON text is that of native's parse.
 */
function prepare(spec) {
  const fromFile = spec.file !== undefined;
  const text = fromFile ? fs.readFileSync(spec.file, 'utf8') : null;
  // A generated document's value: a tree family's member, or a shape.
  const make = () => (spec.member !== undefined ? memberNamed(spec.member, spec.scale).make() : shapeNamed(spec.shape).make(spec.scale));
  if (spec.workload === 'stringify') {
    const value = fromFile ? JSON.parse(text) : make();
    const reference = JSON.stringify(value);
    return { input: value, reference, bytes: Buffer.byteLength(reference), referenceHash: sha256(reference) };
  }
  // A member's text is its value's compact JSON; a shape's, as the shape says (some are pretty-printed).
  const input = fromFile ? text : spec.member !== undefined ? JSON.stringify(make()) : textOf(shapeNamed(spec.shape), make());
  return { input, bytes: Buffer.byteLength(input), referenceHash: sha256(JSON.stringify(JSON.parse(input))) };
}

/** The hash of an output: a stringify approach's text (or chunks, joined), a parse approach's value as native text. */
function outputHash(workload, output) {
  if (workload === 'parse') return sha256(JSON.stringify(output));
  return sha256(Array.isArray(output) ? output.join('') : output);
}

/**
 * The three views of the loop during a run: the longest gap between ticks of a 1 ms interval timer, the max of a
 * 1 ms-resolution event-loop delay histogram, and the lateness of a concurrent 1 ms-period task; and beside them the
 * collector's pauses, and how much of that longest gap and of the run's timed span (stop's run, {from, to}) they
 * took. Resolves once the histogram is armed; the timer and the task start then, just before the run.
 */
async function startLoopFigures() {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await sleep(SETTLE_MS);
  const stopGap = startGapWindowMonitor();
  const stopProbe = startLatenessProbe();
  const stopGc = startGcPauses();
  return function stop(run) {
    const probe = stopProbe();
    const gap = stopGap();
    const gc = stopGc(gap, run);
    histogram.disable();
    return {
      timerGapMs: round(gap.ms),
      eldMaxMs: round(histogram.max / 1e6),
      probeP99Ms: round(probe.p99Ms),
      probeMaxMs: round(probe.maxMs),
      probeTicks: probe.ticks,
      gc: { pauses: gc.pauses, longestMs: round(gc.longestMs), inBlockMs: round(gc.inBlockMs), inBlockKind: gc.inBlockKind, inRunMs: round(gc.inRunMs) },
    };
  };
}

/**
 * One round: its lone call with the loop's figures, then, for a small document, its run of calls (timeRepeated) and,
 * when pairedRun is given (the reference's), both again taking turns call for call (timeInterleaved), the reference
 * first in odd rounds.
 */
async function measureOnce(run, prepared, spec, pairedRun, roundIndex) {
  if (spec.heap === 'cold') collectGarbage();
  const stats = {};
  const stopFigures = await startLoopFigures();
  const started = performance.now();
  let output;
  let error;
  try {
    output = await run(prepared.input, { yieldMs: spec.yieldMs, stats });
  } catch (err) {
    error = err;
  }
  const ended = performance.now();
  const ms = ended - started;
  await sleep(SETTLE_MS);
  const figures = stopFigures({ from: started, to: ended });
  const result = Object.assign({ ms: round(ms), verified: false }, figures, { stats });
  if (error) return Object.assign(result, { error: errorText(error) });
  result.verified = outputHash(spec.workload, output) === prepared.referenceHash;
  if (prepared.repeats > 1 && result.verified) {
    const repeated = await timeRepeated(run, prepared, spec);
    Object.assign(result, { ms: round(repeated.ms), singleMs: result.ms, verified: repeated.verified }, repeated.error ? { error: repeated.error } : {});
    result.gc.inRunMs = round(repeated.gcInRunMs);
  }
  if (pairedRun !== null && result.verified) {
    const paired = await timeInterleaved(run, pairedRun, prepared, spec, roundIndex % 2 === 1);
    result.pairedMs = round(paired.pairedMs);
    result.pairedRatio = paired.verified ? round(paired.ratio, 4) : null;
  }
  return result;
}

const errorText = (error) => String(error && error.message ? error.message : error);

/**
 * prepared.repeats calls back to back, with no timers or probes armed: {ms, gcInRunMs (a call's, the means: its time
 * and the collector's pauses inside the clock), verified (the last call's output, checked after the clock), error?}.
 * Only the last output is kept: keeping each one alive to the end made the run's scavenges copy them all (about
 * 1.5 ms on the 64 KB texts of the trees of long strings, in two rounds of three), a cost no service pays. The calls
 * are one deterministic function on one input, and the lone call before them is verified too.
 */
async function timeRepeated(run, prepared, spec) {
  let output;
  const stopGc = startGcPauses();
  const started = performance.now();
  try {
    for (let call = 0; call < prepared.repeats; call++) output = await run(prepared.input, { yieldMs: spec.yieldMs, stats: {} });
  } catch (error) {
    stopGc();
    return { ms: NaN, gcInRunMs: NaN, verified: false, error: errorText(error) };
  }
  const ended = performance.now();
  // Node records a pause once the loop turns after it: none would be seen yet.
  await sleep(SETTLE_MS);
  const gc = stopGc(undefined, { from: started, to: ended });
  return {
    ms: (ended - started) / prepared.repeats,
    gcInRunMs: gc.inRunMs / prepared.repeats,
    verified: outputHash(spec.workload, output) === prepared.referenceHash,
  };
}

/**
 * The approach and its reference (pairedRun) taking turns, call for call, prepared.repeats calls each and MIN_PAIRS at
 * least, the reference first when pairedFirst: {pairedMs (the reference's call, the mean), ratio (the median of the pairs' ratios),
 * verified (both last outputs right)}. Each call is timed alone; a clock read costs well under a microsecond, on
 * calls of tens.
 */
async function timeInterleaved(run, pairedRun, prepared, spec, pairedFirst) {
  const options = { yieldMs: spec.yieldMs, stats: {} };
  const first = pairedFirst ? pairedRun : run;
  const second = pairedFirst ? run : pairedRun;
  const ratios = [];
  let pairedMs = 0;
  const outputs = [undefined, undefined];
  try {
    const pairs = Math.max(prepared.repeats, MIN_PAIRS);
    for (let call = 0; call < pairs; call++) {
      const started = performance.now();
      outputs[0] = await first(prepared.input, options);
      const between = performance.now();
      outputs[1] = await second(prepared.input, options);
      const [runMs, referenceMs] = pairedFirst ? [performance.now() - between, between - started] : [between - started, performance.now() - between];
      ratios.push(runMs / referenceMs);
      pairedMs += referenceMs;
    }
  } catch (error) {
    return { pairedMs: NaN, ratio: NaN, verified: false };
  }
  const verified = outputs.every((output) => outputHash(spec.workload, output) === prepared.referenceHash);
  return { pairedMs: pairedMs / ratios.length, ratio: median(ratios), verified };
}

/** Native's time for one call of the workload on the input (the median of three, after the warm-up): repeatsFor's measure. */
function nativeCallMs(prepared, spec) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    if (spec.workload === 'stringify') JSON.stringify(prepared.input);
    else JSON.parse(prepared.input);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[1];
}

/**
 * Calls run back to back, untimed and with no figures taken, until warmMs have passed or MAX_WARM_CALLS calls were
 * made (one at least: a shape of 10-40 MB gets one call more), so that the timed runs meet the optimized code a
 * service runs after its first requests: with only a few timed warm-ups, a small document was timed in fast's
 * unoptimized JavaScript against native's C++, 2-5x native, where the same calls back to back took 1.0-1.3x.
 * Resolves to the number of calls; a failing call ends the warm-up (the timed runs report the failure).
 */
async function warmUp(run, prepared, spec) {
  const started = performance.now();
  let calls = 0;
  while (calls < MAX_WARM_CALLS && performance.now() - started < spec.warmMs) {
    calls++;
    const succeeded = await Promise.resolve()
      .then(() => run(prepared.input, { yieldMs: spec.yieldMs, stats: {} }))
      .then(() => true, () => false);
    if (!succeeded) break;
  }
  return calls;
}

async function main() {
  const spec = JSON.parse(process.argv[2]);
  const approach = approachOf(spec.workload, spec.approach);
  const run = approach.load();
  const prepared = prepare(spec);
  const warmups = [];
  const runs = [];
  const warmCalls = await warmUp(run, prepared, spec);
  prepared.repeats = repeatsFor(prepared.bytes, nativeCallMs(prepared, spec));
  // The reference this approach's ratio is taken against, timed beside it in each round of a small document.
  const isReference = approach.kind === 'native' || approach.kind === 'reference';
  const pairedRun = prepared.bytes < SMALL_BYTES && !isReference ? approachOf(spec.workload, approach.comparedWith || 'native').load() : null;
  if (pairedRun !== null) await warmUp(pairedRun, prepared, spec);
  for (let i = 0; i < spec.warmups; i++) warmups.push(await measureOnce(run, prepared, spec, pairedRun, i));
  for (let i = 0; i < spec.rounds; i++) runs.push(await measureOnce(run, prepared, spec, pairedRun, i));
  const steps = spec.steps === false ? [] : (spec.workload === 'stringify'
    ? stringifySteps(prepared.input, { flattens: approach.flattens === true, output: prepared.reference })
    : parseSteps(JSON.parse(prepared.input), { splitChars: PARSE_PIECE_CHARS })).map((s) => Object.assign(s, { ms: round(s.ms) }));
  process.stdout.write(`${JSON.stringify({ bytes: prepared.bytes, referenceHash: prepared.referenceHash, warmCalls, repeats: prepared.repeats, warmups, runs, steps })}\n`);
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exitCode = 1;
});
