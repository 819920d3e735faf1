'use strict';
// The checker's query extraction and variable substitution; its Prometheus side runs against a real Prometheus
// (see README.md), not a stand-in.

const test = require('node:test');
const assert = require('node:assert/strict');
const { dashboardQueries, substituteVariables, GRAFANA_VARIABLES } = require('../check-queries');
const { readDashboards, panelsOf } = require('../read-dashboards');

test('substitutes $__rate_interval in both spellings with at least 4 scrape intervals', () => {
  assert.equal(substituteVariables('rate(x[$__rate_interval])'), `rate(x[${GRAFANA_VARIABLES.__rate_interval}])`);
  assert.equal(substituteVariables('rate(x[${__rate_interval}])'), `rate(x[${GRAFANA_VARIABLES.__rate_interval}])`);
  assert.ok(parseInt(GRAFANA_VARIABLES.__rate_interval, 10) >= 4, 'scrape interval is 1 s');
});

test('an unknown variable throws instead of reaching Prometheus', () => {
  assert.throws(() => substituteVariables('rate(x[$__interval])'), /unsupported Grafana variable \$__interval/);
  assert.throws(() => substituteVariables('up{job="$job"}'), /\$job/);
});

test('lists every target of every panel, and marks the lag panel', () => {
  const dashboards = readDashboards();
  const queries = dashboardQueries(dashboards);
  const targets = dashboards.flatMap(({ dashboard }) => panelsOf(dashboard).flatMap((p) => p.targets));
  assert.equal(queries.length, targets.length);
  const lag = queries.filter((q) => q.lag);
  assert.deepEqual(lag.map((q) => q.refId), ['A', 'B']);
  assert.ok(queries.every((q) => q.expr && q.panel && q.dashboard));
});
