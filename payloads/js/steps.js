'use strict';
// A long computation written once, as a generator that yields at safe points (after each record, row or batch), and
// two ways to run it: to its end at once (tests, benchmarks, vectors), or in slices of about yieldMs with a turn of
// the event loop between them (a service generating a 40 MB document while it keeps answering). Node 14 syntax.
const { performance } = require('perf_hooks');

/** Runs steps to the end; returns the generator's return value. */
function runToEnd(steps) {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs steps in slices of about yieldMs (default 5) with a setImmediate turn between them; resolves the value. */
async function runInSlices(steps, { yieldMs = 5 } = {}) {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= yieldMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** An array of n items made by make(i), a step after each. */
function* timesSteps(n, make) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = make(i);
    yield;
  }
  return out;
}

module.exports = { runToEnd, runInSlices, timesSteps };
