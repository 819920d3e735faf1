'use strict';
// Why a scenario's target stalled, as the report shows it beside the lag: the lag's worst second (or, on the JVM, which
// has no event loop, its stand-in: how long a request waited for a handler thread), the mean event-loop utilization
// and the GC pauses of the server section (server-runtime.js), each null with the section's reason when missing.
const { targetSeriesOf, peakMs } = require('../scenario/server-series');
const { targetFiguresOf } = require('../scenario/server-runtime');

// What each kind of lag is called where the report shows it.
const LAG_FROM = {
  loop: 'event-loop lag',
  threadWait: "handler-thread wait (the JVM's stand-in for event-loop lag: how long a request waited for a thread)",
};

/** Why the server section has no `field` figure for target: its own reason, or why there is no section at all. */
function whyMissing(server, target, field) {
  if (!server) return 'the result holds no server section';
  if (!server.available) return `Prometheus unavailable: ${server.error}`;
  const missing = server.missing && server.missing[target];
  if (missing && missing[field]) return missing[field];
  return server[field] ? `no ${field} figure for ${target}` : `this result predates ${field} figures`;
}

/** {lagFrom, lagKind, lagP99PeakMs, lagMaxPeakMs, elu, eluMissing, gc, gcMissing} of a scenario result file. */
function stallOf(file) {
  const target = file.scenario.target;
  const server = file.server;
  const job = targetSeriesOf(file);
  const loop = job && (job.lagP99Seconds || job.lagMaxSeconds);
  const wait = job && !loop && (job.threadWaitP99Seconds || job.threadWaitMaxSeconds);
  const lagKind = loop ? 'loop' : wait ? 'threadWait' : null;
  const { elu, gc } = targetFiguresOf(file);
  return {
    lagKind,
    lagFrom: lagKind ? LAG_FROM[lagKind] : null,
    lagP99PeakMs: loop ? peakMs(job.lagP99Seconds) : wait ? peakMs(job.threadWaitP99Seconds) : null,
    lagMaxPeakMs: loop ? peakMs(job.lagMaxSeconds) : wait ? peakMs(job.threadWaitMaxSeconds) : null,
    elu,
    eluMissing: elu === null ? whyMissing(server, target, 'elu') : null,
    gc,
    gcMissing: gc === null ? whyMissing(server, target, 'gc') : null,
  };
}

module.exports = { stallOf, LAG_FROM };
