'use strict';
// The client's side of a scenario second by second: every response is put in the second it arrived in (counted from
// the scenario's start), and each second keeps its count and latency figures. These are the samples `make compare`
// tests for significance (one per second, so samples are independent enough and a long run does not make a tiny
// difference "significant" by sheer count), and the client's latency curve in report.html.
const { round } = require('@lab/loop-kit/round');

/** The p-th percentile of sorted values (nearest rank; the open loop's figures use it too). */
const PERCENTILE = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function summarizeSecond(second, latencies, non2xx) {
  if (latencies.length === 0) return { second, requests: 0, non2xx, latencyMeanMs: null, latencyP50Ms: null, latencyP99Ms: null, latencyMaxMs: null };
  const sorted = Float64Array.from(latencies).sort();
  let sum = 0;
  for (const ms of sorted) sum += ms;
  return {
    second,
    requests: sorted.length,
    non2xx,
    latencyMeanMs: round(sum / sorted.length, 3),
    latencyP50Ms: round(PERCENTILE(sorted, 50), 3),
    latencyP99Ms: round(PERCENTILE(sorted, 99), 3),
    latencyMaxMs: round(sorted[sorted.length - 1], 3),
  };
}

/**
 * A recorder: record(statusCode, latencyMs) for every response, then finish() for the seconds in order, the seconds
 * without a response included (a blocked server's silent seconds are samples too). A last second shorter than
 * half a second is dropped: its count would read as a slowdown that never happened.
 */
function perSecondRecorder(now = () => performance.now()) {
  const startedAt = now();
  const seconds = []; // index: second, value: {latencies, non2xx}
  const all = { responses: 0, latencySumMs: 0 };
  return {
    /** Every response's latency in ms, unrounded (autocannon's own histogram keeps whole milliseconds). */
    meanLatencyMs: () => (all.responses > 0 ? all.latencySumMs / all.responses : null),
    record(statusCode, latencyMs) {
      all.responses++;
      all.latencySumMs += latencyMs;
      const index = Math.floor((now() - startedAt) / 1000);
      while (seconds.length <= index) seconds.push({ latencies: [], non2xx: 0 });
      const bucket = seconds[index];
      bucket.latencies.push(latencyMs);
      if (statusCode < 200 || statusCode > 299) bucket.non2xx++;
    },
    finish() {
      const elapsedMs = now() - startedAt;
      const whole = Math.floor(elapsedMs / 1000) + (elapsedMs % 1000 >= 500 ? 1 : 0);
      while (seconds.length < whole) seconds.push({ latencies: [], non2xx: 0 });
      return seconds.slice(0, Math.max(whole, 1)).map((s, i) => summarizeSecond(i, s.latencies, s.non2xx));
    },
  };
}

module.exports = { perSecondRecorder, PERCENTILE };
