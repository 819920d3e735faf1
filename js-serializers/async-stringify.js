'use strict';
// The fibers-to-async experiment's custom async/await serializer: a recursive walk that awaits at every value and,
// every `yieldMs` milliseconds, lets the event loop run (setImmediate). Simple and non-blocking, but each await costs a
// promise, which is what makes it several times slower than native; kept as the original's baseline.
const { SKIP, prepare, cycleGuard } = require('./json-semantics');
const { throwIfAborted } = require('@lab/loop-kit/slices');

const CLOCK_CHECK_EVERY = 100; // values between clock reads: Date.now() on every value would dominate the walk

/**
 * Resolves to exactly what JSON.stringify(value) returns (a string, or undefined). Options: yieldMs (default 5),
 * signal (an AbortSignal-like {aborted}), checked at every yield, and stats, whose `yields` is kept up to date (so
 * an aborted run still tells how often it yielded). Returns {text, yields}.
 */
async function asyncStringify(value, options) {
  const yieldMs = (options && options.yieldMs) || 5;
  const signal = options && options.signal;
  const stats = (options && options.stats) || {};
  const guard = cycleGuard();
  const parts = [];
  let yields = 0;
  let sinceCheck = 0;
  let lastYield = Date.now();

  async function checkAndYield() {
    if (++sinceCheck < CLOCK_CHECK_EVERY) return;
    sinceCheck = 0;
    if (Date.now() - lastYield < yieldMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    stats.yields = ++yields;
    throwIfAborted(signal);
    lastYield = Date.now();
  }

  async function write(key, raw) {
    await checkAndYield();
    const value = prepare(key, raw);
    if (value === SKIP) return false;
    if (typeof value === 'string') {
      parts.push(value);
      return true;
    }
    guard.enter(value);
    if (Array.isArray(value)) {
      parts.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) parts.push(',');
        if (!(await write(String(i), value[i]))) parts.push('null');
      }
      parts.push(']');
    } else {
      parts.push('{');
      let first = true;
      for (const k of Object.keys(value)) {
        const mark = parts.length;
        parts.push(first ? '' : ',', JSON.stringify(k), ':');
        if (await write(k, value[k])) first = false;
        else parts.length = mark;
      }
      parts.push('}');
    }
    guard.leave(value);
    return true;
  }

  const written = await write('', value);
  return { text: written ? parts.join('') : undefined, yields };
}

module.exports = { asyncStringify };
