'use strict';
// check-queries.js' judgement of a panel, against a real Prometheus (the binary `make setup` installs): a time series
// is judged over the dashboard's range, and a series whose every point is NaN (what histogram_quantile gives where
// nothing was observed, and any ratio of two such) is no data, while one real point among NaNs is.
const test = require('node:test');
const assert = require('node:assert/strict');
const { checkDashboardQueries } = require('../check-queries');
const { startPrometheus, findPrometheus, freePort } = require('@lab/test-kit/prometheus-process');

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

// The panels that say why a service stalls, on a real node-async scraped by a real Prometheus: the queries that
// select node-async return its series, and the others (the JVM's, wasm-runner's: not running here) are accepted by
// Prometheus, only empty.
test("the ELU, GC pause and thread-wait panels' queries against a real node-async and a real Prometheus", { skip: findPrometheus() ? false : 'no prometheus on this machine' }, async (t) => {
  const { startService, request, until } = require('@lab/test-kit');
  const { makeService } = require('@lab/node-async/src/service');
  const { METRIC, JVM_METRIC } = require('@lab/node-kit/metrics');
  const { readDashboards, panelsOf, jobsSelected, WHY_PANELS } = require('../read-dashboards');
  const service = await startService(makeService());
  t.after(() => service.close());
  const { url: prometheus, stop } = await startPrometheus({ 'node-async': new URL(service.url).host }, await freePort());
  t.after(stop);
  const why = [METRIC.loopBusy, METRIC.gcPauseMax, JVM_METRIC.threadWaitMax];
  const boards = readDashboards().map(({ file, dashboard }) => ({ file, dashboard: Object.assign({}, dashboard, { panels: panelsOf(dashboard).filter((p) => p.targets.some((x) => why.some((m) => x.expr.includes(m)))) }) }))
    .filter(({ dashboard }) => dashboard.panels.length > 0);
  assert.deepEqual(boards.map(({ dashboard }) => dashboard.uid).sort(), Object.keys(WHY_PANELS).sort());
  const ofNodeAsync = (row) => jobsSelected(row.expr, ['node-async', 'jvm-serializer']).includes('node-async') && !row.expr.includes('lab_http_thread_wait');
  // Runs until Prometheus has seen a collector pause of node-async's: every query that selects it then has data.
  const rows = await until('the node-async panels with data', 120000, async () => {
    await request(`${service.url}/run/stringify?approach=native&size=20000`);
    const found = (await checkDashboardQueries(prometheus, { dashboards: boards })).filter((r) => r.kind === 'panel');
    const mine = found.filter(ofNodeAsync);
    return { done: mine.length > 0 && mine.every((r) => r.status === 'OK' && r.jobs.includes('node-async')), value: found, why: found.map((r) => `${r.dashboard} / ${r.panel} [${r.refId}] ${r.status}`).join('; ') };
  });
  assert.ok(rows.filter(ofNodeAsync).length >= 9, 'the overview\'s, serialization\'s and offload\'s ELU and GC queries');
  for (const row of rows) assert.notEqual(row.status, 'ERROR', `${row.panel} [${row.refId}]: ${row.error}`);
  const others = rows.filter((r) => !ofNodeAsync(r));
  assert.ok(others.length >= 6 && others.every((r) => r.status === 'EMPTY'), `what is not running here is empty, not refused: ${others.map((r) => `${r.panel} [${r.refId}] ${r.status}`)}`);
});
