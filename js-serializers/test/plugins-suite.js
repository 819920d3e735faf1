'use strict';
// Serializer plugins (plugins/README.md) in a real service over real HTTP, registered by each Node service with its
// own test runner (node:test on Node 24, the `test` package on Node 14): the example plugin is checked, listed and
// run validated; plugins that depart from native, cannot be loaded, export nothing, take a built-in name or block
// their thread are listed as failing with why, refused by /run, never timed, and the service keeps serving. No
// assertion depends on how fast anything runs: a check's end is waited for, and the service bounds it.
const path = require('path');
const { startService, request, sumOf } = require('@lab/test-kit');
const { startProcess, stopProcess } = require('@lab/test-kit/service-process');
const { put } = require('@lab/test-kit/document-uploads');
const { readVectors } = require('@lab/payloads/js/vectors');
const { WORK_BUDGET } = require('../conformance/conformance');

const EXAMPLE_DIR = path.join(__dirname, '..', '..', 'plugins');
const FAILING_DIR = path.join(__dirname, 'plugins', 'failing');
const BLOCKING_DIR = path.join(__dirname, 'plugins', 'blocking');
const HOSTILE_DIR = path.join(__dirname, 'plugins', 'hostile');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** /info's plugins once none is being checked any more (the service ends every check within its cap). */
async function settledPlugins(url) {
  for (;;) {
    const plugins = (await request(`${url}/info`)).json.plugins;
    if (!plugins.plugins.some((p) => p.state === 'checking')) return plugins;
    await sleep(200);
  }
}

const byName = (plugins, name) => plugins.plugins.find((p) => p.name === name);

/**
 * makeService(options) with options.plugins: {dir, checkTimeoutMs, abortGraceMs, caseWorkBudget}
 * (serializer-plugins.js); serverEntry: the service's main (src/server.js), run as a process of its own where what is
 * tested is that the process lives on. checkInfo(info) (optional): more checks of /info once the example plugin has
 * passed.
 */
function pluginsSuite(test, assert, { makeService, serverEntry, checkInfo }) {
  const pinned = readVectors().documents.find((v) => v.document === 'records' && v.size === 100);
  const settings = (dir, checkTimeoutMs, abortGraceMs) => ({ plugins: { dir, checkTimeoutMs: checkTimeoutMs || 300000, abortGraceMs: abortGraceMs || 2000, caseWorkBudget: WORK_BUDGET } });

  test('plugins: the example plugin passes the conformance corpus and runs validated like every approach', async () => {
    const server = await startService(makeService(settings(EXAMPLE_DIR)));
    try {
      const plugins = await settledPlugins(server.url);
      assert.strictEqual(plugins.dir, EXAMPLE_DIR);
      const example = byName(plugins, 'example-chunked-json');
      assert.strictEqual(example.source, path.join(EXAMPLE_DIR, 'example-chunked-json'));
      assert.strictEqual(example.state, 'ok', JSON.stringify(example));
      const info = (await request(`${server.url}/info`)).json;
      if (checkInfo) checkInfo(info);
      for (const workload of ['stringify', 'parse']) {
        assert.strictEqual(example.workloads[workload].state, 'ok');
        assert.ok(example.workloads[workload].cases > 50, `${workload}: ${example.workloads[workload].cases} cases`);
        assert.ok(info.workloads[workload].approaches.includes('example-chunked-json'), info.workloads[workload].approaches.join());
        const res = await request(`${server.url}/run/${workload}?approach=example-chunked-json&size=${pinned.size}&seed=${pinned.seed}`);
        assert.strictEqual(res.status, 200, res.text);
        assert.strictEqual(res.json.validated, true, res.text);
        assert.strictEqual(res.json.reference, 'vector');
        assert.strictEqual(res.json.hash, pinned.sha256);
        assert.ok(res.json.yields >= 1, res.text);
      }
      // A user's own document: checked against native's text of its value, as for every approach.
      const uploaded = await put(server.url, '{"b":[1,-0,{"é":"\\u2028"}],"a":{"1":null,"0":[]},"n":12345678901234567890}');
      assert.ok(uploaded.status === 201 || uploaded.status === 200, JSON.stringify(uploaded.json));
      for (const workload of ['stringify', 'parse']) {
        const res = await request(`${server.url}/run/${workload}?approach=example-chunked-json&${uploaded.json.run}`);
        assert.strictEqual(res.status, 200, res.text);
        assert.strictEqual(res.json.validated, true, res.text);
        assert.strictEqual(res.json.case, 'document');
      }
      const metrics = (await request(`${server.url}/metrics`)).text;
      assert.strictEqual(sumOf(metrics, 'lab_runs_total', { approach: 'example-chunked-json', outcome: 'ok' }), 4);
    } finally {
      await server.close();
    }
  });

  test('plugins: a failing plugin is listed with why, refused by /run with that reason, never timed', async () => {
    const server = await startService(makeService(settings(FAILING_DIR)));
    try {
      const plugins = await settledPlugins(server.url);
      assert.deepStrictEqual(plugins.plugins.map((p) => [p.name, p.state]), [
        ['exports-nothing', 'failing'], ['fast', 'failing'], ['throws-at-load', 'failing'], ['wrong-output', 'failing'],
      ]);
      assert.strictEqual(byName(plugins, 'exports-nothing').why, 'exports neither stringify nor parse as a function');
      assert.strictEqual(byName(plugins, 'fast').why, 'name "fast" is taken by a built-in approach');
      assert.strictEqual(byName(plugins, 'throws-at-load').why, 'threw at load: Error: this plugin cannot be loaded');
      const wrong = byName(plugins, 'wrong-output');
      assert.deepStrictEqual(wrong.workloads.stringify, { state: 'failing', case: 'top-level number', why: 'different result' });
      const info = (await request(`${server.url}/info`)).json;
      assert.ok(!info.workloads.stringify.approaches.includes('wrong-output'));
      const refused = await request(`${server.url}/run/stringify?approach=wrong-output&size=10`);
      assert.strictEqual(refused.status, 400, refused.text);
      assert.strictEqual(refused.json.parameter, 'approach');
      assert.strictEqual(refused.json.case, 'top-level number');
      assert.deepStrictEqual(refused.json.allowed, info.workloads.stringify.approaches);
      assert.match(refused.json.error, /wrong-output\.js, which departs from native stringify at conformance case "top-level number": different result/);
      const unloadable = await request(`${server.url}/run/parse?approach=throws-at-load`);
      assert.strictEqual(unloadable.status, 400, unloadable.text);
      assert.match(unloadable.json.error, /cannot be used: threw at load: Error: this plugin cannot be loaded/);
      // The built-in approach keeps its name.
      const builtIn = await request(`${server.url}/run/stringify?approach=fast&size=${pinned.size}&seed=${pinned.seed}`);
      assert.strictEqual(builtIn.status, 200, builtIn.text);
      assert.strictEqual(builtIn.json.validated, true);
      const metrics = (await request(`${server.url}/metrics`)).text;
      assert.strictEqual(sumOf(metrics, 'lab_runs_total', { approach: 'wrong-output' }), 0);
      assert.strictEqual((await request(`${server.url}/healthz`)).status, 200);
    } finally {
      await server.close();
    }
  });

  test('plugins: a plugin that misbehaves at run time fails its own run and is marked failing; the service and other approaches go on', async () => {
    // The service as a process of its own (a test runner takes what is uncaught in its own process for a failure of
    // the test), with a short grace after a run's signal aborted, so that the plugin that never settles is given up on
    // soon.
    const server = await startProcess(serverEntry, { SERIALIZER_PLUGINS_DIR: HOSTILE_DIR, SERIALIZER_PLUGIN_ABORT_GRACE_MS: '50' });
    const run = (query) => request(`${server.url}/run/${query}`);
    try {
      const plugins = await settledPlugins(server.url);
      assert.deepStrictEqual(plugins.plugins.map((p) => [p.name, p.state]), [['leaves-a-rejection', 'ok'], ['mutates', 'ok'], ['never-settles', 'ok'], ['throws-from-a-timer', 'ok']]);
      const { sha256 } = (await put(server.url, '{"hostile": true, "orders": [{"id": 1, "lines": [1, 2]}]}')).json;
      const ran = async (query, validated) => {
        const answer = await run(query);
        assert.strictEqual(answer.status, 200, `${query}: ${answer.text}`);
        assert.strictEqual(answer.json.validated, validated, `${query}: ${answer.text}`);
      };
      // A plugin that changes its input changes nothing another run reads: the stored document's value, or the
      // generated one.
      await ran(`stringify?approach=native&document=${sha256}`, true);
      for (const input of [`document=${sha256}`, 'size=17']) {
        await ran(`stringify?approach=mutates&${input}`, true);
        for (const approach of ['native', 'fast', 'mutates']) await ran(`stringify?approach=${approach}&${input}`, true);
        await ran(`parse?approach=native&${input}`, true);
      }
      // A plugin that throws from a timer once its run's deadline passed: its run ends (interrupted, as its signal
      // asked), and it is marked failing.
      const timer = await run(`stringify?approach=throws-from-a-timer&document=${sha256}&timeoutMs=1`);
      assert.strictEqual(timer.status, 200, timer.text);
      assert.deepStrictEqual([timer.json.interrupted, timer.json.validated], [true, false], timer.text);
      // Its plugin rejects a promise no one waits for: the run fails (500, counted as an error), the plugin is marked.
      const rejection = await run(`stringify?approach=leaves-a-rejection&document=${sha256}`);
      assert.ok(rejection.status === 500 || (rejection.status === 200 && rejection.json.validated), rejection.text);
      // Four runs of a plugin that never settles, every slot: each ends its grace after its deadline, interrupted.
      const never = await Promise.all([1, 2, 3, 4].map(() => run(`parse?approach=never-settles&document=${sha256}&timeoutMs=1`)));
      for (const answer of never) assert.deepStrictEqual([answer.status, answer.json.interrupted], [200, true], answer.text);
      const after = await settledPlugins(server.url);
      for (const [name, why] of [['throws-from-a-timer', /threw outside its promise/], ['leaves-a-rejection', /left a promise rejection unhandled/], ['never-settles', /did not stop within \d+ ms of its abort signal/]]) {
        const plugin = byName(after, name);
        assert.strictEqual(plugin.state, 'failing', JSON.stringify(plugin));
        assert.match(plugin.why, why, name);
        const workload = Object.keys(plugin.workloads)[0];
        const refused = await run(`${workload}?approach=${name}&document=${sha256}`);
        assert.strictEqual(refused.status, 400, refused.text);
        assert.match(refused.json.error, /cannot be used/);
      }
      assert.strictEqual(byName(after, 'mutates').state, 'ok', 'changing its input marks no plugin: it is kept from harm instead');
      // The slots are free and the service is the process that started.
      await ran(`parse?approach=native&document=${sha256}`, true);
      assert.strictEqual((await request(`${server.url}/healthz`)).status, 200);
      assert.strictEqual(server.exitCode, null);
    } finally {
      assert.strictEqual(await stopProcess(server), 0, 'it stops as it should, on SIGTERM');
    }
  });

  test('plugins: a plugin that blocks its thread is checking while its check runs, then failing at the cap', async () => {
    // A cap the check can never meet: it is checking (503 to a run) until the service closes.
    const waiting = await startService(makeService(settings(BLOCKING_DIR)));
    try {
      const plugins = (await request(`${waiting.url}/info`)).json.plugins;
      assert.deepStrictEqual(plugins.plugins.map((p) => [p.name, p.state]), [['blocks-its-thread', 'checking']]);
      const res = await request(`${waiting.url}/run/parse?approach=blocks-its-thread`);
      assert.strictEqual(res.status, 503, res.text);
      assert.ok(res.headers['retry-after']);
      assert.match(res.json.error, /still being checked/);
      assert.strictEqual((await request(`${waiting.url}/healthz`)).status, 200);
    } finally {
      await waiting.close();
    }
    // A short cap: the check is ended and the plugin failing, with the case it was on.
    const capped = await startService(makeService(settings(BLOCKING_DIR, 1000)));
    try {
      const plugin = byName(await settledPlugins(capped.url), 'blocks-its-thread');
      const parse = plugin.workloads.parse;
      assert.deepStrictEqual([parse.state, parse.why], ['failing', 'the check did not finish within 1000 ms']);
      // The case it was on: the corpus' first, unless the cap came before the thread had built the corpus.
      assert.ok(parse.case === 'zero' || parse.case === null, parse.case);
      assert.strictEqual((await request(`${capped.url}/healthz`)).status, 200);
    } finally {
      await capped.close();
    }
  });
}

module.exports = { pluginsSuite };
