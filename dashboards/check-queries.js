#!/usr/bin/env node
'use strict';
// Runs every query of every dashboard against a real Prometheus, because Grafana cannot run here: each panel's PromQL
// as Grafana runs it, a range query over the dashboard's time range for a time series (a target with `range`), an
// instant query otherwise; a query that errors, returns no series or only NaN (what histogram_quantile gives where
// nothing was observed, a ratio of two such) is a panel that would stay empty. Each annotation's
// as the range query Grafana runs for it over the dashboard's time range (no non-zero sample: no region drawn), and
// each template variable's label_values() as the label-values request Grafana sends (no value: an empty drop-down).
//
//   node dashboards/check-queries.js <prometheus-url> [--require-node-jobs]
//
// Prints one line per query (OK / EMPTY / ERROR / MISSING, count, dashboard and panel) and exits 1 unless all are OK.
// --require-node-jobs also fails a lag panel's query unless every Node job it selects is in its result.

const { NODE_JOBS, readDashboards, panelsOf, annotationsOf, variablesOf, variableQuery, isLagPanel, jobsSelected } = require('./read-dashboards');

// The variables Grafana's Prometheus backend interpolates itself. $__rate_interval is at least 4x the datasource's
// scrape interval (1 s); 10 s leaves room for a target that has only been scraped for a few seconds and for jitter.
// $__range, the dashboard's time range in seconds, depends on the dashboard (rangeSeconds).
const GRAFANA_VARIABLES = { __rate_interval: '10s' };
const RANGE_VARIABLE = '__range';
// Grafana's default points per time series query (its maxDataPoints follows the panel's width): the step of a range
// query is the time range over this, and never under the scrape interval.
const MAX_DATA_POINTS = 1000;
const QUERY_TIMEOUT_MS = 10000;
// Grafana's regex for label_values([selector,] label) (its Prometheus variable support, PrometheusLabelValuesRegex).
const LABEL_VALUES = /^label_values\((?:(.+),\s*)?(.+)\)\s*$/;
const UNITS = { s: 1, m: 60, h: 3600, d: 86400 };

// {name: value} of a dashboard's own variables at their All value, the value the dashboards open with. A variable
// must have a custom All value (allValue): Grafana sends it verbatim (not regex-escaped), so the checker can send the
// same; without one Grafana would send the values it fetched last, joined as (a|b|c), which is no fixed text.
function allValues(dashboard = {}) {
  const values = {};
  for (const v of variablesOf(dashboard)) {
    if (!v.includeAll || typeof v.allValue !== 'string' || !v.allValue) throw new Error(`variable $${v.name} has no All value (includeAll with allValue)`);
    values[v.name] = v.allValue;
  }
  return values;
}

// Replaces $name, ${name} and [[name]] as Grafana does for a dashboard opened at its defaults: the dashboard's
// variables by their All value, Grafana's own (GRAFANA_VARIABLES) by the checker's stand-in, unless
// keepGrafanaVariables leaves them for Grafana's backend (docker/grafana-check.js). Anything else, including a
// ${name:format}, throws, so it is never sent verbatim.
function substituteVariables(expr, dashboard = {}, { keepGrafanaVariables = false } = {}) {
  const values = allValues(dashboard);
  return expr.replace(/\$\{([^}]*)\}|\[\[([^\]]*)\]\]|\$(\w+)/g, (match, braced, bracketed, bare) => {
    const name = braced ?? bracketed ?? bare;
    if (Object.hasOwn(values, name)) return values[name];
    if (Object.hasOwn(GRAFANA_VARIABLES, name)) return keepGrafanaVariables ? match : GRAFANA_VARIABLES[name];
    if (name === RANGE_VARIABLE) return keepGrafanaVariables ? match : `${rangeSeconds(dashboard)}s`;
    throw new Error(`unsupported Grafana variable ${match}`);
  });
}

// The regions Grafana's Prometheus annotation support draws for one series: its samples ([ms, value]) with a value
// above 0, samples at most `stepMs` apart joined into one region from the first to the last.
function regionsOf(samples, stepMs) {
  const regions = [];
  for (const [time, value] of samples) {
    if (!(value > 0)) continue;
    const last = regions[regions.length - 1];
    if (last && last.end + stepMs >= time) last.end = time;
    else regions.push({ start: time, end: time });
  }
  return regions;
}

// '15m' -> 900: a Grafana duration of one unit, as the dashboards write their range (now-15m) and min steps (1s).
function durationSeconds(duration) {
  const m = /^(\d+)([smhd])$/.exec(duration);
  if (!m) throw new Error(`"${duration}" is not a duration <n><s|m|h|d>`);
  return Number(m[1]) * UNITS[m[2]];
}

// The length in seconds of a dashboard's time range, which ends at now: now-15m -> 900.
function rangeSeconds(dashboard) {
  const { from, to } = dashboard.time || {};
  if (to !== 'now' || !/^now-/.test(from)) throw new Error(`time range ${from} to ${to} is not now-<duration> to now`);
  return durationSeconds(from.slice('now-'.length));
}

// [start, end] in seconds of a dashboard's time range: now-15m -> [now - 900, now].
function timeRange(dashboard) {
  const end = Math.floor(Date.now() / 1000);
  return [end - rangeSeconds(dashboard), end];
}

// Whether a sample's value, as Prometheus' API writes it ("1.5", "NaN", "+Inf"), is one Grafana would draw: NaN is
// no value.
const isDrawn = (value) => value !== 'NaN';

/** The series of a query's result that have a value to draw: an instant vector's one, any of a matrix's. */
function seriesWithValues(data) {
  if (data.resultType === 'scalar' || data.resultType === 'string') return isDrawn(data.result[1]) ? [{ metric: {} }] : [];
  return data.result.filter((s) => (s.values ? s.values.some(([, v]) => isDrawn(v)) : isDrawn(s.value[1])));
}

// Every query of every dashboard: {kind: panel|annotation|variable, dashboard, panel, refId, expr, board, ...}.
// `board` is the dashboard JSON (for its variables and time range). Panel queries carry `lag`, and `lagJobs` on a
// dashboard's lag panel: the Node jobs the query selects (lab-overview shows all of them, a dashboard about some
// services only theirs). Annotations carry `interval`, their min step.
function dashboardQueries(dashboards = readDashboards()) {
  const queries = [];
  for (const { dashboard } of dashboards) {
    const base = { dashboard: dashboard.title, board: dashboard };
    for (const panel of panelsOf(dashboard)) {
      const lag = isLagPanel(panel);
      for (const target of panel.targets || []) {
        const expr = target.expr || '';
        queries.push({ ...base, kind: 'panel', panel: panel.title, refId: target.refId, expr, range: target.range === true, lag, lagJobs: lag ? jobsSelected(expr, NODE_JOBS) : null });
      }
    }
    for (const a of annotationsOf(dashboard)) {
      queries.push({ ...base, kind: 'annotation', panel: `annotation "${a.name}"`, refId: 'Anno', expr: a.expr, interval: a.interval, lag: false, lagJobs: null });
    }
    for (const v of variablesOf(dashboard)) {
      queries.push({ ...base, kind: 'variable', panel: `variable $${v.name}`, refId: v.name, expr: variableQuery(v), lag: false, lagJobs: null });
    }
  }
  return queries;
}

// The `data` of a Prometheus API answer; throws with Prometheus' own error message. Queries are POSTed (long
// expressions); the label-values endpoint takes GET only.
async function prometheusApi(prometheusUrl, endpoint, params, method = 'POST') {
  const url = `${prometheusUrl.replace(/\/+$/, '')}${endpoint}`;
  const query = new URLSearchParams(params);
  const response = await fetch(method === 'GET' ? `${url}?${query}` : url, {
    method,
    body: method === 'GET' ? undefined : query,
    signal: AbortSignal.timeout(QUERY_TIMEOUT_MS),
  });
  const body = await response.json().catch(() => null);
  if (!body) throw new Error(`HTTP ${response.status} without a JSON body`);
  if (body.status !== 'success') throw new Error(`${body.errorType}: ${body.error}`);
  return body.data;
}

// Runs one query as Grafana would; resolves to {series, jobs, regions?}.
async function runQuery(prometheusUrl, q, query) {
  if (q.kind === 'variable') {
    const m = LABEL_VALUES.exec(query);
    if (!m) throw new Error('not a label_values([selector,] label) query');
    const [start, end] = timeRange(q.board);
    const params = { start: String(start), end: String(end) };
    if (m[1]) params['match[]'] = m[1];
    const values = await prometheusApi(prometheusUrl, `/api/v1/label/${encodeURIComponent(m[2].trim())}/values`, params, 'GET');
    return { series: values.length, jobs: [] };
  }
  if (q.kind === 'annotation') {
    const step = durationSeconds(q.interval);
    const [start, end] = timeRange(q.board);
    const data = await prometheusApi(prometheusUrl, '/api/v1/query_range', { query, start: String(start), end: String(end), step: String(step) });
    const regions = data.result.flatMap((s) => regionsOf(s.values.map(([t, v]) => [t * 1000, Number(v)]), step * 1000));
    return { series: data.result.length, jobs: [], regions: regions.length };
  }
  let data;
  if (q.range) {
    const [start, end] = timeRange(q.board);
    const step = Math.max(1, Math.ceil((end - start) / MAX_DATA_POINTS));
    data = await prometheusApi(prometheusUrl, '/api/v1/query_range', { query, start: String(start), end: String(end), step: String(step) });
  } else {
    data = await prometheusApi(prometheusUrl, '/api/v1/query', { query });
  }
  const series = seriesWithValues(data);
  return { series: series.length, jobs: [...new Set(series.map((s) => s.metric.job).filter(Boolean))].sort() };
}

// [{kind, dashboard, panel, refId, expr, query, status, series, jobs, regions?, missingJobs?, error?}], in dashboard
// order. An annotation is EMPTY without a region, a variable without a value, a panel without a series that has a
// value other than NaN (`series` counts those).
// `missingJobs` is set on the lag panels' queries: the Node jobs a query selects that are absent from its result.
// With requireNodeJobs such a query is MISSING instead of OK.
async function checkDashboardQueries(prometheusUrl, { requireNodeJobs = false, dashboards } = {}) {
  const results = [];
  for (const q of dashboardQueries(dashboards)) {
    const row = { kind: q.kind, dashboard: q.dashboard, panel: q.panel, refId: q.refId, expr: q.expr, query: null, status: 'OK', series: 0, jobs: [] };
    try {
      if (!q.expr.trim()) throw new Error('empty expr');
      row.query = substituteVariables(q.expr, q.board);
      Object.assign(row, await runQuery(prometheusUrl, q, row.query));
      if ((q.kind === 'annotation' ? row.regions : row.series) === 0) row.status = 'EMPTY';
    } catch (err) {
      row.status = 'ERROR';
      row.error = err.message;
    }
    if (q.lag) {
      row.missingJobs = q.lagJobs.filter((job) => !row.jobs.includes(job));
      if (requireNodeJobs && row.status === 'OK' && row.missingJobs.length > 0) row.status = 'MISSING';
    }
    results.push(row);
  }
  return results;
}

function formatRow(row) {
  const count = `${String(row.series).padStart(3)} ${row.kind === 'variable' ? 'values' : 'series'}`;
  let line = `${row.status.padEnd(7)} ${count}  ${row.dashboard} / ${row.panel} [${row.refId}]`;
  if (row.regions !== undefined) line += `  ${row.regions} regions`;
  if (row.missingJobs) line += `  jobs: ${row.jobs.join(', ') || '-'}; missing: ${row.missingJobs.join(', ') || '-'}`;
  if (row.error) line += `  ${row.error}`;
  if (row.status !== 'OK') line += `\n        ${row.query || row.expr}`;
  return line;
}

async function main(argv) {
  const args = argv.filter((a) => !a.startsWith('--'));
  const flags = argv.filter((a) => a.startsWith('--'));
  const unknown = flags.filter((f) => f !== '--require-node-jobs');
  if (args.length !== 1 || unknown.length > 0) {
    console.error('usage: node dashboards/check-queries.js <prometheus-url> [--require-node-jobs]');
    return 2;
  }
  const results = await checkDashboardQueries(args[0], { requireNodeJobs: flags.includes('--require-node-jobs') });
  for (const row of results) console.log(formatRow(row));
  const failed = results.filter((r) => r.status !== 'OK');
  console.log(`${results.length - failed.length}/${results.length} queries OK`);
  return failed.length === 0 ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`check-queries: ${err.message}`);
      process.exit(2);
    },
  );
}

module.exports = { checkDashboardQueries, dashboardQueries, substituteVariables, allValues, regionsOf, durationSeconds, rangeSeconds, seriesWithValues, GRAFANA_VARIABLES, LABEL_VALUES };
