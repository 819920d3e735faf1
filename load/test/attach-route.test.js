'use strict';
// The driver's POST /attach (src/attach/attach-request.js) on the real driver (src/main.js on port 0) against a small
// real HTTP server of the test's own: what it refuses before anything runs (each a 400 naming what is allowed, a body
// past the cap a 413 naming it), that it loads the hosts of the driver's own targets beside loopback, and a whole
// attach run without an agent: 202 with its links, the run followed on /runs/latest to its verdict, the attached
// target among the live page's, a second POST while it runs a 409, and the driver serving on. A run with the lab's
// agent, scraped by a native Prometheus, is tests/integration/attach.test.js'.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const path = require('node:path');
const { request, until, tempDir, freePort } = require('@lab/test-kit');
const { startDriver, stopDriver } = require('./driver-process');
const { MAX_BODY_BYTES } = require('../src/attach/attach-request');

/** A service the lab did not write: GET or POST /items answers JSON (POST echoes the body's length), /ping answers, the rest 404. */
async function startSmallService(t) {
  const seen = { bodies: [] };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      if (req.method === 'POST' && url.pathname === '/items') seen.bodies.push({ body: Buffer.concat(chunks).toString('utf8'), type: req.headers['x-kind'] });
      const known = url.pathname === '/items' || url.pathname === '/ping';
      res.writeHead(known ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(known ? { items: [1, 2, 3] } : { error: 'no such route' }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  server.closeIdleConnections();
  return Object.assign(seen, { url: `http://127.0.0.1:${server.address().port}`, server });
}

async function startIdleDriver(t, env = {}) {
  const dir = tempDir('load-attach-route-');
  const driver = await startDriver(Object.assign({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', PROMETHEUS_URL: 'none', RESULTS_DIR: path.join(dir, 'results'), LOAD_TARGETS: 'lab-service=http://lab-service.invalid:3001' }, env));
  t.after(async () => {
    await stopDriver(driver);
    require('node:fs').rmSync(dir, { recursive: true, force: true });
  });
  return driver;
}

const attach = async (driver, query, init = {}) => {
  const res = await fetch(`${driver.url}/attach?${new URLSearchParams(query)}`, Object.assign({ method: 'POST' }, init));
  return { status: res.status, json: await res.json() };
};

test('POST /attach refuses what it cannot load, naming what is allowed, and starts nothing', async (t) => {
  const service = await startSmallService(t);
  const driver = await startIdleDriver(t);
  const refused = [
    [{}, 400, /parameter url is required/, 'url'],
    [{ url: 'not a url' }, 400, /url must be a URL like/, 'url'],
    [{ url: 'ftp://127.0.0.1/x' }, 400, /must be an http:\/\/ URL/, 'url'],
    [{ url: 'http://10.1.2.3:3000/db' }, 400, /10\.1\.2\.3 is not this machine nor one of the lab's own hosts; .*LOAD_ATTACH_ALLOW_REMOTE=1/, 'url'],
    [{ url: `${service.url}/items`, method: 'TRACE' }, 400, /method must be one of GET, POST, PUT, PATCH, DELETE/, 'method'],
    [{ url: `${service.url}/items`, headers: 'no colon here' }, 400, /headers: "no colon here" is not Name: value/, 'headers'],
    [{ url: `${service.url}/items`, probePath: 'ping' }, 400, /probePath must be a path on the service, starting with \//, 'probePath'],
    [{ url: `${service.url}/items`, agent: 'http://10.1.2.3:9464' }, 400, /agent: 10\.1\.2\.3 is not this machine/, 'agent'],
    [{ url: `${service.url}/items`, durationSeconds: '0' }, 400, /durationSeconds must be between 1 and 120/, 'durationSeconds'],
    [{ url: `${service.url}/items`, rates: '5,6' }, 400, /rates must match/, 'rates'],
    [{ url: `${service.url}/items`, rates: '5,6,7,0' }, 400, /rates must be 4 integers in \[1, 5000\]/, 'rates'],
    [{ url: `${service.url}/items`, loop: '1' }, 400, /unknown parameter loop/, 'loop'],
    // The endpoint asked: an error answer, nothing there, a probe path that is not there, an agent that is not the lab's.
    [{ url: `${service.url}/nope` }, 400, /GET http:\/\/127\.0\.0\.1:\d+\/nope answered HTTP 404: the lab loads an endpoint that answers 2xx/, 'url'],
    [{ url: `http://127.0.0.1:${await freePort()}/items` }, 400, /connection refused/, 'url'],
    [{ url: `${service.url}/items`, probePath: '/gone' }, 400, /probePath: GET .*\/gone answered HTTP 404/, 'probePath'],
    [{ url: `${service.url}/items`, agent: service.url }, 400, /agent: no lab agent answers at .*\(HTTP 404, not the lab's agent\)/, 'agent'],
    // A host of the driver's own targets passes the host check; this one does not resolve, which is then the refusal.
    [{ url: 'http://lab-service.invalid:3001/x' }, 400, /GET http:\/\/lab-service\.invalid:3001\/x: ENOTFOUND/, 'url'],
  ];
  for (const [query, status, message, parameter] of refused) {
    const answer = await attach(driver, query);
    assert.strictEqual(answer.status, status, `${JSON.stringify(query)}: ${JSON.stringify(answer.json)}`);
    assert.match(answer.json.error, message, JSON.stringify(query));
    assert.strictEqual(answer.json.parameter, parameter, JSON.stringify(answer.json));
    assert.ok(answer.json.allowed !== undefined, `${JSON.stringify(query)} names what is allowed`);
  }
  // A body past the cap: refused naming the cap, before the endpoint is asked.
  const large = await attach(driver, { url: `${service.url}/items`, method: 'POST' }, { body: 'x'.repeat(MAX_BODY_BYTES + 1) });
  assert.strictEqual(large.status, 413, JSON.stringify(large.json));
  assert.strictEqual(large.json.limitBytes, MAX_BODY_BYTES);
  assert.match(large.json.error, new RegExp(`larger than ${MAX_BODY_BYTES} bytes`));
  assert.deepStrictEqual(service.bodies, [], 'nothing was sent to the service');
  assert.strictEqual((await request(`${driver.url}/runs/latest`)).status, 404, 'no run started');
  assert.strictEqual((await request(`${driver.url}/healthz`)).status, 200, 'the driver serves on');
});

test('POST /attach runs the attach suite against the endpoint as asked, to its verdict, and refuses a second one meanwhile', { timeout: 300000 }, async (t) => {
  const service = await startSmallService(t);
  const driver = await startIdleDriver(t);
  const body = JSON.stringify({ name: 'ünï', qty: 2 });
  const started = await attach(driver, { url: `${service.url}/items?page=1`, method: 'POST', headers: 'X-Kind: order; Content-Type: application/json', probePath: '/ping', durationSeconds: '1', blockMs: '25' }, { body });
  assert.strictEqual(started.status, 202, JSON.stringify(started.json));
  assert.deepStrictEqual(started.json, { suite: 'attach', url: `${service.url}/items?page=1`, method: 'POST', agent: null, unscraped: null, waitingFor: null, status: '/runs/latest', stop: '/runs/stop' });
  // The endpoint was asked once, with the body and headers given, before the run.
  assert.deepStrictEqual(service.bodies[0], { body, type: 'order' });
  const again = await attach(driver, { url: `${service.url}/items` });
  assert.strictEqual(again.status, 409, JSON.stringify(again.json));
  assert.match(again.json.error, /suite attach is running; POST \/runs\/stop ends it/);
  // The attached service is among the driver's targets while it runs: the live page shows it.
  const state = (await request(`${driver.url}/live/state`)).json;
  assert.deepStrictEqual(state.targets.map((target) => target.name), ['lab-service', 'attached']);

  const ended = await until('the attach run ended', 240000, async () => {
    const latest = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(latest.state), value: latest, why: latest.state };
  });
  assert.strictEqual(ended.state, 'passed', JSON.stringify(ended.completed.map((c) => [c.name, c.problems])));
  assert.deepStrictEqual(ended.completed.map((c) => c.name), ['closed-c1', 'closed-c4', 'closed-c16', 'open-25pct', 'open-50pct', 'open-75pct', 'open-100pct']);
  assert.ok(ended.completed.every((c) => c.requests > 0 && c.probeP99Ms !== null), JSON.stringify(ended.completed));
  const verdict = ended.attachVerdict;
  assert.strictEqual(verdict.url, `${service.url}/items?page=1`);
  assert.strictEqual(verdict.blockMs, 25);
  assert.strictEqual(verdict.agent, null);
  assert.match(verdict.lines[0], /no agent answered beside the service/);
  // Every request of the run carried the body and the headers.
  assert.ok(service.bodies.length > 7 && service.bodies.every((b) => b.body === body && b.type === 'order'), `${service.bodies.length} bodies`);
  const run = JSON.parse(require('node:fs').readFileSync(path.join(ended.resultsDir, 'run.json'), 'utf8'));
  assert.deepStrictEqual(run.attach, { url: `${service.url}/items?page=1`, method: 'POST', agent: null, blockMs: 25, lagResolutionMs: 0 });
  assert.strictEqual(run.targets.attached.url, service.url);
});

test('POST /attach with rates runs the open loops at those rates, as make attach BEFORE= asks', { timeout: 300000 }, async (t) => {
  const service = await startSmallService(t);
  const driver = await startIdleDriver(t);
  const started = await attach(driver, { url: `${service.url}/items`, durationSeconds: '1', rates: '5,10,15,20' });
  assert.strictEqual(started.status, 202, JSON.stringify(started.json));
  const ended = await until('the attach run ended', 240000, async () => {
    const latest = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(latest.state), value: latest, why: latest.state };
  });
  assert.deepStrictEqual(ended.attachVerdict.loads.filter((l) => l.loop === 'open').map((l) => l.arrivalRate), [5, 10, 15, 20]);
});

test('a driver starting with a scrape-targets folder drops the agent an earlier driver attached', async (t) => {
  // compose keeps Prometheus' targets volume across drivers: the agent a previous one wrote is no service of this one's.
  const fs = require('node:fs');
  const dir = tempDir('load-attach-scrape-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'attached.json'), JSON.stringify([{ targets: ['127.0.0.1:9464'], labels: { job: 'attached' } }]));
  fs.writeFileSync(path.join(dir, 'lab.json'), '[]\n');
  await startIdleDriver(t, { LOAD_SCRAPE_TARGETS_DIR: dir });
  assert.deepStrictEqual(JSON.parse(fs.readFileSync(path.join(dir, 'attached.json'), 'utf8')), []);
  assert.strictEqual(fs.readFileSync(path.join(dir, 'lab.json'), 'utf8'), '[]\n', 'the lab\'s own targets are not the driver\'s to touch');
});
