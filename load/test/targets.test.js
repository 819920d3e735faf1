'use strict';
// What the load driver reads of its targets before a suite: their /info once no serializer plugin is still being
// checked, so that the coverage generated from it runs the plugins too.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const { describeTargets } = require('../src/suite/targets');

/** A target whose /info lists a plugin as checking for its first `checkingAnswers` answers, then as ok. */
async function targetWithPlugin(checkingAnswers) {
  let answers = 0;
  const server = http.createServer((req, res) => {
    const state = answers++ < checkingAnswers ? 'checking' : 'ok';
    const approaches = state === 'ok' ? ['native', 'mine'] : ['native'];
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ workloads: { stringify: { approaches, params: {} } }, plugins: { plugins: [{ name: 'mine', state }] } }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, answers: () => answers, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('the targets are described once their serializer plugins are checked', async () => {
  const target = await targetWithPlugin(2);
  try {
    const described = await describeTargets({ one: target.url }, 600000);
    assert.deepStrictEqual(described.one.workloads.stringify.approaches, ['native', 'mine']);
    assert.strictEqual(target.answers(), 3);
  } finally {
    await target.close();
  }
});

test('without time to wait, the targets are described as they are', async () => {
  const target = await targetWithPlugin(Infinity);
  try {
    const described = await describeTargets({ one: target.url });
    assert.strictEqual(described.one.plugins.plugins[0].state, 'checking');
  } finally {
    await target.close();
  }
});
