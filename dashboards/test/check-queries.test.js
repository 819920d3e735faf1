'use strict';
// The checker's query extraction and variable substitution; its Prometheus side runs against a real Prometheus
// (see README.md), not a stand-in.

const test = require('node:test');
const assert = require('node:assert/strict');
const { dashboardQueries, substituteVariables, GRAFANA_VARIABLES } = require('../check-queries');
const { NODE_JOBS, STALL_FIRST, readDashboards, panelsOf, jobsSelected } = require('../read-dashboards');

test('substitutes $__rate_interval in both spellings with at least 4 scrape intervals', () => {
  assert.equal(substituteVariables('rate(x[$__rate_interval])'), `rate(x[${GRAFANA_VARIABLES.__rate_interval}])`);
  assert.equal(substituteVariables('rate(x[${__rate_interval}])'), `rate(x[${GRAFANA_VARIABLES.__rate_interval}])`);
  assert.ok(parseInt(GRAFANA_VARIABLES.__rate_interval, 10) >= 4, 'scrape interval is 1 s');
});

test('an unknown variable throws instead of reaching Prometheus', () => {
  assert.throws(() => substituteVariables('rate(x[$__interval])'), /unsupported Grafana variable \$__interval/);
  assert.throws(() => substituteVariables('up{job="$job"}'), /\$job/);
});

test('lists every target of every panel, and marks the lag panels with the Node jobs they select', () => {
  const dashboards = readDashboards();
  const queries = dashboardQueries(dashboards);
  const targets = dashboards.flatMap(({ dashboard }) => panelsOf(dashboard).flatMap((p) => p.targets));
  assert.equal(queries.length, targets.length);
  assert.ok(queries.every((q) => q.expr && q.panel && q.dashboard));
  for (const { dashboard } of dashboards) {
    const lag = queries.filter((q) => q.dashboard === dashboard.title && q.lag);
    assert.deepEqual(lag.map((q) => q.refId), STALL_FIRST[dashboard.uid] ? [] : ['A', 'B'], dashboard.title);
    for (const q of lag) assert.deepEqual(q.lagJobs, jobsSelected(q.expr, NODE_JOBS), `${dashboard.title} [${q.refId}]`);
  }
  const byTitle = (title) => queries.filter((q) => q.dashboard === title && q.lag).map((q) => q.lagJobs);
  assert.deepEqual(byTitle('Lab overview'), [NODE_JOBS, NODE_JOBS]);
  assert.deepEqual(byTitle('Serialization'), [['node14-fibers', 'node-async'], ['node14-fibers', 'node-async']]);
  assert.ok(queries.filter((q) => !q.lag).every((q) => q.lagJobs === null));
});

test('the jobs a query selects follow every job matcher, anchored as Prometheus anchors them', () => {
  const jobs = ['node14-fibers', 'node-async', 'wasm-runner'];
  assert.deepEqual(jobsSelected('up', jobs), jobs, 'no job matcher: every job');
  assert.deepEqual(jobsSelected('up{job="node-async"}', jobs), ['node-async']);
  assert.deepEqual(jobsSelected('up{job=~"node14-fibers|node-async"}', jobs), ['node14-fibers', 'node-async']);
  assert.deepEqual(jobsSelected('up{job=~"node"}', jobs), [], 'a regex matches the whole value');
  assert.deepEqual(jobsSelected('up{job=~"node.*"}', jobs), ['node14-fibers', 'node-async']);
  assert.deepEqual(jobsSelected('up{job!="wasm-runner"}', jobs), ['node14-fibers', 'node-async']);
  assert.deepEqual(jobsSelected('up{job=~"node.*", job!~"node-a.*"}', jobs), ['node14-fibers'], 'every matcher applies');
  assert.deepEqual(jobsSelected('sum by (job) (up{target_job="x"})', jobs), jobs, 'other labels are not job');
});
