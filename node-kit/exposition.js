'use strict';
// GET /metrics in slices. prom-client's registry.metrics() renders every metric in one turn of the event loop: on
// Node 14 about 3.5 ms a scrape (1.2 of it perf_hooks' delay histogram: its percentiles, mean and stddev), once a
// second, and the turn it lands in is a run's block as much as a slice of the run is (a `fast` stringify slice of 5
// ms next to it made 9-11 ms blocks under `make try`: docs/findings/js-serializers.md, 2026-11-29). Rendered a
// metric at a time, the event loop gets a turn once a slice has taken sliceMs: the same text, in turns of about
// sliceMs plus one metric. Node 14 syntax.
const { performance } = require('perf_hooks');

// About the longest one metric takes to render on Node 14 (the delay histogram's), so that a slice holds few.
const SLICE_MS = 1;

/** The registry's exposition, as registry.metrics() writes it (the Prometheus text format), in slices of sliceMs. */
async function slicedExposition(registry, { sliceMs = SLICE_MS } = {}) {
  // OpenMetrics has its own joins and counter names; the lab serves the Prometheus format, and anything else whole.
  if (registry.contentType.indexOf('application/openmetrics-text') === 0) return registry.metrics();
  const texts = [];
  let sliceStart = performance.now();
  for (const metric of registry.getMetricsAsArray()) {
    texts.push(await registry.getSingleMetricAsString(metric.name));
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return `${texts.join('\n\n')}\n`;
}

module.exports = { slicedExposition, SLICE_MS };
