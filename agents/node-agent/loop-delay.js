'use strict';
// The event loop's delay over the interval since the last scrape (perf_hooks.monitorEventLoopDelay, a libuv timer
// every resolutionMs that records how late it fired, with no JavaScript on its path), in both families from one
// reading, then reset, as prom-client does: each figure describes the seconds before its scrape. Two scrapers of one
// agent (Prometheus and a load driver) therefore split the intervals between them, as with prom-client.
// A limit of Node's monitor that prom-client shares: reset() also forgets when the timer last fired, so its first tick
// after a scrape only restarts its clock and records nothing; a block that starts before that tick (within one
// resolution of the scrape) is in no interval's figures. The busy counter and the CPU-wait counter still count it.
// Node 14 syntax.
const { monitorEventLoopDelay } = require('perf_hooks');
const { LAB, OTEL } = require('./names');
const { family } = require('./exposition');

const FIGURES = [
  { lab: LAB.lagMin, otel: OTEL.delayMin, help: 'minimum', read: (h) => h.min },
  { lab: LAB.lagMax, otel: OTEL.delayMax, help: 'maximum', read: (h) => h.max },
  { lab: LAB.lagMean, otel: OTEL.delayMean, help: 'mean', read: (h) => h.mean },
  { lab: LAB.lagStddev, otel: OTEL.delayStddev, help: 'standard deviation', read: (h) => h.stddev },
  { lab: LAB.lagP50, otel: OTEL.delayP50, help: '50th percentile', read: (h) => h.percentile(50) },
  { lab: LAB.lagP90, otel: OTEL.delayP90, help: '90th percentile', read: (h) => h.percentile(90) },
  { lab: LAB.lagP99, otel: OTEL.delayP99, help: '99th percentile', read: (h) => h.percentile(99) },
];

function loopDelay(resolutionMs) {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  return {
    names: FIGURES.map((f) => f.lab).concat(FIGURES.map((f) => f.otel)),
    text() {
      // No sample in the interval (min above max: the timer never fired) reads 0, as OpenTelemetry's collector does,
      // not the histogram's empty values (a min of 2^63 ns, a NaN mean).
      const empty = !(histogram.min <= histogram.max);
      const seconds = FIGURES.map((f) => {
        const ns = empty ? 0 : f.read(histogram);
        return Number.isFinite(ns) ? ns / 1e9 : 0;
      });
      histogram.reset();
      const within = `the event loop's delay since the last scrape (perf_hooks.monitorEventLoopDelay, resolution ${resolutionMs} ms)`;
      return FIGURES.map((f, i) => family(f.lab, 'gauge', `The ${f.help} of ${within}`, [{ value: seconds[i] }])).join('')
        + FIGURES.map((f, i) => family(f.otel, 'gauge', `Event loop ${f.help} delay (OpenTelemetry nodejs.eventloop.delay): ${within}`, [{ value: seconds[i] }])).join('');
    },
    stop: () => histogram.disable(),
  };
}

module.exports = { loopDelay };
