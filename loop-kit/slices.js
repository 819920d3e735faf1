'use strict';
// Work in slices of about yieldMs with a turn of the event loop between them, stopping at a slice boundary once a
// signal aborts: the one slice loop of the lab (fast-stringify, fast-parse, the inputs built in slices, the text
// hash, the WASM transfer's ops), and the options and bounds the serializers share. Node 14 syntax.
const { performance } = require('perf_hooks');
const { AbortError } = require('./abort');
const { nextTurn } = require('./event-loop');
const { ScavengeForecast } = require('./scavenge-forecast');

const DEFAULT_YIELD_MS = 5;
// Work is bounded in characters as well as in time: a slice handles at most about yieldMs × SLICE_CHARS_PER_MS
// characters (and never fewer than MIN_SLICE_CHARS), whatever the clock says. The rate is above what native JSON
// reaches on the machines measured (0.3-0.5 characters per ns here), so the time bound ends a slice first; the
// characters are the bound that holds on any machine, the one the tests check.
const SLICE_CHARS_PER_MS = 1 << 20;
const MIN_SLICE_CHARS = 1 << 16;
// The least part of yieldMs a step gets, however long its consumer took with the slice before.
const MIN_STEP_SHARE = 0.25;

/** The most characters one slice may handle for a given yieldMs. */
const maxSliceChars = (yieldMs) => Math.max(MIN_SLICE_CHARS, Math.floor(yieldMs * SLICE_CHARS_PER_MS));

/** The error a slice boundary throws once the signal aborted: its reason, or an AbortError when it has none. */
function abortReason(signal) {
  return signal.reason !== undefined ? signal.reason : new AbortError();
}

function throwIfAborted(signal) {
  if (signal && signal.aborted) throw abortReason(signal);
}

/**
 * Checks {yieldMs, signal, stats} (all optional) and returns them with defaults (stats null when not given), and
 * maxSliceChars for that yieldMs.
 */
function readSliceOptions(options) {
  const o = options === undefined || options === null ? {} : options;
  const yieldMs = o.yieldMs === undefined ? DEFAULT_YIELD_MS : o.yieldMs;
  if (typeof yieldMs !== 'number' || !(yieldMs > 0) || !Number.isFinite(yieldMs)) {
    throw new RangeError(`yieldMs must be a positive number of milliseconds, got ${String(yieldMs)}`);
  }
  const signal = o.signal === undefined || o.signal === null ? null : o.signal;
  if (signal !== null && typeof signal.aborted !== 'boolean') throw new TypeError('signal must be an AbortSignal');
  const stats = o.stats === undefined ? null : o.stats;
  if (stats !== null && (typeof stats !== 'object' || stats === null)) throw new TypeError('stats must be an object');
  return { yieldMs, signal, stats, maxSliceChars: maxSliceChars(yieldMs) };
}

/**
 * The slice loop. step(deadline) works until the deadline (performance.now() ms) and returns true once the work is
 * done. After each slice this yields step's answer, so a consumer can hand on what the slice made; then, unless the
 * work is done, the event loop gets a turn (counted in stats.yields when stats is given) and an aborted signal stops
 * the loop there (it throws the signal's reason, or an AbortError). A signal aborted before the first slice stops it
 * before any work.
 *
 * The first slice waits for a turn as well (not counted: it splits nothing). Run at once, in the phase of the loop
 * the caller is in (a timer, an I/O callback), it would be followed by the second slice's setImmediate in the same
 * iteration of the loop, before its timers run again: timers would wait two slices, not one.
 *
 * What the consumer does with a slice before it asks for the next (joining its output, writing it) is part of the
 * same turn: the next slice's deadline leaves room for as much again, so that a turn, not only the step, lasts about
 * yieldMs. A step always gets at least MIN_STEP_SHARE of yieldMs.
 *
 * V8's scavenges of the young generation would stack their pauses onto slices (scavenge-forecast.js): after one that
 * ran just before a slice, the timers get a turn first; a step that will fill the young generation ends earlier by
 * the pause last seen.
 */
async function* slicesOf(step, { yieldMs, signal = null, stats = null }) {
  throwIfAborted(signal);
  await nextTurn();
  throwIfAborted(signal);
  let consumerMs = 0;
  const forecast = new ScavengeForecast();
  for (;;) {
    const budget = yieldMs - consumerMs;
    const stepStart = performance.now();
    const stepMs = Math.max(yieldMs * MIN_STEP_SHARE, budget - forecast.allowance(budget));
    const done = step(stepStart + stepMs);
    const stepEnd = performance.now();
    forecast.learn(stepEnd - stepStart, stepMs);
    yield done;
    if (done) return;
    consumerMs = performance.now() - stepEnd;
    await nextTurn();
    if (stats !== null) stats.yields++;
    throwIfAborted(signal);
    if (forecast.ranSinceLastStep()) {
      // A scavenge ran just before this turn's slice: the timers get a turn between its pause and the slice (not
      // counted, like the first: no work is split there).
      await nextTurn();
      throwIfAborted(signal);
    }
  }
}

/** The slice loop run to the end, for work that hands nothing on between slices. */
async function runSlices(step, options) {
  const slices = slicesOf(step, options);
  while (!(await slices.next()).done);
}

/** Runs steps (a generator that yields at safe points) in slices of about yieldMs (default 5); resolves its value. */
async function runStepsInSlices(steps, { yieldMs = DEFAULT_YIELD_MS } = {}) {
  let value;
  await runSlices((deadline) => {
    for (;;) {
      const step = steps.next();
      if (step.done) {
        value = step.value;
        return true;
      }
      if (performance.now() >= deadline) return false;
    }
  }, { yieldMs });
  return value;
}

module.exports = { AbortError, DEFAULT_YIELD_MS, MIN_STEP_SHARE, abortReason, throwIfAborted, readSliceOptions, maxSliceChars, nextTurn, slicesOf, runSlices, runStepsInSlices };
