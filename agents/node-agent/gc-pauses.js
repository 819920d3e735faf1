'use strict';
// Every pause of the collector, as perf_hooks' observer reports them: each entry of each batch (prom-client keeps only
// the first of a batch, and Node 24 batches collections that follow each other closely, so it undercounts exactly when
// pauses pile up: node-kit/runtime-metrics.js says more). In the lab's histogram by kind (fine buckets, the same on the
// JVM), the longest since the last scrape, and OpenTelemetry's v8js.gc.duration. Node 14 syntax.
const { PerformanceObserver, constants } = require('perf_hooks');
const { LAB, OTEL, LABEL, GC_PAUSE_BUCKETS, OTEL_GC_BUCKETS } = require('./names');
const { family, histogramFamily, bucketCounter } = require('./exposition');

// The semantic conventions' v8js.gc.type values are these same four words.
const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** A gc entry's kind: entry.detail.kind from Node 16 on, entry.kind on Node 14 (reading it on 16+ warns: DEP0152). */
function kindOf(entry) {
  const code = entry.detail ? entry.detail.kind : entry.kind;
  return GC_KINDS[code] || 'other';
}

function gcPauses() {
  const lab = bucketCounter(LABEL.gcKind, GC_PAUSE_BUCKETS);
  const otel = bucketCounter(LABEL.otelGcType, OTEL_GC_BUCKETS);
  let longestSinceScrape = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const seconds = entry.duration / 1000;
      const kind = kindOf(entry);
      lab.observe(kind, seconds);
      otel.observe(kind, seconds);
      longestSinceScrape = Math.max(longestSinceScrape, seconds);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    names: [LAB.gcPause, LAB.gcPauseMax, OTEL.gcDuration],
    text() {
      const longest = longestSinceScrape;
      longestSinceScrape = 0;
      return histogramFamily(LAB.gcPause, 'Garbage collection pauses by kind (major, minor, incremental, weakcb), every one the perf_hooks observer reports', GC_PAUSE_BUCKETS, lab.series())
        + family(LAB.gcPauseMax, 'gauge', 'The longest garbage collection pause since the last scrape (0 if none)', [{ value: longest }])
        + histogramFamily(OTEL.gcDuration, 'Garbage collection duration (OpenTelemetry v8js.gc.duration), by v8js.gc.type', OTEL_GC_BUCKETS, otel.series());
    },
    stop: () => observer.disconnect(),
  };
}

module.exports = { gcPauses, kindOf };
