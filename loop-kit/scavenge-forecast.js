'use strict';
// Keeps V8's scavenges of the young generation (the collector copying its live objects, in one pause) out of the
// slice loop's turns (slices.js). A scavenge comes two ways, and each would stack its pause onto a slice:
// - V8 schedules one as a task once the young generation is most of the way full. Node runs that task in the poll
//   phase of the loop, and the next slice (setImmediate, the check phase) follows it in the same iteration, before
//   the timers: a neighbour waits for the pause and a whole slice. ranSinceLastStep() tells the loop, which then
//   gives the timers a turn before the slice.
// - An allocation that finds it full runs one at once, inside the slice. allowance() tells how much earlier a slice
//   that will fill it should end: the pause seen last.
// Learnt from the slices themselves, so that it needs no flag and no observer: how many bytes a millisecond of work
// allocates (from slices that ran no scavenge), and how long a scavenge pauses (from a slice that ran one: how far it
// overran its deadline). Until a pause has been seen, nothing is taken off. Node 14 syntax.
const v8 = require('v8');

// A step shorter than this says too little about the allocation rate (clock resolution, call overheads).
const MIN_LEARN_MS = 0.5;
// Overruns shorter than this are the last step's ordinary overshoot, not a pause.
const MIN_PAUSE_MS = 1;

/** The young generation's live bytes (new space and its large objects) and the bytes left before it is full. */
function youngGeneration() {
  let used = 0;
  let available = 0;
  for (const space of v8.getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space') {
      used += space.space_used_size;
      available = space.space_available_size;
    } else if (space.space_name === 'new_large_object_space') {
      used += space.space_used_size;
    }
  }
  return { used, available };
}

class ScavengeForecast {
  constructor() {
    this.bytesPerMs = 0;
    this.pauseMs = 0;
    this.before = null;
    this.afterLast = null; // the young generation when the last step ended
  }

  /** Whether a scavenge ran since the last step ended (the young generation holds less than it did then). */
  ranSinceLastStep() {
    return this.afterLast !== null && youngGeneration().used < this.afterLast.used;
  }

  /** Milliseconds to take off a step of budgetMs that starts now: the expected pause, if it will hold one. */
  allowance(budgetMs) {
    this.before = youngGeneration();
    return this.pauseMs > 0 && this.bytesPerMs * budgetMs >= this.before.available ? this.pauseMs : 0;
  }

  /** Learns from the step that ran since allowance(): it took elapsedMs against a deadline budgetMs away. */
  learn(elapsedMs, budgetMs) {
    const after = youngGeneration();
    this.afterLast = after;
    const grown = after.used - this.before.used;
    if (grown >= 0) {
      if (elapsedMs >= MIN_LEARN_MS) this.bytesPerMs = grown / elapsedMs;
    } else if (elapsedMs - budgetMs >= MIN_PAUSE_MS) {
      // The young generation shrank: a scavenge ran in the step, and the step overran by about its pause (or less,
      // when the pause came early and the work stopped at the deadline anyway: then the estimate stays).
      this.pauseMs = elapsedMs - budgetMs;
    }
  }
}

module.exports = { ScavengeForecast, youngGeneration };
