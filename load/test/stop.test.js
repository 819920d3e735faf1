'use strict';
// Stopping a suite, over real HTTP: a looping suite whose one scenario would run for minutes, stopped by POST
// /runs/stop (and by SIGTERM); a suite stopped while it still waits for its targets. The driver is src/main.js on port
// 0, the target a tiny server on port 0 in this process. Every wait polls for a state and gives up after a minute.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { request, sumOf, until, tempDir, freePort } = require('@lab/test-kit');
const { startDriver, stopDriver } = require('./driver-process');

const GIVE_UP_MS = 60000;

/**
 * /healthz, /info and GET /work (answered after a 20 ms timer, so one connection stays light); counts /work. kill()
 * and revive() make it die and come back on its port; once it has served `stallAfter` of /work it answers nothing
 * more, as a server whose event loop is blocked.
 */
async function startTarget(t, { stallAfter = Infinity } = {}) {
  const target = { work: 0 };
  const server = http.createServer((req, res) => {
    if (target.work >= stallAfter) return;
    const answer = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz') return answer(200, { status: 'ok' });
    if (req.url === '/info') return answer(200, { service: 'tiny' });
    if (req.url !== '/work') return answer(404, { error: 'no route' });
    target.work++;
    setTimeout(() => answer(200, { ok: true }), 20);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  target.url = `http://127.0.0.1:${port}`;
  // The target dying (every connection cut, nothing listening) and coming back on the same port.
  target.kill = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  target.revive = () => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return target;
}

// Far longer than any test: only a stop ends this scenario early.
const LONG = { name: 'long', target: 'tiny', path: '/work', connections: 1, durationSeconds: 120, maxRequests: 1000000, expect: 'status', probe: { path: '/healthz', ratePerSecond: 5 } };

async function startLab(t) {
  const target = await startTarget(t);
  const dir = tempDir('load-stop-');
  fs.mkdirSync(path.join(dir, 'suites'));
  fs.writeFileSync(path.join(dir, 'suites', 'looping.json'), JSON.stringify({ scenarios: [LONG, Object.assign({}, LONG, { name: 'after' })] }));
  fs.writeFileSync(path.join(dir, 'suites', 'unreachable.json'), JSON.stringify({ scenarios: [Object.assign({}, LONG, { target: 'down' })] }));
  const driver = await startDriver({
    PORT: '0',
    HOST: '127.0.0.1',
    LOAD_SUITE: 'none',
    LOAD_TARGETS: `tiny=${target.url},down=http://127.0.0.1:${await freePort()}`,
    LOAD_SUITES_DIR: path.join(dir, 'suites'),
    LOAD_WAIT_TIMEOUT_MS: '3600000', // only a stop ends the wait for `down`
    RESULTS_DIR: path.join(dir, 'results'),
  });
  t.after(() => stopDriver(driver));
  return { target, driver, url: driver.url };
}

const post = (url) => request(url, { method: 'POST' });

/** Resolves the run's state once its scenario `long` runs and the target has answered some of its requests. */
function scenarioUnderWay(url, target) {
  const seen = target.work;
  return until('scenario long under way', GIVE_UP_MS, async () => {
    const latest = (await request(`${url}/runs/latest`)).json;
    return { done: latest.state === 'running' && latest.current === 'long' && target.work >= seen + 3, value: latest, why: `${latest.state}, ${target.work - seen} requests` };
  });
}

test('POST /runs/stop ends a looping suite: the scenario in progress is stopped and the run says so', async (t) => {
  const { target, url } = await startLab(t);
  const started = await post(`${url}/runs?suite=looping&loop=1`);
  assert.strictEqual(started.status, 202, started.text);
  assert.deepStrictEqual(started.json, { suite: 'looping', loop: 1, status: '/runs/latest', stop: '/runs/stop' });
  const running = await scenarioUnderWay(url, target);
  assert.strictEqual(running.loop, true);

  const second = await post(`${url}/runs?suite=looping`);
  assert.strictEqual(second.status, 409, second.text);
  assert.match(second.json.error, /suite looping is running/);

  const stopped = await post(`${url}/runs/stop`);
  assert.strictEqual(stopped.status, 200, stopped.text);
  assert.strictEqual(stopped.json.id, running.id, 'the answer is the stopped run');
  assert.strictEqual(stopped.json.state, 'stopped');
  assert.strictEqual(stopped.json.current, null);
  assert.strictEqual(stopped.json.completed.length, 1, 'the second scenario never started');
  const [long] = stopped.json.completed;
  assert.strictEqual(long.name, 'long');
  assert.strictEqual(long.stopped, true);
  assert.strictEqual(long.passed, false);
  assert.match(long.problems.join(), /stopped before its end/);
  assert.ok(long.requests >= 3 && long.requests <= target.work, JSON.stringify(long));

  const latest = (await request(`${url}/runs/latest`)).json;
  assert.deepStrictEqual(latest, stopped.json);
  const saved = JSON.parse(fs.readFileSync(path.join(latest.resultsDir, '01-long.json'), 'utf8'));
  assert.strictEqual(saved.stopped, true);
  assert.strictEqual(saved.result.requests.total, long.requests);
  assert.ok(saved.probe.requests > 0, JSON.stringify(saved.probe));
  const run = JSON.parse(fs.readFileSync(path.join(latest.resultsDir, 'run.json'), 'utf8'));
  assert.strictEqual(run.verdict, 'stopped');
  assert.deepStrictEqual(run.summary, latest.completed);
  const metrics = (await request(`${url}/metrics`)).text;
  assert.strictEqual(sumOf(metrics, 'lab_load_scenario_runs_total', { scenario: 'long', verdict: 'stopped' }), 1);
  assert.strictEqual(sumOf(metrics, 'lab_load_scenario_active', { scenario: 'long' }), 0);

  // Nothing runs any more: the loop did not go on, a second stop has nothing to stop, and a new suite may start.
  const again = await post(`${url}/runs/stop`);
  assert.strictEqual(again.status, 409, again.text);
  assert.deepStrictEqual(again.json, { error: 'no suite is running', state: 'stopped' });
  assert.strictEqual((await post(`${url}/runs?suite=looping`)).status, 202);
  const next = await scenarioUnderWay(url, target);
  assert.notStrictEqual(next.id, running.id);
  assert.strictEqual(next.loop, false);
  assert.strictEqual((await post(`${url}/runs/stop`)).json.state, 'stopped');
});

test('POST /runs/stop ends a suite still waiting for its targets', async (t) => {
  const { url } = await startLab(t);
  assert.strictEqual((await post(`${url}/runs?suite=unreachable`)).status, 202);
  assert.strictEqual((await request(`${url}/runs/latest`)).json.state, 'waiting');
  const stopped = await post(`${url}/runs/stop`);
  assert.strictEqual(stopped.status, 200, stopped.text);
  assert.strictEqual(stopped.json.state, 'stopped');
  assert.deepStrictEqual(stopped.json.completed, []);
  const run = JSON.parse(fs.readFileSync(path.join(stopped.json.resultsDir, 'run.json'), 'utf8'));
  assert.strictEqual(run.verdict, 'stopped');
});

test('SIGTERM stops the running scenario the same way, writes its results and exits 0', async (t) => {
  const { target, driver, url } = await startLab(t);
  assert.strictEqual((await post(`${url}/runs?suite=looping&loop=1`)).status, 202);
  const running = await scenarioUnderWay(url, target);
  assert.strictEqual(await stopDriver(driver), 0);
  const run = JSON.parse(fs.readFileSync(path.join(running.resultsDir, 'run.json'), 'utf8'));
  assert.strictEqual(run.verdict, 'stopped');
  assert.strictEqual(run.state, 'stopped');
  assert.strictEqual(run.stoppedIn, 'long');
  assert.strictEqual(run.verdictSoFar, null, 'no scenario ran to its end');
  assert.ok(Date.parse(run.endedAt) >= Date.parse(run.startedAt), JSON.stringify(run));
  assert.deepStrictEqual(run.summary.map((s) => [s.name, s.stopped]), [['long', true]]);
  const partial = JSON.parse(fs.readFileSync(path.join(running.resultsDir, '01-long.json'), 'utf8'));
  assert.strictEqual(partial.stopped, true);
  assert.ok(partial.result.requests.total > 0);
  assert.match(partial.server.error, /the run was stopped/);
});

test('a target that dies mid-scenario fails it at once with the reason; the next scenario waits for it and runs', async (t) => {
  const target = await startTarget(t);
  const dir = tempDir('load-target-dies-');
  fs.mkdirSync(path.join(dir, 'suites'));
  const quick = { name: 'quick', target: 'tiny', path: '/work', connections: 1, durationSeconds: 120, maxRequests: 5, expect: 'status' };
  fs.writeFileSync(path.join(dir, 'suites', 'dies.json'), JSON.stringify({ scenarios: [Object.assign({}, LONG, { probe: undefined }), quick] }));
  const driver = await startDriver({
    PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `tiny=${target.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'),
    LOAD_WAIT_TIMEOUT_MS: '3600000', RESULTS_DIR: path.join(dir, 'results'), PROMETHEUS_URL: 'none',
  });
  t.after(() => stopDriver(driver));
  assert.strictEqual((await post(`${driver.url}/runs?suite=dies`)).status, 202);
  await scenarioUnderWay(driver.url, target);

  await target.kill();
  const waiting = await until('the dead target ended its scenario', GIVE_UP_MS, async () => {
    const latest = (await request(`${driver.url}/runs/latest`)).json;
    return { done: latest.completed.length === 1, value: latest, why: latest.state };
  });
  const [died] = waiting.completed;
  assert.strictEqual(died.passed, false);
  // The health check that finds it dead is refused, or, when it connected just before the kill, has its socket closed
  // under it (undici's UND_ERR_SOCKET): both name a connection the target no longer answers.
  assert.match(died.problems.join(), /tiny stopped answering during the scenario \(\/healthz: (ECONNREFUSED|UND_ERR_SOCKET)\); the scenario was ended/);
  assert.strictEqual(waiting.state, 'running', 'the run goes on, waiting for the target');

  await target.revive();
  const ended = await until('the suite ended', GIVE_UP_MS, async () => {
    const latest = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(latest.state), value: latest, why: latest.state };
  });
  assert.strictEqual(ended.state, 'failed');
  assert.deepStrictEqual(ended.completed.map((s) => [s.name, s.passed]), [['long', false], ['quick', true]]);
  const run = JSON.parse(fs.readFileSync(path.join(ended.resultsDir, 'run.json'), 'utf8'));
  assert.deepStrictEqual([run.state, run.stoppedIn, run.verdictSoFar, run.error], ['failed', null, 'failed', null]);
});

test('a target too busy to answer is not taken for dead: its scenario runs to its end and counts the timeouts', async (t) => {
  const target = await startTarget(t, { stallAfter: 3 });
  const dir = tempDir('load-target-busy-');
  fs.mkdirSync(path.join(dir, 'suites'));
  // Requests time out after a second, /healthz after two: a scenario taken for dead would end within 4 s of 8.
  const busy = { name: 'busy', target: 'tiny', path: '/work', connections: 2, durationSeconds: 8, timeoutSeconds: 1, maxRequests: 1000, expect: 'status' };
  fs.writeFileSync(path.join(dir, 'suites', 'busy.json'), JSON.stringify({ scenarios: [busy] }));
  const driver = await startDriver({
    PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `tiny=${target.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'),
    RESULTS_DIR: path.join(dir, 'results'), PROMETHEUS_URL: 'none',
  });
  t.after(() => stopDriver(driver));
  assert.strictEqual((await post(`${driver.url}/runs?suite=busy`)).status, 202);
  const ended = await until('the suite ended', GIVE_UP_MS, async () => {
    const latest = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(latest.state), value: latest, why: latest.state };
  });
  const result = JSON.parse(fs.readFileSync(path.join(ended.resultsDir, '01-busy.json'), 'utf8'));
  assert.ok(result.result.timeouts > 0, 'the stalled requests timed out');
  assert.strictEqual(result.targetGone, undefined, JSON.stringify(result.problems));
  assert.doesNotMatch(result.problems.join(), /stopped answering/);
  // It ran its whole duration.
  assert.ok(result.window.endMs - result.window.startMs >= 8000, JSON.stringify(result.window));
});
