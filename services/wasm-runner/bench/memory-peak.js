'use strict';
// What a run on a user's document takes from the WASM module's memory, measured: the shapes of document that cost the
// most per node and per byte, and the peak of malloc's footprint (src/exports.cpp, wr_memory_peak) over a run's
// work in a fresh instance, done as the service does it. lib/documents/memory-model.js is built from these figures
// (bench/memory-model.js prints them) and test/memory-model.test.js checks that it bounds them.
const { createWasmModule } = require('../lib/wasm-module');
const { APPROACHES } = require('../lib/transfer/approaches');
const { countNodes } = require('../lib/transfer/nodes');
const { buildDocumentTree } = require('../lib/documents/document-tree');

const repeat = (n, make) => Array.from({ length: n }, (_, i) => make(i));
const text = (chars, i) => (String(i).padStart(8, '0') + 'x'.repeat(chars)).slice(0, chars);

/**
 * Shapes by what they stress, each (nodes) -> a value of about that many nodes (JSON text bytes follow from the shape).
 * The node-heavy ones have the fewest bytes a node of each kind can have; the byte-heavy ones put the bytes where a
 * node cannot follow them (long strings, long keys).
 */
const SHAPES = {
  zeros: (n) => repeat(n - 1, () => 0), // `[0,0,...]`: 2 bytes a node, the densest JSON
  rows: (n) => repeat(Math.max(1, Math.round((n - 1) / 1001)), () => repeat(1000, () => 0)), // the issue's [[0,...],...]
  emptyArrays: (n) => repeat(n - 1, () => []),
  emptyObjects: (n) => repeat(n - 1, () => ({})),
  members: (n) => repeat(Math.round((n - 1) / 2), (i) => ({ [String.fromCharCode(97 + (i % 26))]: 0 })),
  doubles: (n) => repeat(n - 1, (i) => i + 0.5),
  shortStrings: (n) => repeat(n - 1, () => ''),
  strings12: (n) => repeat(n - 1, (i) => text(12, i)), // past libc++'s 10-byte short-string buffer: one allocation each
  booleans: (n) => repeat(n - 1, (i) => i % 3 === 0 ? null : i % 2 === 0),
  longStrings: (n) => repeat(n - 1, (i) => text(1000, i)), // bytes per node at their most
  longKeys: (n) => repeat(Math.max(1, Math.round((n - 1) / 2)), (i) => ({ [text(1000, i)]: 0 })),
};

/** Bytes of JSON.stringify's text of a value (the canonical text the references and create's tree are made from). */
const jsonBytes = (value) => Buffer.byteLength(JSON.stringify(value));

/**
 * The peak of the module's malloc footprint over one run's work on `value`: two ops of `approach` and `op` (the second
 * meets what the first left: its tree, its output) and the validating tree hash, in a fresh instance; for create,
 * first the kept tree built from the MessagePack bytes another instance (the worker's) made of it. Resolves
 * {nodes, bytes, peak} (bytes: of the canonical JSON text).
 */
async function runPeak(approach, op, value) {
  const wasm = await createWasmModule();
  const ops = APPROACHES[approach];
  if (op === 'create') {
    const worker = await createWasmModule();
    const workerId = worker.loadDocument(JSON.stringify(value));
    const bytes = worker.documentMsgpack(workerId);
    const id = await buildDocumentTree(wasm, bytes, { yieldMs: 1000 });
    ops.createDocument(wasm, id);
    ops.createDocument(wasm, id);
  } else {
    const run = op === 'count' ? ops.count : ops.roundTrip;
    run(wasm, value);
    run(wasm, value);
  }
  wasm.treeHash();
  return { nodes: countNodes(value), bytes: jsonBytes(value), peak: wasm.memoryPeak() };
}

/** The peak of the document worker's check of `value` (lib/documents/document-worker-thread.js), in a fresh instance. */
async function checkPeak(value) {
  const wasm = await createWasmModule();
  const id = wasm.loadDocument(JSON.stringify(value));
  wasm.documentTreeHash(id);
  wasm.documentMsgpack(id);
  return { nodes: countNodes(value), bytes: jsonBytes(value), peak: wasm.memoryPeak() };
}

module.exports = { SHAPES, runPeak, checkPeak, jsonBytes };
