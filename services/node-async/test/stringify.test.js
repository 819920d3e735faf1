'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { startService, request } = require('../../../node-kit/testing');
const { readVectors } = require('../../../payloads/js/vectors');
const { makeService } = require('../src/service');

test('stringify validates against the pinned vector and reports yields', async (t) => {
  const server = await startService(makeService());
  t.after(() => server.close());
  const pinned = readVectors().documents.find((v) => v.document === 'records' && v.size === 100);
  for (const approach of ['native', 'async']) {
    const res = await request(`${server.url}/run/stringify?approach=${approach}&size=100&seed=${pinned.seed}`);
    assert.strictEqual(res.status, 200, res.text);
    assert.strictEqual(res.json.reference, 'vector');
    assert.strictEqual(res.json.hash, pinned.sha256);
    assert.strictEqual(res.json.bytes, pinned.bytes);
    assert.strictEqual(res.json.validated, true);
  }
  const big = await request(`${server.url}/run/stringify?approach=async&size=3000&yieldMs=1`);
  assert.strictEqual(big.json.reference, 'native');
  assert.strictEqual(big.json.validated, true);
  assert.ok(big.json.yields > 0, big.text);
});
