'use strict';
// How busy the event loop was (performance.eventLoopUtilization(), libuv's own idle-time accounting): the lab's
// counter of busy seconds, whose rate over any window is that window's mean utilization exactly, and OpenTelemetry's
// gauge of the utilization since the previous scrape. Node 14 syntax (eventLoopUtilization is there from 14.10).
const { performance } = require('perf_hooks');
const { LAB, OTEL } = require('./names');
const { family } = require('./exposition');

function loopUtilization() {
  let previous = performance.eventLoopUtilization();
  let countedActiveMs = previous.active;
  return {
    names: [LAB.loopBusy, OTEL.utilization],
    text() {
      const now = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(now, previous);
      previous = now;
      countedActiveMs = Math.max(countedActiveMs, now.active);
      return family(LAB.loopBusy, 'counter', 'Seconds the event loop was busy (performance.eventLoopUtilization().active); its rate is the event-loop utilization', [{ value: countedActiveMs / 1000 }])
        + family(OTEL.utilization, 'gauge', 'Event loop utilization (OpenTelemetry nodejs.eventloop.utilization) since the last scrape', [{ value: Number.isFinite(since.utilization) ? since.utilization : 0 }]);
    },
  };
}

module.exports = { loopUtilization };
