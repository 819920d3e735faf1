#!/usr/bin/env node
'use strict';
// The real Grafana, checked through its HTTP API as the lab's users meet it: with no credentials at all. `make smoke`
// runs it where Grafana runs (the upstream images); it works against any running lab too:
//
//   node docker/grafana-check.js <grafana-url>      # e.g. http://127.0.0.1:3000 beside `docker compose up`
//
// Checks: /api/health; the provisioned datasource's health (the uid in dashboards/datasources); every dashboard of
// dashboards/json found by uid, provisioned and read-only for an anonymous viewer; an anonymous write refused (401 or
// 403); and every panel query and annotation query run through /api/ds/query as the dashboard runs it (the dashboard's
// variables at their All value, substituted as check-queries.js does; $__rate_interval left to Grafana's backend),
// each with data: a frame with a value, and for an annotation a sample above 0 (a region drawn). Prints one line per
// check and exits 1 unless all pass.

const { readDashboards, panelsOf, annotationsOf, datasourceUid } = require('@lab/dashboards/read-dashboards');
const { substituteVariables, regionsOf, durationSeconds } = require('@lab/dashboards/check-queries');

const REQUEST_TIMEOUT_MS = 15000;
// What Grafana's panels ask for over the dashboards' 15 minutes: about one point per second (the scrape interval).
const MAX_DATA_POINTS = 1000;
const INTERVAL_MS = 1000;
// The dashboard an anonymous user tries to create; Grafana must refuse it before reading it.
const WRITE_PROBE = { dashboard: { uid: 'lab-grafana-check-write', title: 'grafana-check: an anonymous write, to be refused', panels: [] }, overwrite: false };

/** {status, body (parsed JSON, or null), text} of a request sent without credentials. */
async function request(grafanaUrl, method, path, body) {
  const response = await fetch(`${grafanaUrl.replace(/\/+$/, '')}${path}`, {
    method,
    headers: Object.assign({ accept: 'application/json' }, body ? { 'content-type': 'application/json' } : {}),
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: a proxy's or a login page's answer, reported by status and text
  }
  return { status: response.status, body: json, text };
}

/** What an answer says went wrong: Grafana's message, or the start of a body that is not Grafana's JSON. */
function messageOf({ status, body, text }) {
  const message = body && typeof body === 'object' ? body.message || body.error || JSON.stringify(body).slice(0, 200) : text.trim().slice(0, 200);
  return `HTTP ${status}${message ? `: ${message}` : ''}`;
}

/** The /api/ds/query body Grafana sends for one query of a panel (refId, expr) or annotation (refId Anno, interval). */
function queryBody(dashboard, { refId, expr, interval = '' }, uid) {
  const query = {
    refId,
    datasource: { type: 'prometheus', uid },
    expr: substituteVariables(expr, dashboard, { keepGrafanaVariables: true }),
    range: true,
    instant: false,
    interval,
    intervalMs: INTERVAL_MS,
    maxDataPoints: MAX_DATA_POINTS,
  };
  return { from: dashboard.time.from, to: dashboard.time.to, queries: [query] };
}

/** The rows ([[time, value], ...]) of each frame of one query's result: Prometheus frames are a time and a value field. */
function seriesOf(result) {
  return (result.frames || []).map((frame) => {
    const [times = [], values = []] = (frame.data && frame.data.values) || [];
    return times.map((time, i) => [time, values[i]]);
  });
}

/** Judges one /api/ds/query answer: a detail for a query with data, else throws why it has none. */
function judgeQuery(answer, { refId, interval }) {
  const result = answer.body && answer.body.results && answer.body.results[refId];
  if (!result) throw new Error(`no result for ${refId}: ${messageOf(answer)}`);
  if (result.error) throw new Error(`HTTP ${answer.status}: ${result.error}`);
  const series = seriesOf(result);
  // Grafana's frames carry NaN and gaps as null: a panel of only those draws nothing.
  const values = series.reduce((n, rows) => n + rows.filter(([, value]) => value !== null && value !== undefined).length, 0);
  if (values === 0) throw new Error(`no data: ${series.length} frames without a value`);
  if (!interval) return `${series.length} series, ${values} values`;
  const regions = series.flatMap((rows) => regionsOf(rows, durationSeconds(interval) * 1000)).length;
  if (regions === 0) throw new Error(`no region: ${series.length} series, none above 0 (no scenario ran in the range)`);
  return `${series.length} series, ${regions} regions`;
}

/** One check: {check, ok, detail}; `run` resolves to the detail of a pass or throws why it failed. */
async function check(name, run) {
  try {
    return { check: name, ok: true, detail: await run() };
  } catch (err) {
    return { check: name, ok: false, detail: err.message };
  }
}

/** Every check against the Grafana at grafanaUrl, in order; never throws. */
async function checkGrafana(grafanaUrl, { dashboards = readDashboards(), uid = datasourceUid() } = {}) {
  const get = (path) => request(grafanaUrl, 'GET', path);
  const rows = [];
  rows.push(await check('health', async () => {
    const answer = await get('/api/health');
    if (answer.status !== 200 || !answer.body || answer.body.database !== 'ok') throw new Error(messageOf(answer));
    return `Grafana ${answer.body.version}, database ok`;
  }));
  rows.push(await check(`datasource ${uid}`, async () => {
    const answer = await get(`/api/datasources/uid/${encodeURIComponent(uid)}/health`);
    if (answer.status !== 200 || !answer.body || answer.body.status !== 'OK') throw new Error(messageOf(answer));
    return answer.body.message;
  }));
  for (const { dashboard } of dashboards) {
    rows.push(await check(`dashboard ${dashboard.uid}`, async () => {
      const answer = await get(`/api/dashboards/uid/${encodeURIComponent(dashboard.uid)}`);
      if (answer.status !== 200 || !answer.body || !answer.body.dashboard) throw new Error(messageOf(answer));
      const { dashboard: found, meta = {} } = answer.body;
      if (found.uid !== dashboard.uid || found.title !== dashboard.title) throw new Error(`found "${found.title}" (${found.uid}), not "${dashboard.title}"`);
      if (meta.provisioned !== true) throw new Error('not provisioned from dashboards/json');
      if (meta.canSave !== false) throw new Error('an anonymous viewer may save it');
      return `"${found.title}" viewable anonymously, read-only`;
    }));
  }
  rows.push(await check('anonymous write refused', async () => {
    const answer = await request(grafanaUrl, 'POST', '/api/dashboards/db', WRITE_PROBE);
    if (answer.status !== 401 && answer.status !== 403) throw new Error(`POST /api/dashboards/db without credentials answered ${messageOf(answer)}, not 401 or 403`);
    return `POST /api/dashboards/db: ${messageOf(answer)}`;
  }));
  for (const { dashboard } of dashboards) {
    const queries = panelsOf(dashboard).flatMap((panel) => panel.targets.map((t) => ({ where: `${panel.title} [${t.refId}]`, refId: t.refId, expr: t.expr })));
    for (const a of annotationsOf(dashboard)) queries.push({ where: `annotation "${a.name}"`, refId: 'Anno', expr: a.expr, interval: a.interval });
    for (const q of queries) {
      rows.push(await check(`query ${dashboard.title} / ${q.where}`, async () => judgeQuery(await request(grafanaUrl, 'POST', '/api/ds/query', queryBody(dashboard, q, uid)), q)));
    }
  }
  return rows;
}

const formatCheck = (row) => `${row.ok ? 'OK  ' : 'FAIL'}  ${row.check}: ${row.detail}`;

/** For make smoke: resolves to a one-line summary when every check passes, else throws with the failed ones. */
async function assertGrafana(grafanaUrl, options) {
  const rows = await checkGrafana(grafanaUrl, options);
  const failed = rows.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`Grafana at ${grafanaUrl}: ${failed.length} of ${rows.length} checks failed:\n  ${failed.map(formatCheck).join('\n  ')}`);
  const count = (kind) => rows.filter((r) => r.check.startsWith(`${kind} `)).length;
  return `Grafana checked through its HTTP API without credentials: health, datasource, ${count('dashboard')} dashboards viewable and read-only, anonymous write refused, all ${count('query')} panel and annotation queries with data`;
}

if (require.main === module) {
  const [url, ...rest] = process.argv.slice(2);
  if (!url || rest.length > 0) {
    console.error('usage: node docker/grafana-check.js <grafana-url>');
    process.exit(2);
  }
  checkGrafana(url).then((rows) => {
    for (const row of rows) console.log(formatCheck(row));
    const failed = rows.filter((r) => !r.ok).length;
    console.log(`${rows.length - failed}/${rows.length} Grafana checks passed`);
    process.exit(failed === 0 ? 0 : 1);
  });
}

module.exports = { checkGrafana, assertGrafana, queryBody, judgeQuery, formatCheck, WRITE_PROBE };
