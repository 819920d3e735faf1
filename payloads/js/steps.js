'use strict';
// A long computation written once, as a generator that yields at safe points (after each record, row or batch), and
// two ways to run it: to its end at once (tests, benchmarks, vectors), or in slices of about yieldMs with a turn of
// the event loop between them (a service generating a 40 MB document while it keeps answering). Node 14 syntax.
const { performance } = require('perf_hooks');
const { runSlices } = require('../../node-kit/slices');

/** Runs steps to the end; returns the generator's return value. */
function runToEnd(steps) {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs steps in slices of about yieldMs (default 5), node-kit's slice loop; resolves the value. */
async function runInSlices(steps, { yieldMs = 5 } = {}) {
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
