'use strict';
// Prometheus' HTTP API as the docker scripts ask it: instant queries at a given time, and the flags it runs with.
const QUERY_TIMEOUT_MS = 10000;

async function api(prometheus, endpoint, params = {}) {
  const url = `${prometheus}${endpoint}?${new URLSearchParams(params)}`;
  const res = await fetch(url, { signal: AbortSignal.timeout(QUERY_TIMEOUT_MS) });
  const body = await res.json().catch(() => null);
  if (!body || body.status !== 'success') throw new Error(`${endpoint} ${JSON.stringify(params)}: HTTP ${res.status} ${body ? body.error : ''}`.trim());
  return body.data;
}

/** An instant query's vector, at timeSeconds (unix seconds; now when not given): [{metric, value: number}]. */
async function query(prometheus, expr, timeSeconds) {
  const params = { query: expr };
  if (timeSeconds !== undefined) params.time = String(timeSeconds);
  const data = await api(prometheus, '/api/v1/query', params);
  return data.result.map((s) => ({ metric: s.metric, value: Number(s.value[1]) }));
}

/** A range query's series, from `start` to `end` (unix seconds) every `step` seconds: [{metric, points: [[t, v]]}]. */
async function queryRange(prometheus, expr, start, end, step) {
  const data = await api(prometheus, '/api/v1/query_range', { query: expr, start: String(start), end: String(end), step: String(step) });
  return data.result.map((s) => ({ metric: s.metric, points: s.values.map(([t, v]) => [t, Number(v)]) }));
}

/** The command-line flags Prometheus runs with ({'storage.tsdb.retention.time': '7d', ...}). */
const flags = (prometheus) => api(prometheus, '/api/v1/status/flags');

module.exports = { query, queryRange, flags };
