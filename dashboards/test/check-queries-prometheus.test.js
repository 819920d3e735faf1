'use strict';
// check-queries.js' judgement of a panel, against a real Prometheus (the binary `make setup` installs): a time series
// is judged over the dashboard's range, and a series whose every point is NaN (what histogram_quantile gives where
// nothing was observed, and any ratio of two such) is no data, while one real point among NaNs is.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { checkDashboardQueries } = require('../check-queries');
const { until } = require('../../node-kit/testing');

const PROMETHEUS = process.env.PROMETHEUS_BIN || 'prometheus';
const hasPrometheus = spawnSync(PROMETHEUS, ['--version']).status === 0;
// Bounds a Prometheus that does not start; times nothing.
const READY_TIMEOUT_MS = 120000;

/** A port free now: Prometheus cannot listen on port 0 and say which it got. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startPrometheus(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-queries-prometheus-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1s\n');
  const port = await freePort();
  const child = spawn(PROMETHEUS, [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  t.after(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const url = `http://127.0.0.1:${port}`;
  await until('Prometheus ready', READY_TIMEOUT_MS, async () => {
    if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${log}`);
    return { done: (await fetch(`${url}/-/ready`)).ok, why: 'not ready' };
  });
  return url;
}

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

test('a panel of NaN only is EMPTY, a panel with one real point is OK, as an instant and as a range query', { skip: hasPrometheus ? false : `no ${PROMETHEUS} on this machine` }, async (t) => {
  const prometheus = await startPrometheus(t);
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
