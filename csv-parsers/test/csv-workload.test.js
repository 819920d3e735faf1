'use strict';
// The csv workload as the service runs it (minus HTTP): its params, and the run result of CONTRACT.md.
const test = require('node:test');
const assert = require('node:assert');
const { csvWorkload, PARAMS } = require('../csv-workload');
const { csvApproaches } = require('../approaches');
const { checkWorkload } = require('@lab/node-kit/params');
const { ASYNC_CHUNKS } = require('../sources');

const params = (extra) => Object.assign({ seed: 1, rows: 2000, chunkChars: 4096, timeoutMs: 0 }, extra);

test('the workload has the node-kit shape: approaches in the async-char-streams order, numeric params with valid defaults', () => {
  const workload = csvWorkload(csvApproaches());
  checkWorkload('csv', workload);
  assert.deepStrictEqual(workload.approaches, Object.keys(csvApproaches()));
  assert.deepStrictEqual(Object.keys(PARAMS), ['seed', 'rows', 'chunkChars', 'timeoutMs']);
  assert.deepStrictEqual(PARAMS.rows, { default: 50002, min: 1, max: 100000 });
  assert.deepStrictEqual(PARAMS.chunkChars, { default: 65536, min: 1024, max: 1048576 });
  assert.deepStrictEqual(PARAMS.timeoutMs, { default: 0, min: 0, max: 600000 });
  assert.strictEqual(workload.caseOf(params()), 'csv');
});

test('a run reports the contract fields and validates against the generated rows', async () => {
  const workload = csvWorkload(csvApproaches());
  for (const approach of ['memory', 'fast', 'async-of-sync']) {
    const result = await workload.run({ approach, params: params() });
    assert.strictEqual(result.validated, true, approach);
    assert.strictEqual(result.reference, 'generated');
    assert.strictEqual(result.rows, 2000);
    assert.match(result.hash, /^[0-9a-f]{64}$/);
    assert.ok(result.bytes > 150000, String(result.bytes));
    assert.ok(result.ms > 0);
    assert.strictEqual(result.interrupted, false);
    assert.strictEqual(result.interruptedBy, null);
    assert.strictEqual(result.overshootMs, null);
    assert.strictEqual(typeof result.eventLoop.maxBlockMs, 'number');
  }
});

test('rows that differ from the generated ones do not validate', async () => {
  const { fast } = csvApproaches();
  async function dropsLastRow(source, options) {
    return (await fast(source, options)).slice(0, -1);
  }
  dropsLastRow.input = ASYNC_CHUNKS;
  const result = await csvWorkload({ dropsLastRow }).run({ approach: 'dropsLastRow', params: params() });
  assert.strictEqual(result.validated, false);
  assert.strictEqual(result.rows, 1999);
});

test('a timeout stops an approach at its next chunk and says so', async () => {
  const workload = csvWorkload(csvApproaches());
  const result = await workload.run({ approach: 'async', params: params({ rows: 50002, chunkChars: 1024, timeoutMs: 30 }) });
  assert.strictEqual(result.interrupted, true);
  assert.strictEqual(result.interruptedBy, 'timeout');
  assert.strictEqual(result.validated, false);
  assert.strictEqual(result.hash, null);
  assert.strictEqual(result.bytes, null);
  assert.ok(result.overshootMs >= 0, String(result.overshootMs)); // how late: the benchmark's figure
});

test('a client that went away stops the run', async () => {
  const client = new AbortController();
  client.abort();
  const result = await csvWorkload(csvApproaches()).run({ approach: 'fast', params: params() }, { signal: client.signal });
  assert.strictEqual(result.interrupted, true);
  assert.strictEqual(result.interruptedBy, 'client');
});

test('a parse failure that is not an interruption is thrown', async () => {
  async function fails() {
    throw new Error('broken approach');
  }
  fails.input = ASYNC_CHUNKS;
  await assert.rejects(csvWorkload({ fails }).run({ approach: 'fails', params: params() }), /broken approach/);
});
