'use strict';
// docker/grafana-check.js against a real HTTP server on port 0 that answers as Grafana 12 does (its HTTP API docs:
// /api/health, /api/datasources/uid/:uid/health, /api/dashboards/uid/:uid, /api/dashboards/db, /api/ds/query), once
// as the lab's Grafana should and then with each way it can go wrong. The real Grafana only runs in `make smoke` with
// the upstream images.
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const { checkGrafana, assertGrafana, WRITE_PROBE } = require('../grafana-check');
const { readDashboards, panelsOf, annotationsOf, datasourceUid } = require('@lab/dashboards/read-dashboards');

const UID = datasourceUid();
const dashboards = readDashboards();
const NOW = Date.now();
const frame = (values) => ({ schema: { fields: [{ name: 'Time', type: 'time' }, { name: 'Value', type: 'number' }] }, data: { values: [values.map((_, i) => NOW - (values.length - i) * 1000), values] } });

// Grafana's answers, route by route; a test replaces the ones it breaks.
const GRAFANA = {
  health: () => [200, { commit: 'abc', database: 'ok', version: '12.1.0' }],
  datasourceHealth: (uid) => (uid === UID ? [200, { status: 'OK', message: 'Successfully queried the Prometheus API.' }] : [404, { message: 'Data source not found' }]),
  dashboard: (uid) => {
    const found = dashboards.find(({ dashboard }) => dashboard.uid === uid);
    if (!found) return [404, { message: 'Dashboard not found' }];
    return [200, { dashboard: found.dashboard, meta: { provisioned: true, canSave: false, canEdit: false, folderTitle: 'Lab' } }];
  },
  write: () => [403, { accessErrorId: 'ACE123', message: "You'll need additional permissions to perform this action. Permissions needed: any(dashboards:create, dashboards:write)" }],
  query: (query) => [200, { results: { [query.refId]: { status: 200, frames: [frame([0, 1, 1, 0])] } } }],
};

/** Starts the stand-in on port 0; resolves to {url, requests, close}. */
async function grafana(overrides = {}) {
  const answers = Object.assign({}, GRAFANA, overrides);
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const json = body ? JSON.parse(body) : null;
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: json });
      const route = (method, pattern) => req.method === method && pattern.exec(req.url);
      let m;
      let answer = [404, { message: 'Not found' }];
      if (route('GET', /^\/api\/health$/)) answer = answers.health();
      else if ((m = route('GET', /^\/api\/datasources\/uid\/([^/]+)\/health$/))) answer = answers.datasourceHealth(decodeURIComponent(m[1]));
      else if ((m = route('GET', /^\/api\/dashboards\/uid\/([^/]+)$/))) answer = answers.dashboard(decodeURIComponent(m[1]));
      else if (route('POST', /^\/api\/dashboards\/db$/)) answer = answers.write(json);
      else if (route('POST', /^\/api\/ds\/query$/)) answer = answers.query(json.queries[0], json);
      const [status, payload] = answer;
      res.writeHead(status, { 'content-type': typeof payload === 'string' ? 'text/html' : 'application/json' });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The failed checks of a run against a stand-in with `overrides`: {check: detail}. */
async function failures(overrides) {
  const g = await grafana(overrides);
  try {
    const rows = await checkGrafana(g.url);
    return Object.fromEntries(rows.filter((r) => !r.ok).map((r) => [r.check, r.detail]));
  } finally {
    await g.close();
  }
}

// Every query a dashboard runs: its panels' targets and its annotations, as the dashboard JSON holds them.
const expected = dashboards.flatMap(({ dashboard }) =>
  panelsOf(dashboard)
    .flatMap((p) => p.targets.map((t) => ({ refId: t.refId, expr: t.expr, interval: '' })))
    .concat(annotationsOf(dashboard).map((a) => ({ refId: 'Anno', expr: a.expr, interval: a.interval }))),
);

test("a Grafana answering as the lab's should passes every check, asked anonymously for exactly what the dashboards run", async () => {
  const g = await grafana();
  try {
    const rows = await checkGrafana(g.url);
    assert.deepEqual(rows.filter((r) => !r.ok), []);
    assert.equal(rows.length, 2 + dashboards.length + 1 + expected.length);
    assert.match(await assertGrafana(g.url), new RegExp(`${dashboards.length} dashboards .* all ${expected.length} panel and annotation queries with data`));
    for (const r of g.requests) {
      assert.equal(r.headers.authorization, undefined, `${r.method} ${r.url} sent credentials`);
      assert.equal(r.headers.cookie, undefined, `${r.method} ${r.url} sent a cookie`);
    }
    assert.deepEqual(g.requests.find((r) => r.url === '/api/dashboards/db').body, WRITE_PROBE);
    const queries = g.requests.filter((r) => r.url === '/api/ds/query').slice(0, expected.length);
    assert.equal(queries.length, expected.length);
    queries.forEach(({ body }, i) => {
      assert.deepEqual([body.from, body.to], ['now-15m', 'now'], 'the dashboards\' range');
      assert.equal(body.queries.length, 1);
      const [q] = body.queries;
      assert.deepEqual(q.datasource, { type: 'prometheus', uid: UID });
      assert.equal(q.refId, expected[i].refId);
      assert.equal(q.interval, expected[i].interval, 'an annotation\'s min step');
      assert.equal(q.range, true);
      // $approach at its All value, as Grafana sends a custom All value; $__rate_interval left to Grafana's backend.
      assert.equal(q.expr, expected[i].expr.replaceAll('$approach', '.+'));
    });
    assert.ok(queries.some(({ body }) => body.queries[0].expr.includes('approach=~".+"')), 'the approach variable was exercised');
    assert.ok(queries.some(({ body }) => body.queries[0].expr.includes('[$__rate_interval]')), 'rate intervals reach Grafana as they are');
  } finally {
    await g.close();
  }
});

test('an unhealthy Grafana or datasource fails with what Grafana says', async () => {
  const failed = await failures({
    health: () => [503, { commit: 'abc', database: 'failing', version: '12.1.0' }],
    datasourceHealth: () => [400, { status: 'ERROR', message: 'Post "http://prometheus:9090/api/v1/query": dial tcp: lookup prometheus: no such host' }],
  });
  assert.match(failed.health, /HTTP 503/);
  assert.match(failed[`datasource ${UID}`], /HTTP 400: Post .*no such host/);
});

test('a dashboard that is missing, not provisioned, or saveable by an anonymous viewer fails, named by uid', async () => {
  const [first, second, third] = dashboards.map(({ dashboard }) => dashboard.uid);
  const failed = await failures({
    dashboard: (uid) => {
      const [status, body] = GRAFANA.dashboard(uid);
      if (uid === first) return [404, { message: 'Dashboard not found' }];
      if (uid === second) return [200, { ...body, meta: { ...body.meta, provisioned: false } }];
      if (uid === third) return [200, { ...body, meta: { ...body.meta, canSave: true } }];
      return [status, body];
    },
  });
  assert.deepEqual(Object.keys(failed).filter((k) => k.startsWith('dashboard ')), [`dashboard ${first}`, `dashboard ${second}`, `dashboard ${third}`]);
  assert.match(failed[`dashboard ${first}`], /HTTP 404: Dashboard not found/);
  assert.match(failed[`dashboard ${second}`], /not provisioned/);
  assert.match(failed[`dashboard ${third}`], /may save/);
});

test('an anonymous login page instead of the dashboard (anonymous access off) fails', async () => {
  const failed = await failures({ dashboard: () => [401, { message: 'Unauthorized' }] });
  assert.equal(Object.keys(failed).filter((k) => k.startsWith('dashboard ')).length, dashboards.length);
  assert.match(failed[`dashboard ${dashboards[0].dashboard.uid}`], /HTTP 401: Unauthorized/);
});

test('an anonymous write that is accepted, or judged on its content instead of refused, fails', async () => {
  const accepted = await failures({ write: () => [200, { id: 7, uid: 'lab-grafana-check-write', status: 'success', version: 1 }] });
  assert.match(accepted['anonymous write refused'], /answered HTTP 200.*not 401 or 403/);
  const judged = await failures({ write: () => [400, { message: 'Dashboard title cannot be empty' }] });
  assert.match(judged['anonymous write refused'], /answered HTTP 400/);
  const unauthorized = await failures({ write: () => [401, { message: 'Unauthorized' }] });
  assert.equal(unauthorized['anonymous write refused'], undefined, '401 is a refusal too');
});

test('a query that errors, has no frame, has frames without values or only nulls, or an annotation with no sample above 0, fails', async () => {
  const failed = await failures({
    query: (q) => {
      if (q.refId === 'Anno') return [200, { results: { Anno: { status: 200, frames: [frame([0, 0, 0])] } } }];
      if (q.expr.includes('nodejs_eventloop_lag_p99_seconds')) return [400, { results: { [q.refId]: { status: 400, error: 'bad_data: invalid parameter "query": 1:1: parse error' } } }];
      if (q.expr.includes('nodejs_eventloop_lag_max_seconds')) return [200, { results: { [q.refId]: { status: 200, frames: [] } } }];
      if (q.expr.includes('process_cpu_seconds_total')) return [200, { results: { [q.refId]: { status: 200, frames: [{ schema: { fields: [] }, data: { values: [[], []] } }] } } }];
      if (q.expr.includes('process_resident_memory_bytes')) return [200, { results: { [q.refId]: { status: 200, frames: [frame([null, null])] } } }];
      return GRAFANA.query(q);
    },
  });
  const failedQueries = Object.entries(failed);
  assert.ok(failedQueries.every(([check]) => check.startsWith('query ')), Object.keys(failed).join(', '));
  const lagP99 = failedQueries.filter(([check]) => /Event-loop lag.*\[A\]$/.test(check));
  assert.ok(lagP99.length > 0 && lagP99.every(([, detail]) => /HTTP 400: bad_data/.test(detail)), JSON.stringify(lagP99));
  assert.ok(failedQueries.filter(([check]) => /Event-loop lag.*\[B\]$/.test(check)).every(([, detail]) => /no data: 0 frames/.test(detail)));
  assert.ok(failedQueries.some(([check, detail]) => /CPU per process/.test(check) && /no data: 1 frames without a value/.test(detail)));
  assert.ok(failedQueries.some(([check, detail]) => /Resident memory per process/.test(check) && /no data: 1 frames without a value/.test(detail)), 'only nulls (NaN, gaps)');
  const annotations = failedQueries.filter(([check]) => check.includes('annotation "Load scenarios"'));
  assert.equal(annotations.length, dashboards.length, 'every dashboard\'s annotation');
  assert.ok(annotations.every(([, detail]) => /no region: 1 series, none above 0/.test(detail)));
});

test('a proxy error page or a result without the query, instead of Grafana\'s JSON, fails with its status', async () => {
  const failed = await failures({
    query: (q) => (q.refId === 'A' ? [502, '<html><body>502 Bad Gateway</body></html>'] : [200, { results: {} }]),
  });
  const details = Object.values(failed);
  assert.equal(details.length, expected.length, 'every query');
  assert.ok(details.some((d) => /no result for A: HTTP 502: <html><body>502 Bad Gateway/.test(d)));
  assert.ok(details.some((d) => /no result for Anno: HTTP 200/.test(d)));
});

test('with no Grafana listening every check fails and none throws', async () => {
  const g = await grafana();
  await g.close();
  const rows = await checkGrafana(g.url);
  assert.equal(rows.length, 2 + dashboards.length + 1 + expected.length);
  assert.ok(rows.every((r) => !r.ok && /fetch failed|ECONNREFUSED/.test(r.detail)), JSON.stringify(rows[0]));
  await assert.rejects(assertGrafana(g.url), new RegExp(`${rows.length} of ${rows.length} checks failed`));
});
