'use strict';
// The fibers-to-async experiment's fiber serializer: plain synchronous recursion that calls Fiber.yield() when it has
// run for `yieldMs`; the driver resumes the fiber from setImmediate, so the event loop runs between slices. No promise
// per value, which is why it stays close to native speed. node-fibers only builds for Node < 16.
// Interruption is the fiber way: once the signal is aborted the fiber is not resumed but reset, which unwinds its
// stack (and frees the pieces written so far) without running another line of the serializer.
// node-fibers holds a fiber's body through a strong handle, so a Fiber reachable from its own body's closure is never
// collected, and with it everything that closure reaches: here the promise and its resolved text, a whole output per
// run (make soak found node14-fibers at 2.5 GB after four minutes). The body shares its scope with `fiber`, so the
// driver drops `fiber` once the fiber has finished or been reset.
const Fiber = require('fibers');
const { SKIP, prepare, cycleGuard } = require('@lab/js-serializers/json-semantics');

const CLOCK_CHECK_EVERY = 100; // values between clock reads

/**
 * Resolves to {text, yields}: text is exactly what JSON.stringify(value) returns. Options: yieldMs (default 5),
 * signal (AbortSignal-like: once aborted, the promise rejects with signal.reason at the next resume), stats (its
 * `yields` kept up to date).
 */
function fiberStringify(value, options) {
  const yieldMs = (options && options.yieldMs) || 5;
  const signal = options && options.signal;
  const stats = (options && options.stats) || {};
  return new Promise((resolve, reject) => {
    let yields = 0;
    let finished = false;
    let fiber = Fiber(() => {
      const guard = cycleGuard();
      const parts = [];
      let sinceCheck = 0;
      let lastYield = Date.now();

      function optionalPause() {
        if (++sinceCheck < CLOCK_CHECK_EVERY) return;
        sinceCheck = 0;
        if (Date.now() - lastYield < yieldMs) return;
        stats.yields = ++yields;
        Fiber.yield();
        lastYield = Date.now();
      }

      function write(key, raw) {
        optionalPause();
        const prepared = prepare(key, raw);
        if (prepared === SKIP) return false;
        if (typeof prepared === 'string') {
          parts.push(prepared);
          return true;
        }
        guard.enter(prepared);
        if (Array.isArray(prepared)) {
          parts.push('[');
          for (let i = 0; i < prepared.length; i++) {
            if (i > 0) parts.push(',');
            if (!write(String(i), prepared[i])) parts.push('null');
          }
          parts.push(']');
        } else {
          parts.push('{');
          let first = true;
          for (const k of Object.keys(prepared)) {
            const mark = parts.length;
            parts.push(first ? '' : ',', JSON.stringify(k), ':');
            if (write(k, prepared[k])) first = false;
            else parts.length = mark;
          }
          parts.push('}');
        }
        guard.leave(prepared);
        return true;
      }

      try {
        const written = write('', value);
        resolve({ text: written ? parts.join('') : undefined, yields });
      } catch (err) {
        // After reset() every Fiber.yield() throws ("This Fiber is a zombie") to unwind the stack: the promise
        // rejects with the signal's reason instead (resume).
        if (!(signal && signal.aborted)) reject(err);
      }
      finished = true;
    });
    const resume = () => {
      if (signal && signal.aborted) {
        fiber.reset();
        fiber = null;
        reject(signal.reason);
        return;
      }
      fiber.run();
      if (finished) fiber = null;
      else setImmediate(resume);
    };
    resume();
  });
}

module.exports = { fiberStringify };
