'use strict';
// Test helpers for the Node services: a real server on port 0, real HTTP (Node 14 has no fetch), and the contract
// checks every Node service runs against itself with its own express, prom-client and Node line.
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const { edgeCases, runCases, checkCases, checkPipeline, sendRaw, healthzThenBrokenHeads } = require('./bad-requests');
const { exchange } = require('./raw-http');
const { HTTP_METHODS } = require('@lab/node-kit/route-table');
const { METRIC } = require('@lab/node-kit/metrics');

const madeDirs = [];

/**
 * A new folder in the temp directory (prefix: what it is for), removed when the test file's process exits, whether
 * its tests passed or failed: after every after-hook has stopped what wrote into it (a driver, a native lab), which a
 * per-test hook registered before theirs would not be.
 */
function tempDir(prefix) {
  if (madeDirs.length === 0) {
    process.once('exit', () => {
      for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

async function startService(service) {
  const { port, close, server } = await service.start({ port: 0, host: '127.0.0.1', handleSignals: false });
  return { url: `http://127.0.0.1:${port}`, close, server };
}

function request(url, options) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, Object.assign({ method: 'GET', agent: false }, options), (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = /json/.test(res.headers['content-type'] || '') ? JSON.parse(text) : undefined;
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Samples of one metric in Prometheus text: [{labels: {name: value}, value: number}]. */
function samples(text, name) {
  const out = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels = {};
    for (const pair of (match[2] || '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    out.push({ labels, value: Number(match[3]) });
  }
  return out;
}

/** The sum of a metric's samples whose labels include all of `match`. */
function sumOf(text, name, match) {
  return samples(text, name)
    .filter((s) => Object.keys(match).every((k) => s.labels[k] === match[k]))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Allocates `count` small objects and drops them: garbage for the collector. */
function makeGarbage(count) {
  const garbage = [];
  for (let i = 0; i < count; i++) garbage.push({ i, text: `garbage ${i}` });
  return garbage.length;
}

/**
 * Registers the contract's checks with the given test runner (node:test, or the `test` package on Node 14).
 * sample: {workload, query} a quick run that must validate.
 */
function contractSuite(test, assert, makeService, sample) {
  let server;
  test('contract: start on port 0', async () => {
    server = await startService(makeService());
  });

  test('contract: /healthz, /info and /metrics', async () => {
    assert.deepStrictEqual((await request(`${server.url}/healthz`)).json, { status: 'ok', runs: 0 });
    const info = (await request(`${server.url}/info`)).json;
    assert.strictEqual(typeof info.service, 'string');
    assert.strictEqual(typeof info.runtime.version, 'string');
    if (info.runtime.name === 'node') assert.ok(Array.isArray(info.runtime.options) && info.runtime.options.every((o) => typeof o === 'string'), 'runtime.options lists what Node started with');
    assert.strictEqual(info.restarts, 0, '/info counts the restarts (LAB_RESTARTS, unset here)');
    assert.ok(info.workloads[sample.workload].approaches.length > 0);
    const metrics = await request(`${server.url}/metrics`);
    assert.strictEqual(metrics.status, 200);
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'process_cpu_seconds_total', 'process_resident_memory_bytes']) {
      assert.ok(metrics.text.includes(name), `metrics lack ${name}`);
    }
  });

  // The service runs in this test's process, so the garbage made here is collected by the service's runtime: the
  // test allocates until a pause is counted (bounded in rounds, never in time), on its own Node line and prom-client.
  test('contract: event-loop busy seconds grow, and every collector pause is counted with the longest since the scrape', async () => {
    const scrape = async () => (await request(`${server.url}/metrics`)).text;
    const first = await scrape();
    const busyBefore = sumOf(first, METRIC.loopBusy, {});
    let pausesBefore = sumOf(first, `${METRIC.gcPause}_count`, {});
    let rose = null;
    for (let round = 0; round < 200 && rose === null; round++) {
      makeGarbage(200000);
      const text = await scrape();
      if (sumOf(text, `${METRIC.gcPause}_count`, {}) > pausesBefore) rose = text;
      else pausesBefore = sumOf(text, `${METRIC.gcPause}_count`, {});
    }
    assert.ok(rose !== null, 'no collector pause was counted in 200 rounds of allocation');
    const pausedSeconds = sumOf(rose, `${METRIC.gcPause}_sum`, {}) - sumOf(first, `${METRIC.gcPause}_sum`, {});
    const longest = sumOf(rose, METRIC.gcPauseMax, {});
    assert.ok(longest > 0 && longest <= pausedSeconds + 1e-9, `the longest pause since the last scrape (${longest} s) is one of the pauses counted (${pausedSeconds} s in all)`);
    assert.ok(samples(rose, `${METRIC.gcPause}_count`).every((s) => ['major', 'minor', 'incremental', 'weakcb'].includes(s.labels.kind)), 'every pause has a known kind');
    const busyAfter = sumOf(rose, METRIC.loopBusy, {});
    assert.ok(busyAfter > busyBefore, `busy seconds grew over the allocations (${busyBefore} -> ${busyAfter})`);
    assert.ok(busyAfter <= process.uptime(), 'the loop cannot have been busy longer than the process ran');
  });

  test('contract: every approach of the sample workload validates', async () => {
    const info = (await request(`${server.url}/info`)).json;
    for (const approach of info.workloads[sample.workload].approaches) {
      const res = await request(`${server.url}/run/${sample.workload}?approach=${approach}&${sample.query}`);
      assert.strictEqual(res.status, 200, res.text);
      assert.strictEqual(res.json.validated, true, `${approach}: ${res.text}`);
      assert.match(res.json.hash, /^[0-9a-f]{64}$/);
      assert.ok(res.json.ms >= 0 && res.json.bytes > 0);
      const loop = res.json.eventLoop;
      if (loop) {
        // The collector's part of each block is said, and is part of it (CONTRACT.md).
        assert.ok(loop.maxBlockGcMs >= 0 && loop.maxBlockGcMs <= loop.maxBlockMs, `${approach}: ${JSON.stringify(loop)}`);
        for (const part of ['maxOwnBlockGcMs', 'maxOwnBlockLessGcMs']) {
          assert.ok(loop.maxOwnBlockMs === null ? loop[part] === null : loop[part] >= 0 && loop[part] <= loop.maxOwnBlockMs, `${approach} ${part}: ${JSON.stringify(loop)}`);
        }
      }
    }
    const metrics = (await request(`${server.url}/metrics`)).text;
    const approaches = info.workloads[sample.workload].approaches.length;
    assert.strictEqual(sumOf(metrics, 'lab_runs_total', { workload: sample.workload, outcome: 'ok' }), approaches);
    assert.strictEqual(sumOf(metrics, 'lab_run_duration_seconds_count', { workload: sample.workload }), approaches);
    assert.ok(sumOf(metrics, 'http_request_duration_seconds_count', { route: '/run/:workload', status_code: '200' }) >= approaches);
  });

  test('contract: bad input gets a 400 naming what is allowed, and the service keeps serving', async () => {
    const info = (await request(`${server.url}/info`)).json;
    const params = info.workloads[sample.workload].params;
    const numeric = Object.keys(params).find((name) => params[name].max !== undefined);
    const cases = [
      [`approach=nope`, 'approach'],
      [`bogus=1`, 'bogus'],
      [`${numeric}=abc`, numeric],
      [`${numeric}=1.5`, numeric],
      [`${numeric}=${params[numeric].max + 1}`, numeric],
      [`${numeric}=${params[numeric].min - 1}`, numeric],
      [`${numeric}=1&${numeric}=2`, numeric],
    ];
    for (const [query, parameter] of cases) {
      const res = await request(`${server.url}/run/${sample.workload}?${query}`);
      assert.strictEqual(res.status, 400, `${query}: ${res.text}`);
      assert.strictEqual(typeof res.json.error, 'string');
      assert.strictEqual(res.json.parameter, parameter, query);
      assert.ok(res.json.allowed !== undefined, query);
    }
    assert.strictEqual((await request(`${server.url}/healthz`)).status, 200);
  });

  test("contract: every bad request of CONTRACT.md's table gets its one answer", async () => {
    const info = (await request(`${server.url}/info`)).json;
    const runsBefore = sumOf((await request(`${server.url}/metrics`)).text, 'lab_runs_total', {});
    const problems = await checkCases(Number(new URL(server.url).port), edgeCases().concat(runCases(info)));
    assert.deepStrictEqual(problems, []);
    assert.strictEqual((await request(`${server.url}/healthz`)).status, 200);
    const metrics = (await request(`${server.url}/metrics`)).text;
    assert.ok(sumOf(metrics, 'http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' }) >= 1);
    assert.strictEqual(sumOf(metrics, 'lab_runs_total', { outcome: 'error' }), 0);
    assert.strictEqual(sumOf(metrics, 'lab_runs_total', {}), runsBefore, 'a refused request started a run');
    const methods = samples(metrics, 'http_request_duration_seconds_count').map((s) => s.labels.method);
    assert.deepStrictEqual([...new Set(methods)].filter((m) => !HTTP_METHODS.includes(m) && m !== 'other'), []);
  });

  test('contract: a broken head pipelined after a valid request: the 200 first, then the 400, then the close', async () => {
    for (const bytes of healthzThenBrokenHeads()) {
      assert.deepStrictEqual(await checkPipeline(Number(new URL(server.url).port), bytes, [200]), [], JSON.stringify(bytes));
    }
  });

  test("contract: bare LFs in a body are data: the requests after it are answered", async () => {
    const healthz = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n';
    const bytes = `${healthz}Content-Length: 4\r\n\r\na\nb\n${healthz}Transfer-Encoding: chunked\r\n\r\n3\r\n\n\n\n\r\n0\r\n\r\n${healthz}Connection: close\r\n\r\n`;
    const { answers } = await exchange(Number(new URL(server.url).port), bytes);
    assert.deepStrictEqual(answers.map((a) => a.status), [200, 200, 200]);
  });

  test('contract: an HTTP/1.0 request needs no Host', async () => {
    const { answers } = await exchange(Number(new URL(server.url).port), 'GET /healthz HTTP/1.0\r\n\r\n');
    assert.deepStrictEqual(answers.map((a) => [a.status, a.body]), [[200, '{"status":"ok","runs":0}']]);
  });

  test("contract: a refused request's body is not read: the answer comes, and the connection closes, without it", async () => {
    // 50 MB announced, 10 bytes sent: the server answers and closes at once (Node would otherwise wait to read it all).
    const answer = await sendRaw(Number(new URL(server.url).port), { method: 'POST', target: '/nope', body: '{"a":1234}', declaredLength: 50 * 1024 * 1024 });
    assert.strictEqual(answer.status, 404);
    assert.strictEqual(answer.headers.connection, 'close');
  });

  test('contract: shutdown lets an in-flight run finish, then refuses connections', async () => {
    const arrived = new Promise((resolve) => server.server.once('request', resolve));
    const inFlight = request(`${server.url}/run/${sample.workload}?${sample.query}`);
    await arrived;
    await server.close();
    assert.strictEqual((await inFlight).status, 200);
    await assert.rejects(request(`${server.url}/healthz`), /ECONNREFUSED/);
  });
}

/**
 * Polls `probe` every 500 ms until it returns {done: true, value}, and resolves to that value; rejects after
 * timeoutMs with the last {why} the probe gave (or the last error it threw), so a timeout says what was missing.
 */
async function until(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (last.done) return last.value;
    } catch (err) {
      last = { why: err.message };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${what} not reached in ${timeoutMs} ms: ${last && last.why}`);
}

/**
 * Whether url answers a GET with 2xx, its body read to the end, within timeoutMs; false for anything else (refused,
 * another status, too slow). http, not fetch: Node 14 loads this file.
 */
function answersOk(url, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => settle(res.statusCode >= 200 && res.statusCode < 300));
      res.on('error', () => settle(false));
    });
    const timer = setTimeout(() => req.destroy(new Error(`no whole answer in ${timeoutMs} ms`)), timeoutMs);
    function settle(ok) {
      clearTimeout(timer);
      resolve(ok);
    }
    req.on('error', () => settle(false));
  });
}

/** A port nothing listens on now: a target that is down, or a port to hand a process that cannot be told to take 0. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

module.exports = { startService, request, samples, sumOf, contractSuite, until, tempDir, freePort, answersOk };
