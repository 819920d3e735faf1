'use strict';
// What a run on a user's document takes of memory, as a function of its nodes (every JSON value) and of the bytes of
// its canonical JSON text, by approach and op: the WASM module's linear memory, which cannot grow past its maximum
// (CMakeLists.txt's WASM_MAXIMUM_MEMORY; a C++ allocation past it aborts the module, or fails a yyjson call with
// "out of memory"), and how many values and texts of the document the run holds on the JS heap, which node-kit's
// budget prices (node-kit/document-memory.js: one model of a value's heap for every Node service). From it, the most
// nodes a stored document may have here (maxNodes: PUT /documents refuses more with 413), the most a run of each
// approach and op may have in WASM memory (a run past it is refused with 400), and what a run reserves while it lasts
// (run-memory.js: 503 when runs in flight leave too little). README.md ("Memory") has the figures; how they were
// measured: docs/findings/wasm-runner.md (2026-11-29).
const MB = 2 ** 20;
const OPS_MEASURED = ['roundtrip', 'count', 'create'];

// WASM: bytes a node and bytes a byte of text at a run's peak (two ops and the tree hash; for create also the kept
// tree, built from MessagePack), and a fixed part. Measured by bench/memory-model.js (malloc's footprint at its peak
// in a fresh instance, 2026-11-29): a byte's cost from 5-20 MB of long strings and long keys, then a node's as the most
// any shape cost beyond its bytes (zeros, rows of zeros, empty arrays and objects, one-member objects, doubles, empty
// and 12-byte strings, booleans and null; 0.25, 1 and 2 million nodes). Each figure is the measured one plus about
// 10%, for what the sizes measured did not meet (a buffer that doubles, fragmentation); test/memory-model.test.js
// checks that they bound the peaks measured on every shape.
const wasm = (perNode, perByte) => ({ perNode, perByte, fixedMB: 2 });
const MODEL = {
  // The most: yyjson's own documents beside the tree (its read copies the text and has 16-byte values, its writer's
  // values are 24 bytes), and the input buffer, which the json approach reserves at 3 bytes a UTF-16 unit of its text.
  json: { roundtrip: wasm(131, 10.1), count: wasm(56, 8.6), create: wasm(172, 5.7) },
  // No buffer crosses: the tree alone (24 bytes a value, 40 a member), and for create the kept tree and its copy.
  embind: { roundtrip: wasm(35, 1.2), count: wasm(35, 1.2), create: wasm(88, 2.4) },
  msgpack: { roundtrip: wasm(38, 5.9), count: wasm(51, 2.3), create: wasm(75, 6) },
  msgpackr: { roundtrip: wasm(34, 8.1), count: wasm(49, 3.4), create: wasm(75, 6) },
  typed: { roundtrip: wasm(44, 8.1), count: wasm(60, 4.5), create: wasm(74, 6) },
  // The worker approach's C++ runs in a module of its own (lib/transfer/transfer-worker.js), not measured apart:
  // charged to the same budget as the most its work could take here, json's reading (yyjson's document and the tree)
  // with typed's writing, and for create the tree it keeps beside its copy.
  worker: { roundtrip: wasm(131, 10.1), count: wasm(56, 8.6), create: wasm(172, 6) },
  // The document worker's module, its own: a check at upload, or the MessagePack for create (yyjson's document, the
  // tree, the MessagePack bytes).
  check: wasm(56, 6.4),
};

// JS: a run holds its input value (roundtrip, count), the last op's answer and the one being built (roundtrip,
// create), and texts of the document's size (the json approach's JSON.stringify and its answer's, the check of the
// last answer; UTF-16, 2 bytes a character).
const JS_RUN = { roundtrip: { values: 3, texts: 3 }, count: { values: 1, texts: 1 }, create: { values: 2, texts: 3 } };

// What the WASM budget leaves beside the document runs: the runs on generated cases (the largest, tree_d6_b4 and
// numbers_10000, peak under 8 MB each; MAX_CONCURRENT_RUNS of them).
const WASM_SPARE_BYTES = 64 * MB;

/** The WASM bytes a run of approach and op needs on a document of `nodes` nodes and `bytes` of canonical text. */
function wasmNeeds(approach, op, { nodes, bytes }) {
  const model = MODEL[approach][op];
  return Math.ceil(model.perNode * nodes + model.perByte * bytes + model.fixedMB * MB);
}

/** The most nodes a run of approach and op (or the worker's check: approach 'check') may have in WASM at `bytes` of text. */
function limitNodes(wasmBudgetBytes, approach, op, bytes) {
  const model = approach === 'check' ? MODEL.check : MODEL[approach][op];
  return Math.max(0, Math.floor((wasmBudgetBytes - model.perByte * bytes - model.fixedMB * MB) / model.perNode));
}

/**
 * The service's limits: wasmBytes, the WASM memory the document runs in flight may take together, and maxNodes, the
 * most nodes a stored document may have: one with which the cheapest run fits alone whatever its text within
 * maxDocumentBytes, and the worker's check too, or maxNodesSetting (DOCUMENT_MAX_NODES) when that is lower and not 0.
 * wasmModule: the loaded module (its maximum and its size at start). The same figures for the same build, whatever
 * ran before.
 */
function memoryLimits(wasmModule, { maxDocumentBytes }, { maxNodesSetting = 0 } = {}) {
  const wasmBytes = wasmModule.maximumMemory - wasmModule.initialMemory - WASM_SPARE_BYTES;
  let best = 0;
  for (const approach of Object.keys(MODEL).filter((a) => a !== 'check')) {
    for (const op of OPS_MEASURED) best = Math.max(best, limitNodes(wasmBytes, approach, op, maxDocumentBytes));
  }
  const fits = Math.min(best, limitNodes(wasmBytes, 'check', null, maxDocumentBytes));
  return { wasmBytes, maxNodes: maxNodesSetting > 0 ? Math.min(fits, maxNodesSetting) : fits };
}

module.exports = { MODEL, JS_RUN, OPS_MEASURED, wasmNeeds, limitNodes, memoryLimits };
