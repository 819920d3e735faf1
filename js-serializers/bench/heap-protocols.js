'use strict';
// How a benchmark's timed runs meet the heap (--heap of bench/shapes-bench.js and bench/shapes-quick.js):
// - steady: no collection between runs. Each finds the garbage the one before left, as a service's parse or stringify
//   finds its young generation partly full, and pays the collections its own allocation brings, the way a harness
//   that times many iterations does.
// - cold: a full collection before each run. Less noise, but a best case for whatever allocates in one burst.
//   Native's JSON.parse of the 11 MB deep tree allocates 13 MB of values: in an emptied 16 MB young generation
//   (NODE24_OPTIONS) that needs no scavenge until after the clock stops, 21 ms cold against 24.5 back to back, while
//   fast, whose turns of the event loop let V8 run its scavenge task once the young generation is 80 % full, pays
//   that scavenge inside its own time. (Not pretenuring: V8 13.6's JSON.parse allocates in the young generation
//   whatever the text's length.)
//   The collection's own aftermath (its freed pages swept and released on other threads) must not fall in the run
//   that follows: coldStart() gives it a turn of the timers. Without it, in bench/shapes-quick.js the run right after
//   native's parse of 200 000 {x, y, z} (which frees the most) met it every round: fast's parse there took 1.07x
//   native with a median slice of 12.3 ms, 0c199e3's after it 0.95x and 5.0 ms; with a 1 ms turn, 0.96x and 5.1 ms
//   against 0.95x and 5.0 (2026-11-29).
// Node 14 syntax.
const HEAP_PROTOCOLS = ['steady', 'cold'];

/** value if it names a protocol; otherwise throws, naming the ones there are. */
function heapProtocol(value) {
  if (!HEAP_PROTOCOLS.includes(value)) throw new Error(`--heap is one of ${HEAP_PROTOCOLS.join(', ')}`);
  return value;
}

/** The cold protocol's start of a run: a full collection (with --expose-gc), then a turn of the timers. */
async function coldStart() {
  if (typeof global.gc === 'function') global.gc();
  await new Promise((resolve) => setTimeout(resolve, 1));
}

module.exports = { HEAP_PROTOCOLS, heapProtocol, coldStart };
