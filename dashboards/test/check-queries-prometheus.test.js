'use strict';
// check-queries.js' judgement of a panel, against a real Prometheus (the binary `make setup` installs): a time series
// is judged over the dashboard's range, and a series whose every point is NaN (what histogram_quantile gives where
// nothing was observed, and any ratio of two such) is no data, while one real point among NaNs is.
const test = require('node:test');
const assert = require('node:assert/strict');
const { checkDashboardQueries } = require('../check-queries');
const { startPrometheus, findPrometheus, freePort } = require('../../tests/prometheus-process');

/** A dashboard of one panel per [title, expr, range], over the last 15 minutes. */
function dashboardOf(panels) {
  return {
    dashboard: {
      title: 'nan',
      time: { from: 'now-15m', to: 'now' },
      panels: panels.map(([title, expr, range]) => ({ title, targets: [{ refId: 'A', expr, range }] })),
    },
  };
}

test('a panel of NaN only is EMPTY, a panel with one real point is OK, as an instant and as a range query', { skip: findPrometheus() ? false : 'no prometheus on this machine' }, async (t) => {
  const { url: prometheus, stop } = await startPrometheus({}, await freePort());
  t.after(stop);
  const fiveMinutesAgo = Math.floor(Date.now() / 1000) - 300;
  // 1 where time() is past fiveMinutesAgo, 0/0 = NaN before it: a series with NaN points and real ones.
  const laterHalf = `(vector(time()) > bool ${fiveMinutesAgo}) / (vector(time()) > bool ${fiveMinutesAgo})`;
  const panels = [
    ['instant NaN', 'vector(0) / 0', false, 'EMPTY', 0],
    ['range NaN', 'vector(0) / 0', true, 'EMPTY', 0],
    ['instant value', 'vector(1)', false, 'OK', 1],
    ['range value', 'vector(1)', true, 'OK', 1],
    ['range: NaN, then values', laterHalf, true, 'OK', 1],
    ['one NaN series beside one real', 'vector(1) or label_replace(vector(0) / 0, "kind", "nan", "", "")', true, 'OK', 1],
    ['no series', 'absent_metric_of_this_test', true, 'EMPTY', 0],
  ];
  const rows = await checkDashboardQueries(prometheus, { dashboards: [dashboardOf(panels)] });
  assert.deepEqual(
    rows.map((r) => [r.panel, r.status, r.series, r.error]),
    panels.map(([title, , , status, series]) => [title, status, series, undefined]),
  );
});
