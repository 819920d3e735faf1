'use strict';
// Arrays of 2^24 items or more (yyjson 0.10.0 kept their length modulo 2^24 on wasm32: src/json_codec.cpp), and a
// failed run that leaves the module as it was. The long array is built inside the test to test the representation
// (every reader's tree alike), and sent over HTTP once, within the upload caps.
const test = require('node:test');
const assert = require('node:assert');
const { startService, request } = require('@lab/test-kit');
const { put } = require('@lab/test-kit/document-uploads');
const { createDocumentStore } = require('@lab/node-kit/document-store');
const { createMemoryBudget } = require('@lab/node-kit/document-memory');
const { JsonTextScan } = require('@lab/node-kit/json-text-scan');
const { sha256 } = require('@lab/node-kit');
const { createWasmModule, loadWasmModule } = require('../lib/wasm-module');
const { APPROACHES } = require('../lib/transfer/approaches');
const { createTransferWorkload } = require('../lib/transfer/transfer-workload');
const { createDocumentWorker } = require('../lib/documents/document-worker');
const { createRunMemory } = require('../lib/documents/run-memory');
const { createDocumentValues } = require('../lib/documents/document-values');
const { memoryLimits } = require('../lib/documents/memory-model');
const { createWasmRunner } = require('../lib/server');

const LONG = 2 ** 24 + 1;

test('an array of 2^24 + 1 items is read whole by yyjson, as by the other readers', async () => {
  const wasm = await createWasmModule(); // its own memory: given back when the test drops it
  const value = new Array(LONG).fill(0);
  const id = wasm.loadDocument(JSON.stringify(value));
  const jsonTree = wasm.documentTreeHash(id);
  wasm.dropDocument(id);
  assert.strictEqual(APPROACHES.json.count(wasm, value).count, LONG + 1, 'json: the array and its items');
  wasm.releaseMemory();
  assert.strictEqual(APPROACHES.typed.count(wasm, value).count, LONG + 1, 'typed');
  assert.strictEqual(wasm.treeHash(), jsonTree, 'the tree yyjson reads is the one the typed layout carries');
  wasm.releaseMemory();
  const object = JSON.parse(`{${Array.from({ length: 3 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
  assert.strictEqual(APPROACHES.json.count(wasm, object).count, 4, 'objects read through the same walk');
});

test('an array of 2^24 + 1 zeros is stored and counted over HTTP; a run that cannot hold it is refused naming its limit', async (t) => {
  const server = await startService(await createWasmRunner());
  t.after(server.close);
  const stored = await put(server.url, JSON.stringify(new Array(LONG).fill(0)));
  assert.strictEqual(stored.status, 201, JSON.stringify(stored.json));
  const document = stored.json.sha256;
  const counted = await request(`${server.url}/run/transfer?approach=typed&op=count&iterations=1&document=${document}`);
  assert.strictEqual(counted.status, 200, JSON.stringify(counted.json));
  assert.strictEqual(counted.json.validated, true);
  assert.strictEqual(counted.json.hash, sha256(String(LONG + 1)));
  const roundTrip = await request(`${server.url}/run/transfer?approach=json&op=roundtrip&iterations=1&document=${document}`);
  assert.strictEqual(roundTrip.status, 400, JSON.stringify(roundTrip.json));
  assert.strictEqual(roundTrip.json.parameter, 'approach');
  assert.strictEqual(roundTrip.json.nodes, LONG + 1);
  assert.ok(roundTrip.json.limitNodes < LONG + 1, JSON.stringify(roundTrip.json));
});

test('a run that fails after C++ built its tree leaves the module as it was, and the next create validates', async (t) => {
  const wasm = await loadWasmModule();
  const worker = createDocumentWorker();
  t.after(() => worker.close());
  const documents = createDocumentStore({ maxCount: 2, maxBytes: 1 << 24, memory: createMemoryBudget(2 ** 30) });
  const text = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, values: new Array(1000).fill(i) })));
  const limits = memoryLimits(wasm, { maxDocumentBytes: 1 << 24 });
  const reference = await worker.reference(text, { maxNodes: limits.maxNodes });
  documents.add({ sha256: sha256(text), bytes: text.length, text, reference, check: new JsonTextScan(text).run().result() });
  // The json round trip itself, then a failure in JS: C++ has kept its tree and its buffers for the check.
  const failing = { ...APPROACHES, json: { ...APPROACHES.json, roundTrip: (w, value) => { APPROACHES.json.roundTrip(w, value); throw new Error('failed after the op'); } } };
  const documentRuns = { worker, memory: createRunMemory(limits.wasmBytes, documents.memory), values: createDocumentValues() };
  const workload = createTransferWorkload(wasm, { documents, documentRuns, approaches: failing });
  const params = { op: 'roundtrip', case: 'flat_small', seed: 1, iterations: 3, yieldMs: 5, document: sha256(text) };
  // A run first: what the module allocates once and keeps (the tree hash's string) is in the figure at rest.
  assert.strictEqual((await workload.run({ approach: 'typed', params: { ...params, op: 'create' } })).validated, true);
  const atRest = wasm.memoryInUse();
  await assert.rejects(workload.run({ approach: 'json', params }), /failed after the op/);
  assert.strictEqual(wasm.memoryInUse(), atRest, 'the tree and buffers of the failed run are given back');
  assert.deepStrictEqual([documentRuns.memory.wasmTaken(), documents.memory.reservedBytes()], [0, 0]);
  assert.strictEqual(documentRuns.values.size(), 0);
  for (const approach of ['json', 'typed']) {
    const created = await workload.run({ approach, params: { ...params, op: 'create' } });
    assert.strictEqual(created.validated, true, approach);
  }
  assert.strictEqual(wasm.memoryInUse(), atRest, 'and so are those of the runs that passed');
});
