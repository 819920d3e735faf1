'use strict';
// The light probe beside a heavy scenario: GET probe.path on the same target at a fixed low rate, so the results show
// what any other client of a busy (or blocked) service feels. It measures; it never decides a scenario's verdict.
const autocannon = require('autocannon');

// One connection: one client, so one stall is one slow sample, not one per connection.
const PROBE_CONNECTIONS = 1;
// Far above any block worth measuring (and above the histogram's top bucket, 10 s): a probe that waits this long counts
// as a timeout (in `errors` and `timeouts`), its latency is not in the percentiles, and autocannon reconnects.
const PROBE_TIMEOUT_SECONDS = 30;
// How often autocannon looks at its stop flag: a probe stopped with its heavy scenario ends within 100 ms, not 1 s.
const PROBE_SAMPLE_MS = 100;

/** Bounded in count as well as time: autocannon's rate is a per-second budget, so a run can start duration + 1 of them. */
function probeMaxRequests(probe, durationSeconds) {
  return probe.ratePerSecond * (durationSeconds + 1);
}

/** The probe's section of a scenario's result file, from autocannon's result object. Latencies in ms, null if none. */
function probeSection(probe, result) {
  const answered = result.requests.total;
  const l = result.latency;
  return {
    path: probe.path,
    ratePerSecond: probe.ratePerSecond,
    connections: PROBE_CONNECTIONS,
    timeoutSeconds: PROBE_TIMEOUT_SECONDS,
    requests: answered,
    latencyMs: answered > 0 ? { p50: l.p50, p90: l.p90, p99: l.p99, max: l.max } : null,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * Starts the probe against baseUrl for at most durationSeconds; onResponse(seconds, statusCode) is called for every
 * response as it arrives (the live histogram). Returns {stop()}: stop() ends the probe and resolves to its section
 * (or {path, ratePerSecond, error} if autocannon itself failed). Never rejects.
 */
function startProbe(probe, baseUrl, durationSeconds, onResponse) {
  let instance;
  const finished = new Promise((resolve) => {
    instance = autocannon(
      {
        url: baseUrl,
        connections: PROBE_CONNECTIONS,
        overallRate: probe.ratePerSecond,
        // autocannon 9 "corrects" rate-limited latencies with an expected interval of ceil(1 / rate) = 1 ms, which adds
        // one synthetic sample per ms of every slow response and halves p50; the probe records what was measured.
        ignoreCoordinatedOmission: true,
        duration: durationSeconds,
        maxOverallRequests: probeMaxRequests(probe, durationSeconds),
        timeout: PROBE_TIMEOUT_SECONDS,
        sampleInt: PROBE_SAMPLE_MS,
        requests: [{ method: 'GET', path: probe.path }],
      },
      (err, result) => resolve(err ? { path: probe.path, ratePerSecond: probe.ratePerSecond, error: err.message } : probeSection(probe, result)),
    );
  });
  if (onResponse) instance.on('response', (client, statusCode, resBytes, responseTimeMs) => onResponse(responseTimeMs / 1000, statusCode));
  return {
    stop() {
      instance.stop();
      return finished;
    },
  };
}

/** "probe /healthz: 58 requests, p99 205 ms, max 231 ms" plus errors, timeouts and non-2xx when there are any. */
function describeProbe(section) {
  if (section.error) return `probe ${section.path}: did not run (${section.error})`;
  const latency = section.latencyMs ? `p99 ${section.latencyMs.p99} ms, max ${section.latencyMs.max} ms` : 'no response';
  const trouble = [];
  if (section.errors > 0) trouble.push(`${section.errors} errors (${section.timeouts} timeouts of ${section.timeoutSeconds} s)`);
  if (section.non2xx > 0) trouble.push(`${section.non2xx} non-2xx`);
  return `probe ${section.path}: ${section.requests} requests, ${latency}${trouble.length ? `, ${trouble.join(', ')}` : ''}`;
}

module.exports = { startProbe, describeProbe, probeMaxRequests, PROBE_CONNECTIONS, PROBE_TIMEOUT_SECONDS };
