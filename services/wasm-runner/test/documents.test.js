'use strict';
// PUT /documents on wasm-runner: the contract suite every Node service runs (test-kit/document-uploads.js),
// with wasm-runner's own depth cap and what it says of each finding; the claims of those details checked against
// the module itself.
const test = require('node:test');
const assert = require('node:assert');
const { documentUploadSuite, put } = require('@lab/test-kit/document-uploads');
const { startService, request } = require('@lab/test-kit');
const { createWasmRunner } = require('../lib/server');
const { loadWasmModule } = require('../lib/wasm-module');
const { FINDING_DETAILS } = require('../lib/documents/finding-details');
const { memoryLimits } = require('../lib/documents/memory-model');

documentUploadSuite(test, assert, createWasmRunner, { findingDetails: FINDING_DETAILS, serialization: false });

test("maxNodes is the least of the heap budget's and the WASM memory's", async (t) => {
  const server = await startService(await createWasmRunner());
  t.after(server.close);
  const { documents } = (await request(`${server.url}/info`)).json;
  const { maxNodes } = memoryLimits(await loadWasmModule(), { maxDocumentBytes: documents.maxDocumentBytes });
  assert.ok(documents.maxNodes > 0 && documents.maxNodes <= maxNodes, JSON.stringify(documents));
});

test("the depth cap is the C++ readers' MAX_DEPTH, below the lab's", async (t) => {
  const server = await startService(await createWasmRunner());
  t.after(server.close);
  const { documents } = (await request(`${server.url}/info`)).json;
  const wasm = await loadWasmModule();
  assert.strictEqual(documents.maxDepth, wasm.maxDepth);
  assert.deepStrictEqual(documents.kinds, ['json']);
  const nest = (depth) => '['.repeat(depth) + ']'.repeat(depth);
  const deeper = await put(server.url, nest(wasm.maxDepth + 1));
  assert.strictEqual(deeper.status, 400, JSON.stringify(deeper.json));
  assert.deepStrictEqual([deeper.json.depth, deeper.json.maxDepth], [wasm.maxDepth + 1, wasm.maxDepth]);
  assert.match(deeper.json.error, /nests 513 levels deep; this service takes at most 512/);
  assert.strictEqual((await put(server.url, nest(wasm.maxDepth))).status, 201);
});

test('what the finding details say yyjson does with the text itself is what it does', async () => {
  const wasm = await loadWasmModule();
  /** The user's text read by yyjson into a C++ tree and written back by yyjson (the json approach's writer). */
  const readBack = (text) => {
    const id = wasm.loadDocument(text);
    try {
      wasm.check(wasm.exports.jsonCreateDocument(id), 'write');
      return Buffer.from(wasm.outputView()).toString('utf8');
    } finally {
      wasm.dropDocument(id);
    }
  };
  // large-integer: exact up to 2^64 then the nearest double, which is JSON.parse's; a double past it.
  assert.strictEqual(JSON.parse(readBack('12345678901234567890')), JSON.parse('12345678901234567890'));
  assert.match(readBack('12345678901234567890'), /\.0$/, 'kept as a double');
  assert.strictEqual(readBack('123456789012345678901234567890'), '1.2345678901234568e29');
  assert.match(FINDING_DETAILS['large-integer'], /exactly up to 2\^64/);
  // negative-zero: 0.
  assert.strictEqual(readBack('[-0,-0.0]'), '[0,0]');
  // duplicate-key: every member, in order.
  assert.strictEqual(readBack('{"a":1,"b":2,"a":3}'), '{"a":1,"b":2,"a":3}');
  assert.match(FINDING_DETAILS['duplicate-key'], /keep every member, in order/);
  // lone-surrogate: refused.
  assert.throws(() => readBack('"\\ud800"'), /no low surrogate in string/);
  // number-format: the values.
  assert.strictEqual(readBack('[1.0,1e2,1.50]'), '[1,100,1.5]');
});
