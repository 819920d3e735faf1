'use strict';
// The event loop keeps turning while wasm-runner does its whole-document work: the references of an upload (in the
// document worker) and the preparation of a run (the value by fast-parse in slices, create's tree in bounded steps).
// Counted, never timed: 1 ms timers turn during it, the work between turns is bounded in pieces and steps, and the
// same work done the former way on the main thread lets no timer turn, in the same test.
const test = require('node:test');
const assert = require('node:assert');
const { createDocumentStore } = require('@lab/node-kit/document-store');
const { createMemoryBudget } = require('@lab/node-kit/document-memory');
const { JsonTextScan } = require('@lab/node-kit/json-text-scan');
const { sha256 } = require('@lab/node-kit');
const { loadWasmModule } = require('../lib/wasm-module');
const { createDocumentWorker } = require('../lib/documents/document-worker');
const { documentReference } = require('../lib/documents/document-reference');
const { utf8InSlices, PIECE_CHARS } = require('../lib/documents/text-bytes');
const { buildDocumentTree, maxSliceSteps, STEP_VALUES } = require('../lib/documents/document-tree');
const { findUncarried } = require('../lib/documents/uncarried');
const { createRunMemory } = require('../lib/documents/run-memory');
const { createDocumentValues } = require('../lib/documents/document-values');
const { memoryLimits } = require('../lib/documents/memory-model');
const { documentInput } = require('../lib/transfer/document-input');
const { APPROACHES } = require('../lib/transfer/approaches');

const YIELD_MS = 5;
// About 9 MB of text and 2 million nodes: more pieces and steps than one slice may take, on any machine.
const TEXT = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row ${i} ☃`, values: new Array(1000).fill(i) })));

/** Counts the turns of a 1 ms timer while `work` (a function returning a promise, or a value) runs. */
async function turnsDuring(work) {
  let turns = 0;
  const timer = setInterval(() => turns++, 1);
  try {
    const result = await work();
    return { turns, result };
  } finally {
    clearInterval(timer);
  }
}

test("an upload's references are taken off the event loop; on the main thread they held it", async (t) => {
  const worker = createDocumentWorker({ yieldMs: YIELD_MS });
  t.after(() => worker.close());
  const wasm = await loadWasmModule();
  const { maxNodes } = memoryLimits(wasm, { maxDocumentBytes: 64 * 2 ** 20 });
  const offLoop = await turnsDuring(() => documentReference(worker, maxNodes)({ text: TEXT }));
  const onLoop = await turnsDuring(() => { // the former document-reference.js
    const value = JSON.parse(TEXT);
    const canonical = JSON.stringify(value);
    findUncarried(value);
    const id = wasm.loadDocument(canonical);
    wasm.documentTreeHash(id);
    wasm.dropDocument(id);
    wasm.releaseMemory();
    return sha256(canonical);
  });
  assert.strictEqual(offLoop.result.hash, onLoop.result, 'the same reference');
  assert.strictEqual(onLoop.turns, 0, 'blocked: no timer turned');
  assert.ok(offLoop.turns > 0, 'the loop turned while the worker worked');
});

test("the text goes to the worker as bytes made in slices of bounded pieces", async () => {
  const stats = {};
  const bytes = await utf8InSlices(TEXT, { yieldMs: YIELD_MS, stats });
  assert.ok(bytes.equals(Buffer.from(TEXT)), 'the same UTF-8');
  assert.strictEqual(bytes.byteOffset, 0);
  assert.strictEqual(bytes.buffer.byteLength, bytes.length, 'an ArrayBuffer of its own, to transfer');
  const pieces = Math.ceil(TEXT.length / PIECE_CHARS);
  assert.ok(stats.maxSlicePieces <= Math.ceil(YIELD_MS), `at most ${Math.ceil(YIELD_MS)} pieces a slice, took ${stats.maxSlicePieces}`);
  assert.ok(stats.yields >= Math.ceil((2 * pieces) / Math.ceil(YIELD_MS)) - 2, `${stats.yields} turns for ${pieces} pieces twice`);
});

test("create's tree is built in bounded steps with turns between them; built whole it held the loop", async (t) => {
  const worker = createDocumentWorker({ yieldMs: YIELD_MS });
  t.after(() => worker.close());
  const wasm = await loadWasmModule();
  const msgpack = await worker.msgpack(TEXT);
  const stats = {};
  const stepped = await turnsDuring(() => buildDocumentTree(wasm, msgpack, { yieldMs: YIELD_MS, stats }));
  const tree = wasm.documentTreeHash(stepped.result);
  wasm.dropDocument(stepped.result);
  const whole = await turnsDuring(() => wasm.loadDocument(JSON.stringify(JSON.parse(TEXT)))); // the former way
  assert.strictEqual(wasm.documentTreeHash(whole.result), tree, 'the same tree');
  wasm.dropDocument(whole.result);
  wasm.releaseMemory();
  assert.strictEqual(whole.turns, 0, 'blocked: no timer turned');
  assert.ok(stepped.turns > 0, 'the loop turned');
  const bound = maxSliceSteps(YIELD_MS);
  assert.ok(stats.maxSliceSteps <= bound, `at most ${bound} steps a slice, took ${stats.maxSliceSteps}`);
  assert.ok(stats.yields >= Math.floor(2000000 / (STEP_VALUES * bound)), `${stats.yields} turns`);
});

test('preparing a run on a stored document lets the loop turn, for the value and for create', async (t) => {
  const wasm = await loadWasmModule();
  const worker = createDocumentWorker({ yieldMs: YIELD_MS });
  t.after(() => worker.close());
  const limits = memoryLimits(wasm, { maxDocumentBytes: 64 * 2 ** 20 });
  const documents = createDocumentStore({ maxCount: 2, maxBytes: 1 << 25, memory: createMemoryBudget(2 ** 31) });
  const reference = await documentReference(worker, limits.maxNodes)({ text: TEXT });
  documents.add({ sha256: sha256(TEXT), bytes: Buffer.byteLength(TEXT), text: TEXT, reference, check: new JsonTextScan(TEXT).run().result() });
  const service = { documents, wasm, worker, memory: createRunMemory(limits.wasmBytes, documents.memory), values: createDocumentValues() };
  for (const op of ['roundtrip', 'create']) {
    const { turns, result } = await turnsDuring(() => documentInput(service, { approach: 'typed', op, sha256: sha256(TEXT), approaches: Object.keys(APPROACHES), yieldMs: YIELD_MS }));
    result.release();
    assert.ok(turns > 0, `${op}: the loop turned while its input was prepared`);
  }
  const value = await turnsDuring(() => JSON.parse(TEXT)); // the former preparation of a round trip
  assert.strictEqual(value.turns, 0, 'blocked: no timer turned');
});
