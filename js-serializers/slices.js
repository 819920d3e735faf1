'use strict';
// What fast-stringify and fast-parse share: working in slices of about yieldMs with a turn of the event loop
// between them, stopping at a slice boundary once a signal aborts. Node 14 syntax.
const { AbortError } = require('../node-kit/abort');
const { nextTurn } = require('./event-loop');

const DEFAULT_YIELD_MS = 5;

/** The error a slice boundary throws once the signal aborted: its reason, or an AbortError when it has none. */
function abortReason(signal) {
  return signal.reason !== undefined ? signal.reason : new AbortError();
}

function throwIfAborted(signal) {
  if (signal && signal.aborted) throw abortReason(signal);
}

/** Checks {yieldMs, signal, stats} (all optional) and returns them with defaults: stats null when not given. */
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
  return { yieldMs, signal, stats };
}

module.exports = { AbortError, DEFAULT_YIELD_MS, abortReason, throwIfAborted, readSliceOptions, nextTurn };
