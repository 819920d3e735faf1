'use strict';
// The memory a run on a user's document needs (lib/documents/memory-model.js) bounds what it takes: every approach
// and op, on the shapes that cost the most per node and per byte, measured as malloc's peak footprint in a fresh
// module (deterministic: the same allocations on any machine). Documents past maxNodes are refused at upload with 413,
// runs that could never fit with 400 naming their limit, runs that do not fit beside those in flight with 503.
const test = require('node:test');
const assert = require('node:assert');
const { startService, request } = require('@lab/test-kit');
const { put } = require('@lab/test-kit/document-uploads');
const { SHAPES, runPeak, checkPeak } = require('../bench/memory-peak');
const { MODEL, wasmNeeds, limitNodes, OPS_MEASURED } = require('../lib/documents/memory-model');
const { createRunMemory, jsNeeds } = require('../lib/documents/run-memory');
const { createMemoryBudget } = require('@lab/node-kit/document-memory');
const { createWasmRunner } = require('../lib/server');

// The approaches whose C++ runs in the service's module (the worker approach's runs in a thread of its own).
const APPROACHES = Object.keys(MODEL).filter((a) => a !== 'check' && a !== 'worker');
// Sizes a test can afford; the model's fixed part covers what does not grow with them.
const SIZES = { longStrings: 300, longKeys: 300 };
const NODES = 20000;

for (const shape of ['zeros', 'emptyArrays', 'emptyObjects', 'members', 'doubles', 'strings12', 'longStrings', 'longKeys']) {
  test(`the model bounds the WASM memory every run takes on ${shape}`, async () => {
    const value = SHAPES[shape](SIZES[shape] || NODES);
    for (const approach of APPROACHES) {
      for (const op of OPS_MEASURED) {
        const { nodes, bytes, peak } = await runPeak(approach, op, value);
        const wasmBytes = wasmNeeds(approach, op, { nodes, bytes });
        assert.ok(peak <= wasmBytes, `${approach} ${op}: ${peak} bytes at its peak, the model says ${wasmBytes}`);
      }
    }
    const { nodes, bytes, peak } = await checkPeak(value);
    const model = MODEL.check;
    assert.ok(peak <= model.perNode * nodes + model.perByte * bytes + model.fixedMB * 2 ** 20, `the worker's check: ${peak} bytes`);
  });
}

test('a run that never fits is refused with 400 naming its limit; one that does not fit beside the runs in flight gets 503', () => {
  const document = { nodes: 1000000, bytes: 2000000 };
  // A held document as node-kit's store gives it: its check's counts, its text's bytes and its reference.
  const held = { bytes: document.bytes, check: { counts: { objects: 0, arrays: 1, members: 0, strings: 0, scalars: document.nodes - 1 } }, reference: document };
  const needs = wasmNeeds('typed', 'count', document);
  const js = createMemoryBudget(jsNeeds('count', held) * 10);
  const memory = createRunMemory(needs + 1000, js);
  const limit = limitNodes(needs + 1000, 'json', 'roundtrip', document.bytes);
  assert.throws(() => memory.admit('json', 'roundtrip', held, APPROACHES), (err) => {
    assert.strictEqual(err.status, 400);
    assert.deepStrictEqual(err.details, { parameter: 'approach', nodes: document.nodes, limitNodes: limit, allowed: ['embind', 'msgpack', 'msgpackr', 'typed'] });
    return true;
  });
  const release = memory.admit('typed', 'count', held, APPROACHES);
  assert.ok(js.reservedBytes() > 0, "its JS values are reserved from node-kit's budget");
  assert.throws(() => memory.admit('typed', 'count', held, APPROACHES), (err) => err.status === 503 && err.headers['Retry-After'] === '1');
  release();
  release(); // twice: once counted
  assert.deepStrictEqual([memory.wasmTaken(), js.reservedBytes()], [0, 0]);
  memory.admit('typed', 'count', held, APPROACHES)();
});

test('a document of more nodes than maxNodes is refused at upload with 413, and nothing is kept', async (t) => {
  process.env.DOCUMENT_MAX_NODES = '1000';
  let server;
  try {
    server = await startService(await createWasmRunner());
  } finally {
    delete process.env.DOCUMENT_MAX_NODES;
  }
  t.after(server.close);
  assert.strictEqual((await request(`${server.url}/info`)).json.documents.maxNodes, 1000);
  const at = await put(server.url, JSON.stringify(new Array(999).fill(0))); // 1000 nodes: the array and its items
  assert.strictEqual(at.status, 201, JSON.stringify(at.json));
  const past = await put(server.url, JSON.stringify([new Array(999).fill(0)]));
  assert.strictEqual(past.status, 413);
  assert.deepStrictEqual(past.json, { error: past.json.error, nodes: 1001, limitNodes: 1000 });
  assert.match(past.json.error, /1001 values \(nodes\); a run here holds at most 1000/);
  const { documents } = (await request(`${server.url}/documents`)).json;
  assert.deepStrictEqual(documents.map((d) => d.sha256), [at.json.sha256]);
});
