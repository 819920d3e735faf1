'use strict';
// make attach's pieces in the driver (load/src/attach, run/arrival-share.js): the targets the lab did not write and
// how their health is asked, the suite generated for an endpoint as the driver loads and checks it, an open loop's
// rate taken from the closed loops before it, and the agent named to Prometheus (POST /attach: attach-route.test.js). The whole of make attach, against a real service with the real agent,
// is tests/integration/attach.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir } = require('@lab/test-kit');
const { parseAttached, healthCheckOf } = require('../src/attach/attached');
const { attachSuite, CONNECTIONS, SHARES } = require('../src/attach/attach-suite');
const { loadSuite, checkScenarios, MAX_ARRIVAL_RATE } = require('../src/suite/suites');
const { withArrivalRate } = require('../src/run/arrival-share');
const { scrapeAttachment } = require('../src/attach/attach-scrape');
const { attachVerdict } = require('../src/attach/attach-verdict');

const targets = { attached: 'http://127.0.0.1:3000', 'attached-agent': 'http://127.0.0.1:9464' };
const endpoint = { target: 'attached', agentTarget: 'attached-agent', agentKind: 'node', lagResolutionMs: 10, url: 'http://127.0.0.1:3000/db?x=1', method: 'GET', path: '/db?x=1', headers: {}, probePath: null };

test('LOAD_ATTACHED names each attached target and its agent, among the targets', () => {
  assert.deepStrictEqual(parseAttached('attached=attached-agent', targets), { attached: 'attached-agent' });
  assert.deepStrictEqual(parseAttached('attached=', targets), { attached: null });
  assert.deepStrictEqual(parseAttached('', targets), {});
  assert.throws(() => parseAttached('attached=nobody', targets), /nobody is not one of LOAD_TARGETS/);
  assert.throws(() => parseAttached('Attached', targets), /not target=agent-target/);
  assert.throws(() => parseAttached('a=b=c', targets), /not target=agent-target/);
});

test("an attached target's health is its agent's /healthz, or any answer below 500 without one; a lab service's its own /healthz", () => {
  assert.deepStrictEqual(healthCheckOf('node-async', 'http://x:3002', { attached: 'attached-agent' }, targets), { url: 'http://x:3002/healthz', anyAnswer: false });
  assert.deepStrictEqual(healthCheckOf('attached', targets.attached, { attached: 'attached-agent' }, targets), { url: 'http://127.0.0.1:9464/healthz', anyAnswer: false });
  assert.deepStrictEqual(healthCheckOf('attached', targets.attached, { attached: null }, targets), { url: 'http://127.0.0.1:3000/', anyAnswer: true });
});

test('the attach suite loads as any suite: closed loops, then open loops at shares of the closed loops, the agent probed, profiled', () => {
  const dir = tempDir('lab-attach-suite-test-');
  try {
    fs.writeFileSync(path.join(dir, 'attach.json'), JSON.stringify(attachSuite(endpoint, { durationSeconds: 3, blockMs: 10 })));
    const suite = loadSuite('attach', targets, dir);
    assert.strictEqual(suite.profile, true);
    assert.deepStrictEqual(suite.attach, { url: endpoint.url, method: 'GET', agent: 'node', blockMs: 10, lagResolutionMs: 10 });
    const closed = suite.scenarios.filter((s) => !s.arrivalShareOf);
    const open = suite.scenarios.filter((s) => s.arrivalShareOf);
    assert.deepStrictEqual(closed.map((s) => s.connections), CONNECTIONS);
    assert.deepStrictEqual(open.map((s) => s.arrivalShareOf.share), SHARES);
    for (const s of open) assert.deepStrictEqual(s.arrivalShareOf.scenario, closed.map((c) => c.name));
    for (const s of suite.scenarios) {
      assert.deepStrictEqual(s.probe, { path: '/healthz', ratePerSecond: 20, target: 'attached-agent' });
      assert.strictEqual(s.path, '/db?x=1');
      assert.ok(s.durationSeconds === 3 && s.maxRequests > 0, 'bounded in time and count');
    }
    // The service's own probe path where the user names one; none without an agent or a path; no profile without an agent.
    const own = attachSuite(Object.assign({}, endpoint, { probePath: '/ping' }), { durationSeconds: 3, blockMs: 10 });
    assert.ok(own.scenarios.every((s) => s.probe.path === '/ping' && s.probe.target === undefined));
    const bare = attachSuite(Object.assign({}, endpoint, { agentTarget: null, agentKind: null }), { durationSeconds: 3, blockMs: 10 });
    assert.ok(bare.scenarios.every((s) => s.probe === undefined) && bare.profile === false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an open loop at a share refers to closed loops before it, and gives no rate of its own beside it', () => {
  const base = { target: 'attached', path: '/', connections: 1, durationSeconds: 1, maxRequests: 10, expect: 'status' };
  const closed = Object.assign({ name: 'closed' }, base);
  const share = (scenario) => Object.assign({ name: 'open', arrivalShareOf: { scenario, share: 0.5 } }, base);
  assert.doesNotThrow(() => checkScenarios('t', [closed, share('closed')], targets));
  assert.throws(() => checkScenarios('t', [share('closed'), closed], targets), /must name a closed loop earlier/);
  assert.throws(() => checkScenarios('t', [closed, share(['closed', 'later'])], targets), /must name a closed loop earlier/);
  assert.throws(() => checkScenarios('t', [closed, Object.assign(share('closed'), { arrivalRate: 5 })], targets), /not both/);
  assert.throws(() => checkScenarios('t', [closed, Object.assign({ name: 'open', arrivalShareOf: { scenario: 'closed', share: 3 } }, base)], targets), /share must be a number in \(0, 2\]/);
  assert.throws(() => checkScenarios('t', [Object.assign({ probe: { path: '/healthz', ratePerSecond: 5, target: 'nobody' } }, closed)], targets), /probe.target must be one of/);
});

test("an open loop's rate is its share of the most its closed loops answered a second, one a second at least, the schedule's ceiling at most", () => {
  const scenario = { name: 'open', arrivalShareOf: { scenario: ['c1', 'c4'], share: 0.5 } };
  const done = [{ name: 'c1', requestsPerSecond: 100 }, { name: 'c4', requestsPerSecond: 300 }, { name: 'other', requestsPerSecond: 9000 }];
  const ran = withArrivalRate(scenario, done);
  assert.strictEqual(ran.arrivalRate, 150);
  assert.deepStrictEqual(ran.arrivalFrom, { scenario: ['c1', 'c4'], share: 0.5, requestsPerSecond: 300 });
  assert.strictEqual(ran.arrivalProblem, undefined);
  const none = withArrivalRate(scenario, [{ name: 'c1', requestsPerSecond: 0 }]);
  assert.strictEqual(none.arrivalRate, 1);
  assert.match(none.arrivalProblem, /answered nothing a second/);
  assert.strictEqual(withArrivalRate({ name: 'o', arrivalShareOf: { scenario: 'c1', share: 2 } }, [{ name: 'c1', requestsPerSecond: 1e6 }]).arrivalRate, MAX_ARRIVAL_RATE);
  const plain = { name: 'plain', arrivalRate: 7 };
  assert.strictEqual(withArrivalRate(plain, done), plain);
});

test("POST /attach's agent is named to Prometheus in the driver's targets folder when the run starts, or said to be unscraped", async () => {
  const withAgent = { targets: {}, attached: {}, job: 'attached', agentHost: '127.0.0.1:9464' };
  const dir = tempDir('lab-attach-scrape-test-');
  try {
    // No folder: nothing to wait for, and the verdict names the agent's series as not measured.
    const unscraped = scrapeAttachment({ scrapeTargetsDir: null, prometheusUrl: 'http://127.0.0.1:1' }, withAgent);
    assert.strictEqual(unscraped.waitingFor, null);
    assert.match(unscraped.unscraped, /no LOAD_SCRAPE_TARGETS_DIR/);
    await unscraped.ready(new AbortController().signal);
    const verdict = attachVerdict([], { url: 'http://127.0.0.1:3000/', agent: 'node', blockMs: 10, unscraped: unscraped.unscraped });
    assert.deepStrictEqual(verdict.missing, [unscraped.unscraped]);
    assert.ok(verdict.lines.includes(`not measured: ${unscraped.unscraped}`), verdict.lines.join('\n'));
    // A folder: written when the run starts (ready), not before; then the wait, here stopped at once.
    const told = scrapeAttachment({ scrapeTargetsDir: dir, prometheusUrl: 'http://127.0.0.1:1' }, withAgent);
    assert.strictEqual(told.unscraped, null);
    assert.match(told.waitingFor, /second scrape of the agent \(job attached\)/);
    assert.deepStrictEqual(fs.readdirSync(dir), []);
    const stopped = new AbortController();
    stopped.abort(new Error('stopped'));
    await assert.rejects(told.ready(stopped.signal), /stopped/);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(path.join(dir, 'attached.json'), 'utf8')), [{ targets: ['127.0.0.1:9464'], labels: { job: 'attached' } }]);
    // A service without an agent: the folder names none, so a previous agent is no longer scraped.
    const bare = scrapeAttachment({ scrapeTargetsDir: dir, prometheusUrl: 'http://127.0.0.1:1' }, Object.assign({}, withAgent, { agentHost: null }));
    assert.deepStrictEqual([bare.unscraped, bare.waitingFor], [null, null]);
    await bare.ready(new AbortController().signal);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(path.join(dir, 'attached.json'), 'utf8')), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
