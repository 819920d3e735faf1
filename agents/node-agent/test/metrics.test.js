'use strict';
// What /metrics says of a real process, on every Node line the agent supports (agent-process.js' childNodes): text a
// real Prometheus accepts (promtool), a block of the loop in the lag's max and the busy counter, every forced
// collection counted, worker threads' busy time while they run. Properties the process measures itself, never a
// wall-clock bound: a slow or loaded machine lengthens the block and the lag alike.
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const { childNodes, nodeVersion, startWithAgent, parseSamples, sampleValue } = require('./agent-process');
const { LAB, OTEL } = require('../names');
const { DEFAULT_LAG_RESOLUTION_MS } = require('../settings');

const promtool = spawnSync('promtool', ['--version']).status === 0;

for (const node of childNodes()) {
  describe(`the agent's metrics on Node ${nodeVersion(node)}`, () => {
    let child;
    const scrape = async () => {
      const res = await child.agent('/metrics');
      assert.strictEqual(res.status, 200);
      assert.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/);
      return res.text;
    };
    before(async () => {
      child = await startWithAgent(node, { nodeArgs: ['--expose-gc'] });
    });
    after(() => child.stop());

    test('the text passes promtool check metrics, and names every metric /info lists, both families', { skip: !promtool && 'no promtool' }, async () => {
      const text = await scrape();
      const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      assert.strictEqual(checked.status, 0, checked.stdout + checked.stderr);
      assert.strictEqual(checked.stdout + checked.stderr, '', 'no lint findings');
      const info = (await child.agent('/info')).json();
      const families = new Set(text.split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]));
      assert.deepStrictEqual(Array.from(families).sort(), info.metrics.slice().sort());
      for (const name of [LAB.lagMax, LAB.lagP99, LAB.loopBusy, LAB.gcPause, LAB.cpu, LAB.rss, OTEL.delayMax, OTEL.utilization, OTEL.gcDuration, OTEL.heapUsed, OTEL.heapLimit]) {
        assert.ok(families.has(name), name);
      }
    });

    test("a block of the loop shows in the lag's max and the busy counter, at least as long as the block measured itself", async () => {
      const before = parseSamples(await scrape()); // resets the interval's delay figures
      // The block after two of the monitor's intervals: its first tick after a reset only restarts its clock (see
      // loop-delay.js), and libuv runs due timers in the order they fell due, so that tick comes before the block.
      const { blockedMs } = await child.service(`/block?ms=200&afterMs=${2 * DEFAULT_LAG_RESOLUTION_MS}`);
      const samples = parseSamples(await scrape());
      // The monitor's timer fired after the block: the interval it measured holds the whole block.
      assert.ok(sampleValue(samples, LAB.lagMax) * 1000 >= blockedMs, `lag max ${sampleValue(samples, LAB.lagMax)} s, block ${blockedMs} ms`);
      assert.strictEqual(sampleValue(samples, OTEL.delayMax), sampleValue(samples, LAB.lagMax), 'one reading, two names');
      assert.ok(sampleValue(samples, LAB.lagMax) >= sampleValue(samples, LAB.lagP50));
      const busySeconds = sampleValue(samples, LAB.loopBusy) - sampleValue(before, LAB.loopBusy);
      // Both clocks are the monotonic clock; a microsecond of rounding allowed.
      assert.ok(busySeconds * 1000 >= blockedMs - 0.001, `busy ${busySeconds} s, block ${blockedMs} ms`);
      const utilization = sampleValue(samples, OTEL.utilization);
      assert.ok(utilization > 0 && utilization <= 1, `utilization ${utilization}`);
    });

    test('every forced full collection is counted, by kind, in both histograms', async () => {
      const count = (samples, name, label) => sampleValue(samples, `${name}_count`, label) || 0;
      const before = parseSamples(await scrape());
      await child.service('/gc?times=3');
      const samples = parseSamples(await scrape());
      assert.ok(count(samples, LAB.gcPause, { kind: 'major' }) - count(before, LAB.gcPause, { kind: 'major' }) >= 3);
      assert.ok(count(samples, OTEL.gcDuration, { v8js_gc_type: 'major' }) - count(before, OTEL.gcDuration, { v8js_gc_type: 'major' }) >= 3);
      assert.ok(sampleValue(samples, LAB.gcPauseMax) > 0, 'the longest pause since the last scrape');
      assert.ok(sampleValue(samples, `${LAB.gcPause}_bucket`, { kind: 'major', le: '+Inf' }) >= 3);
    });

    for (const via of ['cjs', 'esm']) {
      test(`a worker thread made with the Worker of ${via === 'cjs' ? "require('worker_threads')" : 'an ES module import'} is watched while it runs, forgotten once it exits`, async () => {
        const { threadId } = await child.service(`/worker/start?via=${via}`);
        const running = parseSamples(await scrape());
        assert.strictEqual(sampleValue(running, LAB.workers), 1);
        assert.ok(sampleValue(running, LAB.workerBusy, { thread_id: String(threadId) }) >= 0, `a series for thread ${threadId}`);
        assert.strictEqual((await child.agent('/info')).json().workers, 1);
        await child.service('/worker/stop');
        const stopped = parseSamples(await scrape());
        assert.strictEqual(sampleValue(stopped, LAB.workers), 0);
        assert.strictEqual(sampleValue(stopped, LAB.workerBusy, { thread_id: String(threadId) }), undefined);
        // The worker loaded the agent too (a worker inherits the process's -r, as it does NODE_OPTIONS) and it stayed
        // off there: one side port.
        assert.strictEqual(child.stderr().match(/lab agent: metrics on/g).length, 1);
      });
    }
  });
}
