'use strict';
// An open-loop scenario (`arrivalRate`): requests sent on a fixed schedule, arrivalRate a second, whatever the target
// does, at most `connections` in flight (more wait for a free connection), each one's latency measured from the time
// the schedule meant to send it, as wrk2 does. A closed loop of C connections (autocannon, the other scenarios) sends
// its next request only once an answer came back: while the server blocks, it sends nothing and so records nothing of
// the block, and its latency looks best exactly when the server is worst (coordinated omission). Here every request
// the block delayed counts its whole wait. Each answer's time from the moment it actually left (a connection assigned)
// is kept beside it, so the report shows what the correction adds. Answers are checked as the closed loop's are.
const http = require('node:http');
const { EventEmitter } = require('node:events');
const { round } = require('@lab/loop-kit/round');
const { PERCENTILE } = require('./per-second');

// How often the schedule looks for requests that are due: lateness from it is inside each request's measured latency.
const TICK_MS = 1;

/** {p50, p90, p99, max, mean} of latencies in ms (3 decimals), null figures when there are none. */
function percentiles(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  if (sorted.length === 0) return { p50: null, p90: null, p99: null, max: null, mean: null };
  let sum = 0;
  for (const v of sorted) sum += v;
  const at = (p) => round(PERCENTILE(sorted, p), 3);
  return { p50: at(50), p90: at(90), p99: at(99), max: round(sorted[sorted.length - 1], 3), mean: round(sum / sorted.length, 3) };
}

/**
 * Starts the schedule for scenario ({arrivalRate, durationSeconds, maxRequests, connections, timeoutSeconds, method,
 * path, headers, body}) against baseUrl. onAnswer(statusCode, body, latencyMs) gets every answer. Returns an
 * EventEmitter (`response`, `reqError`, `done` with the figures) with stop().
 */
function startOpenLoop(scenario, baseUrl, onAnswer) {
  const emitter = new EventEmitter();
  const agent = new http.Agent({ keepAlive: true, maxSockets: scenario.connections });
  const target = new URL(scenario.path, baseUrl);
  const intended = Math.min(scenario.maxRequests, Math.max(1, Math.round(scenario.arrivalRate * scenario.durationSeconds)));
  const intervalMs = 1000 / scenario.arrivalRate;
  const timeoutMs = (scenario.timeoutSeconds || 10) * 1000;
  const corrected = [];
  const fromSend = [];
  const counts = { issued: 0, completed: 0, errors: 0, timeouts: 0, non2xx: 0, late: 0 };
  const inFlight = new Set();
  const startedAt = performance.now();
  let stopped = false;
  let timer = null;
  let finished = false;

  function finish() {
    if (finished || inFlight.size > 0 || (counts.issued < intended && !stopped)) return;
    finished = true;
    clearTimeout(timer);
    agent.destroy();
    const elapsedSeconds = (performance.now() - startedAt) / 1000;
    emitter.emit('done', { intended, elapsedSeconds, counts, corrected: percentiles(corrected), fromSend: percentiles(fromSend) });
  }

  function send(dueAt) {
    counts.issued++;
    let sentAt = null;
    const req = http.request(target, { agent, method: scenario.method || 'GET', headers: scenario.headers });
    inFlight.add(req);
    const done = () => {
      inFlight.delete(req);
      finish();
    };
    req.on('socket', () => {
      sentAt = performance.now();
    });
    req.setTimeout(timeoutMs, () => {
      counts.timeouts++;
      req.destroy(new Error(`no answer in ${timeoutMs} ms`));
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const now = performance.now();
        const latencyMs = now - dueAt;
        counts.completed++;
        if (res.statusCode < 200 || res.statusCode > 299) counts.non2xx++;
        corrected.push(latencyMs);
        fromSend.push(now - (sentAt === null ? dueAt : sentAt));
        onAnswer(res.statusCode, Buffer.concat(chunks).toString('utf8'), latencyMs);
        emitter.emit('response', null, res.statusCode, 0, latencyMs);
        done();
      });
      res.on('error', () => done());
    });
    req.on('error', (err) => {
      if (stopped) return done();
      counts.errors++;
      emitter.emit('reqError', err);
      return done();
    });
    req.end(scenario.body);
  }

  function tick() {
    if (stopped) return;
    const now = performance.now();
    while (counts.issued < intended) {
      const dueAt = startedAt + counts.issued * intervalMs;
      if (dueAt > now) break;
      if (now - dueAt > TICK_MS + 1) counts.late++;
      send(dueAt);
    }
    if (counts.issued < intended) timer = setTimeout(tick, TICK_MS);
    else finish();
  }

  emitter.stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    for (const req of inFlight) req.destroy();
    finish();
  };
  setImmediate(tick);
  return emitter;
}

module.exports = { startOpenLoop };
