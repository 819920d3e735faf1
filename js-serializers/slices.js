'use strict';
// What fast-stringify and fast-parse share: working in slices of about yieldMs with a turn of the event loop
// between them, stopping at a slice boundary once a signal aborts. Node 14 syntax.
const { AbortError } = require('../node-kit/abort');
const { nextTurn } = require('./event-loop');

const DEFAULT_YIELD_MS = 5;
// Work is bounded in characters as well as in time: a slice handles at most about yieldMs × SLICE_CHARS_PER_MS
// characters (and never fewer than MIN_SLICE_CHARS), whatever the clock says. The rate is above what native JSON
// reaches on the machines measured (0.3-0.5 characters per ns here), so the time bound ends a slice first; the
// characters are the bound that holds on any machine, the one the tests check.
const SLICE_CHARS_PER_MS = 1 << 20;
const MIN_SLICE_CHARS = 1 << 16;

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

module.exports = { AbortError, DEFAULT_YIELD_MS, abortReason, throwIfAborted, readSliceOptions, maxSliceChars, nextTurn };
