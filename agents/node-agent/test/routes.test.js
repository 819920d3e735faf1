'use strict';
// The side port's routes on every Node line the agent supports: /healthz and /info, the contract's refusals (404,
// 405, the same-site 403s), and POST /profile as node-kit/profiler.js answers it (401, 400, 409, a profile whose
// samples name the function that blocked the loop). Without LAB_PROFILE_TOKEN: token-file.test.js.
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert');
const os = require('node:os');
const { childNodes, nodeVersion, startWithAgent } = require('./agent-process');
const { PROFILE_PARAMS } = require('../profile');

const TOKEN = 'a-token-for-the-tests';
const bearer = { Authorization: `Bearer ${TOKEN}` };

/** The function names of a .cpuprofile's nodes that were sampled at least once, their callees' included. */
function sampledFunctions(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const names = new Set();
  for (const id of new Set(profile.samples)) {
    for (let at = id; at !== undefined; at = parent.get(at)) names.add(byId.get(at).callFrame.functionName);
  }
  return names;
}

for (const node of childNodes()) {
  describe(`the agent's routes on Node ${nodeVersion(node)}`, () => {
    let child;
    before(async () => {
      child = await startWithAgent(node, { env: { LAB_PROFILE_TOKEN: TOKEN, LAB_AGENT_HOST_NAMES: 'app-metrics, other.internal' } });
    });
    after(() => child.stop());

    test('/healthz and /info answer; an unknown path is a 404 listing the routes, a wrong method a 405 with Allow', async () => {
      assert.deepStrictEqual((await child.agent('/healthz')).json(), { status: 'ok' });
      const info = (await child.agent('/info')).json();
      assert.strictEqual(info.agent, 'node');
      assert.deepStrictEqual(info.runtime, { name: 'node', version: nodeVersion(node) });
      assert.strictEqual(info.pid > 0 && info.argv.length >= 2, true);
      assert.strictEqual(info.profile, true);
      assert.strictEqual(info.profileToken, 'env');
      assert.strictEqual(info.workers, 0);
      assert.strictEqual(info.lagResolutionMs, 10, 'the loop monitor\'s interval, which a reader of the lag subtracts');
      assert.ok(Date.parse(info.startedAt) > 0 && typeof info.agentVersion === 'string');
      const missing = await child.agent('/nope');
      assert.strictEqual(missing.status, 404);
      assert.deepStrictEqual(missing.json().routes, ['GET /metrics', 'GET /healthz', 'GET /info', 'POST /profile']);
      const wrong = await child.agent('/metrics', { method: 'POST' });
      assert.strictEqual(wrong.status, 405);
      assert.strictEqual(wrong.headers.allow, 'GET');
      assert.deepStrictEqual(wrong.json().allowed, ['GET']);
      assert.strictEqual((await child.agent('/profile')).status, 405);
    });

    test("other sites' pages are refused (foreign Host, another Origin on POST, a cross-site fetch); scrapers' names reach the open routes", async () => {
      const refused = async (target, options) => {
        const res = await child.agent(target, options);
        assert.strictEqual(res.status, 403, `${target} ${JSON.stringify(options)}`);
        assert.ok(res.json().error && Array.isArray(res.json().allowed));
      };
      await refused('/info', { headers: { Host: 'evil.example' } });
      await refused('/profile?seconds=1', { method: 'POST', headers: Object.assign({ Origin: 'http://evil.example' }, bearer) });
      await refused('/profile?seconds=1', { method: 'POST', headers: Object.assign({ 'Sec-Fetch-Site': 'cross-site' }, bearer) });
      await refused('/info', { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' } });
      for (const host of ['evil.example', 'prometheus-target:9464']) {
        assert.strictEqual((await child.agent('/metrics', { headers: { Host: host } })).status, 200, host);
        assert.strictEqual((await child.agent('/healthz', { headers: { Host: host } })).status, 200, host);
      }
      for (const host of ['app-metrics:9464', 'OTHER.internal', 'localhost', 'x.localhost', os.hostname(), '[::1]:9']) {
        assert.strictEqual((await child.agent('/info', { headers: { Host: host } })).status, 200, host);
      }
      assert.strictEqual((await child.agent('/info', { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' } })).status, 200, 'a link the user followed');
    });

    test('POST /profile: 401 with Bearer without the token, 400 naming the range on a bad or unknown parameter', async () => {
      for (const headers of [{}, { Authorization: 'Bearer wrong' }, { Authorization: `Bearer ${TOKEN}x` }, { Authorization: TOKEN }]) {
        const res = await child.agent('/profile?seconds=1', { method: 'POST', headers });
        assert.strictEqual(res.status, 401, JSON.stringify(headers));
        assert.strictEqual(res.headers['www-authenticate'], 'Bearer');
      }
      const cases = [['seconds=0', 'seconds'], ['seconds=301', 'seconds'], ['seconds=1.5', 'seconds'], ['intervalUs=99', 'intervalUs'], ['intervalUs=100001', 'intervalUs'], ['seconds=1&seconds=2', 'seconds'], ['constructor=1', 'constructor'], ['seconds=%zz', null]];
      for (const [query, parameter] of cases) {
        const res = await child.agent(`/profile?${query}`, { method: 'POST', headers: bearer });
        assert.strictEqual(res.status, 400, query);
        if (parameter === null) continue;
        assert.strictEqual(res.json().parameter, parameter, query);
        const schema = Object.prototype.hasOwnProperty.call(PROFILE_PARAMS, parameter) ? PROFILE_PARAMS[parameter] : null;
        assert.deepStrictEqual(res.json().allowed, schema ? { min: schema.min, max: schema.max } : Object.keys(PROFILE_PARAMS), query);
      }
    });

    test("POST /profile answers node-kit's shape, its samples name the loop's blocking function; a second at once is a 409", async () => {
      await child.service('/busy/start');
      try {
        const profiling = child.agent('/profile?seconds=2&intervalUs=500', { method: 'POST', headers: bearer });
        // Both at once: whichever the agent reads first is taken, the other refused while the first holds the profiler.
        const second = await child.agent('/profile?seconds=1', { method: 'POST', headers: bearer });
        const first = await profiling;
        assert.deepStrictEqual([first.status, second.status].sort(), [200, 409]);
        const taken = (first.status === 200 ? first : second).json();
        assert.deepStrictEqual(Object.keys(taken).sort(), ['endedAtMs', 'intervalUs', 'profile', 'startedAtMs', 'thread']);
        assert.strictEqual(taken.thread, 'main');
        assert.ok(taken.endedAtMs >= taken.startedAtMs);
        assert.ok(Array.isArray(taken.profile.nodes) && taken.profile.samples.length > 0);
        assert.ok(sampledFunctions(taken.profile).has('labFixtureBusyBlock'), 'the blocking function is in a sampled stack');
      } finally {
        await child.service('/busy/stop');
      }
    });

    test('a profile stops when its client goes away: the next one is not refused as busy', async () => {
      // A 300 s profile, refused to the next while it runs. Should the probe be read before it, the probe is taken and
      // the long one refused: then again.
      let long;
      let controller;
      for (let tries = 0; tries < 10; tries++) {
        controller = new AbortController();
        long = child.agent('/profile?seconds=300', { method: 'POST', headers: bearer, signal: controller.signal }).then((res) => res.status, () => 'aborted');
        if ((await child.agent('/profile?seconds=1', { method: 'POST', headers: bearer })).status === 409) break;
        assert.strictEqual(await long, 409);
      }
      controller.abort();
      assert.strictEqual(await long, 'aborted');
      // Taken once the agent saw its client leave, long before the 300 s.
      let status = 409;
      for (let tries = 0; status === 409 && tries < 600; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await child.agent('/profile?seconds=1', { method: 'POST', headers: bearer })).status;
      }
      assert.strictEqual(status, 200);
    });
  });
}
