'use strict';
// Runs one scenario with autocannon's programmatic API, checking every response on the way: a /run result (or any
// answer that checks itself, like node-async's process-data) must say validated: true, so a fast wrong answer fails
// the scenario instead of improving its numbers. A scenario with a `probe` also runs the light probe beside it
// (probe.js), started with it and stopped when it ends, however it ends. Beside autocannon's totals it keeps the
// scenario's window (for the server's series), the client's figures second by second (per-second.js) and the driver's
// own load while it ran (saturation.js). A window that ends before the target answered anything is held open until its
// first answer, bounded by the request timeout, so that a slow machine gets a result rather than "no request
// completed" (firstAnswerWindow). The probe keeps to the scenario's duration and its bound in requests.
const autocannon = require('autocannon');
const { startProbe } = require('./probe');
const { perSecondRecorder } = require('./per-second');
const { watchDriver, littlesLaw } = require('./saturation');
const { startOpenLoop } = require('./open-loop');
const { round } = require('@lab/loop-kit/round');

// A request's timeout where the scenario sets none.
const DEFAULT_TIMEOUT_SECONDS = 10;
// How many runs' own times a scenario keeps (checks.runs.msSamples): enough for a rank test, bounded for small runs.
const RUN_SAMPLES = 2000;

/**
 * What a JVM run's answer says of its thread ({wallMs, cpuMs, waitMs}: the whole run on one thread, no event loop):
 * the slowest run's wall time with its time on a CPU and waiting for one (null where the service cannot say), and the
 * wall and wait of every run that reports a wait, whose ratio is the share a busy machine held the runs' threads up.
 */
function keepThread(runs, thread) {
  if (typeof thread.wallMs !== 'number') return;
  if (runs.maxRunWallMs === null || thread.wallMs > runs.maxRunWallMs) {
    runs.maxRunWallMs = thread.wallMs;
    runs.maxRunCpuMs = typeof thread.cpuMs === 'number' ? thread.cpuMs : null;
    runs.maxRunWaitMs = typeof thread.waitMs === 'number' ? thread.waitMs : null;
  }
  if (typeof thread.waitMs === 'number') {
    runs.totalRunWallMs += thread.wallMs;
    runs.totalRunWaitMs += thread.waitMs;
  }
}

/**
 * A per-response check that counts what the scenario's `expect` rejects, and keeps what a /run answer says of its own
 * run (runs: how many, their total and longest `ms`, the longest `eventLoop.maxBlockMs` with its split into running and
 * waiting and the collector's pauses in it, the longest `eventLoop.maxOwnBlockMs` with the collector's pauses in it,
 * the longest `maxOwnBlockLessGcMs`; from a service without an event loop, the JVM, the slowest run's `thread` with
 * the same split, and the runs' thread wall and wait in total): the service's timing of the approach alone, without
 * the HTTP around it.
 */
function responseChecker(expect) {
  const counts = { checked: 0, invalid: 0, failedRuns: 0, samples: [], runs: { count: 0, totalMs: 0, maxMs: null, maxBlockMs: null, maxBlockAt: null, maxBlockCpuMs: null, maxBlockWaitMs: null, maxBlockGcMs: null, maxOwnBlockMs: null, maxOwnBlockGcMs: null, maxOwnBlockLessGcMs: null, maxRunWallMs: null, maxRunCpuMs: null, maxRunWaitMs: null, totalRunWallMs: 0, totalRunWaitMs: 0, msSamples: [] } };
  const keepRun = (result) => {
    if (typeof result.ms !== 'number') return;
    const runs = counts.runs;
    runs.count++;
    runs.totalMs += result.ms;
    // Each run's own time, the first RUN_SAMPLES of them: what the runtime-version matrix tests for a change.
    if (runs.msSamples.length < RUN_SAMPLES) runs.msSamples.push(result.ms);
    runs.maxMs = Math.max(runs.maxMs === null ? 0 : runs.maxMs, result.ms);
    const loop = result.eventLoop || {};
    if (typeof loop.maxBlockMs === 'number' && (runs.maxBlockMs === null || loop.maxBlockMs > runs.maxBlockMs)) {
      runs.maxBlockMs = loop.maxBlockMs;
      // When it was, where the service says (wall-clock ms): a CPU profile's samples then are what blocked.
      runs.maxBlockAt = loop.maxBlockAt || null;
      // And how it was spent: on a CPU, waiting for one (loop-kit/event-loop.js; null where the service cannot say).
      runs.maxBlockCpuMs = typeof loop.maxBlockCpuMs === 'number' ? loop.maxBlockCpuMs : null;
      runs.maxBlockWaitMs = typeof loop.maxBlockWaitMs === 'number' ? loop.maxBlockWaitMs : null;
      // And the collector's pauses in it (null where the service does not say).
      runs.maxBlockGcMs = typeof loop.maxBlockGcMs === 'number' ? loop.maxBlockGcMs : null;
    }
    // The longest block the runs' own work made, a busy machine's part left out: what the approach is accountable for;
    // with the collector's pauses in that block.
    if (typeof loop.maxOwnBlockMs === 'number' && (runs.maxOwnBlockMs === null || loop.maxOwnBlockMs > runs.maxOwnBlockMs)) {
      runs.maxOwnBlockMs = loop.maxOwnBlockMs;
      runs.maxOwnBlockGcMs = typeof loop.maxOwnBlockGcMs === 'number' ? loop.maxOwnBlockGcMs : null;
    }
    // The longest block the runs' own work made outside the collector's pauses, over every run.
    if (typeof loop.maxOwnBlockLessGcMs === 'number' && (runs.maxOwnBlockLessGcMs === null || loop.maxOwnBlockLessGcMs > runs.maxOwnBlockLessGcMs)) runs.maxOwnBlockLessGcMs = loop.maxOwnBlockLessGcMs;
    keepThread(runs, result.thread || {});
  };
  const remember = (text) => {
    if (counts.samples.length < 3) counts.samples.push(text.slice(0, 300));
  };
  function onResponse(status, body) {
    counts.checked++;
    if (status < 200 || status > 299) {
      counts.failedRuns++;
      remember(`HTTP ${status}: ${body}`);
      return;
    }
    if (expect !== 'validated') return;
    let result;
    try {
      result = JSON.parse(body);
    } catch {
      result = null;
    }
    if (!result || result.validated !== true) {
      counts.invalid++;
      remember(body);
      return;
    }
    keepRun(result);
  }
  return { counts, onResponse };
}

/**
 * Resolves to {scenario, url, window: {startedAt, endedAt, startMs, endMs}, result (autocannon's JSON), perSecond,
 * driver, littlesLaw, checks, passed, problems} and, with a probe, `probe` (its section, see probe.js). The probe
 * never adds to `problems`. onProbeResponse(seconds, statusCode) sees each probe response live, onResponse(seconds)
 * each of the scenario's own, onWindowStart() the start of the measured window (after any warm-up); probeUrl is where
 * the probe goes (the target's own URL by default; an attached service's agent, which shares its event loop).
 */
async function runScenario(scenario, baseUrl, options = {}) {
  const body = scenario.bodyFrom === undefined ? scenario.body : await fetchBody(baseUrl, scenario.bodyFrom);
  const withBody = Object.assign({}, scenario, { body });
  const warmup = scenario.warmupSeconds > 0 ? await warmUp(withBody, baseUrl, options) : null;
  if (options.onWindowStart) options.onWindowStart();
  const outcome = await runnerOf(scenario)(withBody, baseUrl, options);
  if (warmup) {
    outcome.warmup = warmup;
    if (warmup.problems.length > 0) Object.assign(outcome, { passed: false, problems: outcome.problems.concat(warmup.problems.map((p) => `warm-up: ${p}`)) });
  }
  return outcome;
}

/**
 * The scenario's warm-up: the same requests for warmupSeconds, before its window, kept out of every figure (a JIT still
 * compiling or a cache still filling is not what the scenario measures). No probe beside it. What it did is kept apart
 * ({seconds, requests, problems}); a warm-up that failed fails the scenario, since its window would then measure a
 * service in trouble.
 */
async function warmUp(scenario, baseUrl, { onStart }) {
  const run = await runnerOf(scenario)(Object.assign({}, scenario, { durationSeconds: scenario.warmupSeconds, probe: undefined }), baseUrl, { onStart });
  return { seconds: scenario.warmupSeconds, requests: run.result.requests.total, problems: run.problems };
}

/** The closed loop (autocannon), or the open loop for a scenario with an arrivalRate (open-loop.js). */
const runnerOf = (scenario) => (scenario.arrivalRate ? runOpenLoopWithBody : runWithBody);

// A body the target generates (GET bodyFrom), so a suite names its request instead of copying it.
async function fetchBody(baseUrl, path) {
  const res = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(10000) });
  if (!res.ok) throw new Error(`bodyFrom ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.text();
}

/**
 * The scenario's window as autocannon runs it: autocannon's own duration is the hard bound (the scenario's duration
 * plus one request timeout), and the window ends at the scenario's duration once an answer arrived, else at the first
 * answer. Without it, a scenario whose every request outlives its window (a slow parser on a loaded machine) counted
 * no request at all and failed on the machine's speed, not the service's. Returns {hardBoundSeconds, attach(instance)}.
 */
function firstAnswerWindow(durationSeconds, timeoutSeconds) {
  return {
    hardBoundSeconds: durationSeconds + timeoutSeconds,
    attach(instance) {
      let answered = false;
      let windowOver = false;
      const timer = setTimeout(() => {
        windowOver = true;
        if (answered) instance.stop();
      }, durationSeconds * 1000);
      instance.on('response', () => {
        answered = true;
        if (windowOver) instance.stop();
      });
      instance.on('done', () => clearTimeout(timer));
      return () => clearTimeout(timer);
    },
  };
}

/** The request's body as text (a suite's object as JSON) and its headers, a JSON content type with a body. */
function requestOf(scenario) {
  const body = scenario.body === undefined ? undefined : typeof scenario.body === 'string' ? scenario.body : JSON.stringify(scenario.body);
  return { body, headers: Object.assign(body !== undefined ? { 'content-type': 'application/json' } : {}, scenario.headers) };
}

/**
 * What fails a scenario on the client's side: connection errors, non-2xx answers, answers not validated, none at all.
 * A refused or unvalidated answer is quoted (the first one kept), so that the line says why: a runtime version
 * without a function the approach calls answers 500 with the TypeError's message, and the count alone hid it.
 */
function clientProblems({ errors, timeouts, non2xx, completed }, checker) {
  const problems = [];
  const samples = checker.counts.samples;
  const first = (refused) => {
    const sample = samples.find((text) => text.startsWith('HTTP ') === refused);
    return sample === undefined ? '' : ` (the first: ${sample})`;
  };
  if (errors > 0) problems.push(`${errors} connection errors (${timeouts} timeouts)`);
  if (non2xx > 0) problems.push(`${non2xx} non-2xx responses${first(true)}`);
  if (checker.counts.invalid > 0) problems.push(`${checker.counts.invalid} responses not validated${first(false)}`);
  if (completed === 0) problems.push('no request completed');
  return problems;
}

function runWithBody(scenario, baseUrl, { onStart, onProbeResponse, onResponse, probeUrl = baseUrl } = {}) {
  const checker = responseChecker(scenario.expect);
  const { body, headers } = requestOf(scenario);
  const timeoutSeconds = scenario.timeoutSeconds || DEFAULT_TIMEOUT_SECONDS;
  const window = firstAnswerWindow(scenario.durationSeconds, timeoutSeconds);
  const options = {
    url: baseUrl,
    connections: scenario.connections,
    duration: window.hardBoundSeconds,
    maxOverallRequests: scenario.maxRequests,
    timeout: timeoutSeconds,
    requests: [{ method: scenario.method || 'GET', path: scenario.path, body, headers, onResponse: checker.onResponse }],
  };
  return new Promise((resolve, reject) => {
    let ended = false;
    let probe = null;
    const startMs = Date.now();
    const driver = watchDriver();
    const seconds = perSecondRecorder();
    let releaseWindow = () => {};
    const instance = autocannon(options, (err, result) => {
      ended = true;
      releaseWindow();
      const endMs = Date.now();
      const driverSection = driver.stop();
      const probeDone = probe ? probe.stop() : Promise.resolve(undefined);
      probeDone.then((probeResult) => {
        if (err) return reject(err);
        const problems = clientProblems({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, completed: result.requests.total }, checker);
        const outcome = {
          scenario,
          url: baseUrl,
          window: { startedAt: new Date(startMs).toISOString(), endedAt: new Date(endMs).toISOString(), startMs, endMs },
          result,
          perSecond: seconds.finish(),
          driver: driverSection,
          littlesLaw: littlesLaw(scenario.connections, result.requests.total, seconds.meanLatencyMs(), (endMs - startMs) / 1000),
          checks: checker.counts,
          passed: problems.length === 0,
          problems,
        };
        if (probeResult) outcome.probe = probeResult;
        resolve(outcome);
      });
    });
    instance.on('response', (client, statusCode, resBytes, responseTimeMs) => {
      seconds.record(statusCode, responseTimeMs);
      if (onResponse) onResponse(responseTimeMs / 1000);
    });
    if (!ended) releaseWindow = window.attach(instance);
    // autocannon reports bad options synchronously through the callback: then there is nothing to probe beside.
    if (scenario.probe && !ended) probe = startProbe(scenario.probe, probeUrl, scenario.durationSeconds, onProbeResponse);
    if (onStart) onStart(instance);
  });
}

/**
 * The open loop's outcome, in the closed loop's shape (so summaries, thresholds, compare and the report read it
 * alike): `result` holds the latency from each request's intended send time, and `openLoop` the schedule's own figures
 * with the latency from the actual send beside it. Little's law is not checked: an open loop keeps fewer in flight
 * than its connections by design.
 */
function runOpenLoopWithBody(scenario, baseUrl, { onStart, onProbeResponse, onResponse, probeUrl = baseUrl } = {}) {
  const checker = responseChecker(scenario.expect);
  const { body, headers } = requestOf(scenario);
  const startMs = Date.now();
  const driver = watchDriver();
  const seconds = perSecondRecorder();
  return new Promise((resolve) => {
    const loop = startOpenLoop(Object.assign({}, scenario, { body, headers }), baseUrl, (status, text, latencyMs) => {
      checker.onResponse(status, text);
      seconds.record(status, latencyMs);
      if (onResponse) onResponse(latencyMs / 1000);
    });
    const probe = scenario.probe ? startProbe(scenario.probe, probeUrl, scenario.durationSeconds, onProbeResponse) : null;
    loop.on('done', async (figures) => {
      const endMs = Date.now();
      const driverSection = driver.stop();
      const probeResult = probe ? await probe.stop() : undefined;
      const { counts, corrected } = figures;
      const problems = clientProblems(counts, checker);
      const result = {
        requests: { average: round(counts.completed / figures.elapsedSeconds, 3), total: counts.completed, sent: counts.issued },
        latency: { p50: corrected.p50, p90: corrected.p90, p99: corrected.p99, max: corrected.max, mean: corrected.mean },
        errors: counts.errors,
        timeouts: counts.timeouts,
        non2xx: counts.non2xx,
        duration: figures.elapsedSeconds,
      };
      const outcome = {
        scenario,
        url: baseUrl,
        window: { startedAt: new Date(startMs).toISOString(), endedAt: new Date(endMs).toISOString(), startMs, endMs },
        result,
        openLoop: { arrivalRate: scenario.arrivalRate, intended: figures.intended, sent: counts.issued, sentLate: counts.late, latencyFromIntendedMs: corrected, latencyFromSendMs: figures.fromSend },
        perSecond: seconds.finish(),
        driver: driverSection,
        littlesLaw: Object.assign(littlesLaw(scenario.connections, counts.completed, corrected.mean, figures.elapsedSeconds), { holds: null, why: 'an open loop: fewer in flight than connections by design' }),
        checks: checker.counts,
        passed: problems.length === 0,
        problems,
      };
      if (probeResult) outcome.probe = probeResult;
      resolve(outcome);
    });
    if (onStart) onStart(loop);
  });
}

module.exports = { runScenario, DEFAULT_TIMEOUT_SECONDS };
