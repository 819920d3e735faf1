#!/usr/bin/env node
'use strict';
// Runs every panel's PromQL from every dashboard as an instant query against a real Prometheus, because Grafana
// cannot run here: a query that errors or returns no series is a panel that would stay empty.
//
//   node dashboards/check-queries.js <prometheus-url> [--require-node-jobs]
//
// Prints one line per query (OK / EMPTY / ERROR / MISSING, series count, panel) and exits 1 unless all are OK.
// --require-node-jobs also fails a lag panel's query unless every Node job it selects is in its result.

const { NODE_JOBS, readDashboards, panelsOf, isLagPanel, jobsSelected } = require('./read-dashboards');

// Grafana's $__rate_interval is at least 4x the datasource's scrape interval (1 s); 10 s leaves room for a
// target that has only been scraped for a few seconds and for scrape jitter.
const GRAFANA_VARIABLES = { __rate_interval: '10s' };
const QUERY_TIMEOUT_MS = 10000;

// Replaces $name and ${name}; a variable the checker does not know throws, so it is never sent verbatim.
function substituteVariables(expr) {
  return expr.replace(/\$\{(\w+)\}|\$(\w+)/g, (match, braced, bare) => {
    const name = braced || bare;
    if (!(name in GRAFANA_VARIABLES)) throw new Error(`unsupported Grafana variable ${match}`);
    return GRAFANA_VARIABLES[name];
  });
}

// Every query of every panel: {dashboard, panel, refId, expr, lag, lagJobs}. `lagJobs` is set on the queries of a
// dashboard's lag panel: the Node jobs the query selects (lab-overview shows all of them, a dashboard about some
// services only theirs).
function dashboardQueries(dashboards = readDashboards()) {
  const queries = [];
  for (const { dashboard } of dashboards) {
    for (const panel of panelsOf(dashboard)) {
      for (const target of panel.targets || []) {
        const expr = target.expr || '';
        const lag = isLagPanel(panel);
        const lagJobs = lag ? jobsSelected(expr, NODE_JOBS) : null;
        queries.push({ dashboard: dashboard.title, panel: panel.title, refId: target.refId, expr, lag, lagJobs });
      }
    }
  }
  return queries;
}

// The series of an instant query; throws with Prometheus' own error message.
async function instantQuery(prometheusUrl, expr) {
  const response = await fetch(`${prometheusUrl.replace(/\/+$/, '')}/api/v1/query`, {
    method: 'POST',
    body: new URLSearchParams({ query: expr }),
    signal: AbortSignal.timeout(QUERY_TIMEOUT_MS),
  });
  const body = await response.json().catch(() => null);
  if (!body) throw new Error(`HTTP ${response.status} without a JSON body`);
  if (body.status !== 'success') throw new Error(`${body.errorType}: ${body.error}`);
  if (body.data.resultType === 'scalar' || body.data.resultType === 'string') return [{ metric: {} }];
  return body.data.result;
}

// [{dashboard, panel, refId, expr, query, status, series, jobs, missingJobs?, error?}], in dashboard order.
// `missingJobs` is set on the lag panels' queries: the Node jobs a query selects that are absent from its result.
// With requireNodeJobs such a query is MISSING instead of OK.
async function checkDashboardQueries(prometheusUrl, { requireNodeJobs = false, dashboards } = {}) {
  const results = [];
  for (const q of dashboardQueries(dashboards)) {
    const row = { dashboard: q.dashboard, panel: q.panel, refId: q.refId, expr: q.expr, query: null, status: 'OK', series: 0, jobs: [] };
    try {
      if (!q.expr.trim()) throw new Error('empty expr');
      row.query = substituteVariables(q.expr);
      const series = await instantQuery(prometheusUrl, row.query);
      row.series = series.length;
      row.jobs = [...new Set(series.map((s) => s.metric.job).filter(Boolean))].sort();
      if (row.series === 0) row.status = 'EMPTY';
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
  let line = `${row.status.padEnd(7)} ${String(row.series).padStart(3)} series  ${row.dashboard} / ${row.panel} [${row.refId}]`;
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

module.exports = { checkDashboardQueries, dashboardQueries, substituteVariables, GRAFANA_VARIABLES };
