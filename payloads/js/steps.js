'use strict';
// A long computation written once, as a generator that yields at safe points (after each record, row or batch), and
// the way to run it to its end at once (tests, benchmarks, vectors). A service runs the same steps in slices of about
// yieldMs with a turn of the event loop between them (node-kit's runStepsInSlices), generating a 40 MB document while
// it keeps answering: payloads knows nothing of event loops. Node 14 syntax.
/** Runs steps to the end; returns the generator's return value. */
function runToEnd(steps) {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
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

module.exports = { runToEnd, timesSteps };
