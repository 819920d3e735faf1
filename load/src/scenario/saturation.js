'use strict';
// Is the load driver the bottleneck? Two checks of every scenario, flagged in its result, its printed line and the
// report (never failing it: the numbers are still what was measured, but they may describe the client, not the server):
// - the driver's own event loop and CPU while the scenario ran: autocannon and the probe share one thread, so a driver
//   whose loop lags or whose thread is busy all the time sends late and reads late;
// - Little's law: a closed loop of C connections, each waiting for its answer before the next request, keeps
//   throughput × mean latency ≈ C in flight. Far less means connections sat idle (the client could not keep up, or
//   connections broke; seen here: autocannon 9 with maxRequests 3000 over 2 s sent 1500/s with 1.1 in flight on 2
//   connections to a service that answers 3000/s without the cap); far more means the figures do not add up.
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { round } = require('@lab/loop-kit/round');

// A driver thread busy 90 % of the wall time, or whose loop is late by 50 ms at p99, no longer measures the server.
const DRIVER_CPU_LIMIT = 0.9;
const DRIVER_LAG_P99_LIMIT_MS = 50;
// |throughput × mean latency / connections − 1| above this breaks Little's law. 25 %: ramp-up and ramp-down of a
// scenario of a few seconds and a last partial second move the ratio by some percent, a starved client by far more.
const LITTLES_LAW_TOLERANCE = 0.25;
// Below this many answers the law is not checked: too few to average.
const LITTLES_LAW_MIN_REQUESTS = 50;

/** Starts watching the driver's own thread; stop() returns {eventLoopLagP99Ms, eventLoopLagMaxMs, cpuBusy, ...}. */
function watchDriver() {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  return {
    stop() {
      delay.disable();
      const cpu = process.cpuUsage(cpuStart);
      const wallMs = performance.now() - wallStart;
      // The histogram counts the timer's resolution in every sample: what is above it is the lag.
      const lag = (ns) => round(Math.max(0, ns / 1e6 - 10), 1);
      const section = {
        eventLoopLagP99Ms: lag(delay.percentile(99)),
        eventLoopLagMaxMs: lag(delay.max),
        // user + system time of the driver over the wall time: 1 is one core busy all along.
        cpuBusy: round((cpu.user + cpu.system) / 1000 / wallMs, 3),
        limits: { cpuBusy: DRIVER_CPU_LIMIT, eventLoopLagP99Ms: DRIVER_LAG_P99_LIMIT_MS },
      };
      const reasons = [];
      if (section.cpuBusy >= DRIVER_CPU_LIMIT) reasons.push(`driver CPU busy ${Math.round(section.cpuBusy * 100)} % of the time`);
      if (section.eventLoopLagP99Ms >= DRIVER_LAG_P99_LIMIT_MS) reasons.push(`driver event-loop lag p99 ${section.eventLoopLagP99Ms} ms`);
      return Object.assign(section, { saturated: reasons.length > 0, reasons });
    },
  };
}

/**
 * Little's law for a closed-loop scenario of `connections` from its answers, their mean latency (unrounded: autocannon's
 * histogram keeps whole ms, which reads a 0.4 ms answer as 0) and its elapsed seconds: {connections, inFlight
 * (throughput × mean latency), ratio, tolerance, holds}; holds is null when too few answers.
 */
function littlesLaw(connections, answered, latencyMeanMs, elapsedSeconds) {
  const throughput = elapsedSeconds > 0 ? answered / elapsedSeconds : 0;
  const inFlight = throughput * ((latencyMeanMs || 0) / 1000);
  const ratio = connections > 0 ? inFlight / connections : 0;
  const checked = answered >= LITTLES_LAW_MIN_REQUESTS;
  return {
    connections,
    requestsPerSecond: round(throughput, 1),
    latencyMeanMs: round(latencyMeanMs || 0, 3),
    inFlight: round(inFlight, 2),
    ratio: round(ratio, 3),
    tolerance: LITTLES_LAW_TOLERANCE,
    holds: checked ? Math.abs(ratio - 1) <= LITTLES_LAW_TOLERANCE : null,
  };
}

/** The flags of a scenario (strings, empty when nothing is wrong with the measurement itself). */
function saturationFlags(driver, law) {
  const flags = driver.reasons.map((r) => `client saturated: ${r}`);
  if (law.holds === false) flags.push(`Little's law broken: ${law.requestsPerSecond} req/s × ${law.latencyMeanMs} ms = ${law.inFlight} in flight for ${law.connections} connections (tolerance ${law.tolerance * 100} %)`);
  return flags;
}

module.exports = { watchDriver, littlesLaw, saturationFlags, LITTLES_LAW_TOLERANCE };
