'use strict';
// Why a service stalls, beside the lag that shows THAT it does: how busy its event loop was (event-loop utilization)
// and the collector's pauses. Node 14 syntax: node14-fibers (Node 14.21, prom-client 14) registers these as node-async
// and wasm-runner (Node 24, prom-client 15) do.
//
// Not prom-client's own nodejs_gc_duration_seconds: its observer keeps only the first entry of each batch the
// PerformanceObserver hands it (list.getEntries()[0], prom-client 14.2 and 15.1), and Node 24 batches collections
// that follow each other closely (34 collections seen, 24 recorded, in a 1.5 s allocation loop here), so it undercounts
// pauses exactly when they pile up. Its buckets (1 ms, 10 ms, 100 ms, ...) also put every scavenge in the first one.
// It stays exported (prom-client has no switch for it alone); the lab reads lab_gc_pause_seconds.
const { performance, PerformanceObserver } = require('perf_hooks');
const { threadClock } = require('@lab/node-agent/thread-clock');
// A gc entry's kind, as the agent reads it (Node 14's entry.kind, later Node's entry.detail.kind).
const { kindOf } = require('@lab/node-agent/gc-pauses');

/**
 * Registers in `registry` (names: metrics.js' METRIC, buckets: its GC_PAUSE_BUCKETS):
 * - loopBusy, a counter of the seconds the event loop was busy (performance.eventLoopUtilization().active, read at
 *   each scrape): its rate is the event-loop utilization, and its increase over a window divided by the window is
 *   that window's mean ELU, which no sampled gauge could give exactly.
 * - gcPause, a histogram of every collector pause by kind;
 * - gcPauseMax, the longest pause since the last scrape (0 if none), as prom-client's lag max describes the interval
 *   before each scrape: the histogram cannot say how long its longest pause was, nor when;
 * - loopCpuWait, a counter of the seconds the event loop's thread was ready to run but waited for a CPU another
 *   process or thread held (@lab/node-agent/thread-clock, read at each scrape; where the clock can be read): its rate is
 *   the share of each second the machine, not the service's code, held the loop up.
 */
/** A counter of registry whose value is read(), a running total kept elsewhere, taken anew at each scrape. */
function counterReadAtScrape(promClient, registry, name, help, read) {
  return new promClient.Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function registerRuntimeMetrics(promClient, registry, names, gcBuckets) {
  let countedActiveMs = 0;
  new promClient.Counter({
    name: names.loopBusy,
    help: 'Seconds the event loop was busy (performance.eventLoopUtilization().active); its rate is the event-loop utilization',
    registers: [registry],
    collect() {
      const activeMs = performance.eventLoopUtilization().active;
      this.inc(Math.max(0, activeMs - countedActiveMs) / 1000);
      countedActiveMs = Math.max(countedActiveMs, activeMs);
    },
  });
  const pauses = new promClient.Histogram({
    name: names.gcPause,
    help: 'Garbage collection pauses by kind (major, minor, incremental, weakcb), every one the perf_hooks observer reports',
    labelNames: ['kind'],
    buckets: gcBuckets,
    registers: [registry],
  });
  let longestSinceScrape = 0;
  new promClient.Gauge({
    name: names.gcPauseMax,
    help: 'The longest garbage collection pause since the last scrape (0 if none)',
    registers: [registry],
    collect() {
      this.set(longestSinceScrape);
      longestSinceScrape = 0;
    },
  });
  // Registered and scraped on the event loop's thread, so the clock is that thread's (the runs' watches read it too).
  const clock = threadClock();
  if (clock) {
    const startedWaitMs = clock.read().waitMs;
    counterReadAtScrape(promClient, registry, names.loopCpuWait, "Seconds the event loop's thread was ready to run but waited for a CPU (its schedstat run-queue time); its rate is the share the machine held the loop up", () => (clock.read().waitMs - startedWaitMs) / 1000);
  }
  // Every entry of each batch: see the file's header for why not only the first.
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const seconds = entry.duration / 1000;
      pauses.observe({ kind: kindOf(entry) }, seconds);
      longestSinceScrape = Math.max(longestSinceScrape, seconds);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { disconnect: () => observer.disconnect() };
}

module.exports = { registerRuntimeMetrics, counterReadAtScrape, kindOf };
