'use strict';
// The checker's query extraction, variable substitution and annotation regions; its Prometheus side runs against a
// real Prometheus (see README.md), not a stand-in.

const test = require('node:test');
const assert = require('node:assert/strict');
const { dashboardQueries, substituteVariables, allValues, regionsOf, durationSeconds, rangeSeconds, GRAFANA_VARIABLES } = require('../check-queries');
const { NODE_JOBS, STALL_FIRST, readDashboards, panelsOf, annotationsOf, variablesOf, jobsSelected } = require('../read-dashboards');

const withApproach = (variable = {}) => ({
  templating: { list: [{ type: 'query', name: 'approach', multi: true, includeAll: true, allValue: '.+', ...variable }] },
});

test('substitutes $__rate_interval in both spellings with at least 4 scrape intervals', () => {
  assert.equal(substituteVariables('rate(x[$__rate_interval])'), `rate(x[${GRAFANA_VARIABLES.__rate_interval}])`);
  assert.equal(substituteVariables('rate(x[${__rate_interval}])'), `rate(x[${GRAFANA_VARIABLES.__rate_interval}])`);
  assert.ok(parseInt(GRAFANA_VARIABLES.__rate_interval, 10) >= 4, 'scrape interval is 1 s');
});

test("a dashboard's variable becomes its All value, verbatim as Grafana sends a custom All value, in every spelling", () => {
  const dashboard = withApproach();
  assert.deepEqual(allValues(dashboard), { approach: '.+' });
  for (const ref of ['$approach', '${approach}', '[[approach]]']) {
    assert.equal(substituteVariables(`x{approach=~"${ref}"}[$__rate_interval]`, dashboard), `x{approach=~".+"}[${GRAFANA_VARIABLES.__rate_interval}]`, ref);
  }
  assert.equal(substituteVariables('x{a=~"$approach", b=~"$approach"}', dashboard), 'x{a=~".+", b=~".+"}', 'every occurrence');
  assert.equal(substituteVariables('x{approach=~"$approaches"}', withApproach({ name: 'approaches' })), 'x{approach=~".+"}', 'the whole name');
});

test("for Grafana, the dashboard's variables are substituted and Grafana's own are left to its backend", () => {
  const expr = 'rate(x{approach=~"$approach"}[$__rate_interval])';
  assert.equal(substituteVariables(expr, withApproach(), { keepGrafanaVariables: true }), 'rate(x{approach=~".+"}[$__rate_interval])');
  assert.throws(() => substituteVariables('up{job="$job"}', withApproach(), { keepGrafanaVariables: true }), /\$job/);
});

test('an unknown variable, a formatted one, or one without an All value throws instead of reaching Prometheus', () => {
  assert.throws(() => substituteVariables('rate(x[$__interval])'), /unsupported Grafana variable \$__interval/);
  assert.throws(() => substituteVariables('up{job="$job"}'), /\$job/);
  assert.throws(() => substituteVariables('x{approach=~"$approach"}'), /\$approach/, 'a variable of another dashboard');
  assert.throws(() => substituteVariables('x{approach=~"${approach:regex}"}', withApproach()), /\$\{approach:regex\}/);
  assert.throws(() => substituteVariables('x', withApproach({ allValue: undefined })), /\$approach has no All value/);
  assert.throws(() => substituteVariables('x', withApproach({ includeAll: false })), /\$approach has no All value/);
});

test("every query of the lab's dashboards substitutes to plain PromQL", () => {
  for (const q of dashboardQueries()) {
    const query = substituteVariables(q.expr, q.board);
    assert.doesNotMatch(query, /\$|\[\[/, `${q.dashboard} / ${q.panel} [${q.refId}]: ${query}`);
  }
});

test('lists every target of every panel, each annotation and each variable, and marks the lag panels with the Node jobs they select', () => {
  const dashboards = readDashboards();
  const queries = dashboardQueries(dashboards);
  const panelQueries = queries.filter((q) => q.kind === 'panel');
  const targets = dashboards.flatMap(({ dashboard }) => panelsOf(dashboard).flatMap((p) => p.targets));
  assert.equal(panelQueries.length, targets.length);
  const annotations = queries.filter((q) => q.kind === 'annotation');
  assert.equal(annotations.length, dashboards.flatMap(({ dashboard }) => annotationsOf(dashboard)).length);
  assert.equal(annotations.length, dashboards.length, 'the scenario annotation on every dashboard');
  assert.ok(annotations.every((q) => q.interval && q.refId === 'Anno'));
  const variables = queries.filter((q) => q.kind === 'variable');
  assert.deepEqual(variables.map((q) => q.refId), dashboards.flatMap(({ dashboard }) => variablesOf(dashboard).map((v) => v.name)));
  assert.ok(variables.length > 0, 'the approach variables');
  assert.equal(queries.length, panelQueries.length + annotations.length + variables.length);
  assert.ok(queries.every((q) => q.expr && q.panel && q.dashboard && q.board));
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

test("annotation regions follow Grafana's: samples above 0, joined while at most a step apart", () => {
  const step = 1000;
  assert.deepEqual(regionsOf([], step), []);
  assert.deepEqual(regionsOf([[0, 0], [1000, 0]], step), [], 'a scenario that is not running draws nothing');
  assert.deepEqual(regionsOf([[0, 0], [1000, 1], [2000, 1], [3000, 1], [4000, 0]], step), [{ start: 1000, end: 3000 }]);
  assert.deepEqual(regionsOf([[1000, 1], [2000, 0], [3000, 1]], step), [{ start: 1000, end: 1000 }, { start: 3000, end: 3000 }], 'a 0 between two runs');
  assert.deepEqual(regionsOf([[1000, 1], [4000, 1]], step), [{ start: 1000, end: 1000 }, { start: 4000, end: 4000 }], 'a gap of more than a step');
  assert.deepEqual(regionsOf([[1000, 1], [2000, 1]], 2 * step), [{ start: 1000, end: 2000 }]);
  assert.deepEqual(regionsOf([[1000, NaN], [2000, -1]], step), [], 'NaN and negative values are not above 0');
});

test('durations are Grafana units of one kind', () => {
  assert.equal(durationSeconds('1s'), 1);
  assert.equal(durationSeconds('15m'), 900);
  assert.equal(durationSeconds('2h'), 7200);
  assert.equal(durationSeconds('1d'), 86400);
  for (const bad of ['', '1', '1m30s', '$__interval', 'now-15m']) assert.throws(() => durationSeconds(bad), /is not a duration/, bad);
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

test("$__range is the dashboard's time range in seconds, and is left to Grafana's backend for Grafana", () => {
  const board = { time: { from: 'now-15m', to: 'now' } };
  assert.equal(rangeSeconds(board), 900);
  assert.equal(substituteVariables('rate(x[$__range])', board), 'rate(x[900s])');
  assert.equal(substituteVariables('rate(x[${__range}])', board, { keepGrafanaVariables: true }), 'rate(x[${__range}])');
  assert.throws(() => substituteVariables('rate(x[$__range])', { time: { from: 'now-15m', to: 'now-5m' } }), /not now-<duration> to now/);
});
