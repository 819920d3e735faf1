'use strict';
// The worker approach's thread (transfer-worker.js starts it): a WASM module of its own that does an op's C++ work off
// the service's event loop. An op's JSON text arrives in pieces (strings, posted as the main thread makes them), is
// written into the module's input as UTF-8 here, and C++ builds its tree from it; what goes back is the typed layout
// the C++ writer made of that tree, copied out of WASM memory into one ArrayBuffer that is transferred, not cloned.
// Jobs run in the order their last message arrives; pieces are kept by job id, so ops of runs in flight together may
// interleave their pieces.
const { parentPort } = require('node:worker_threads');
const { loadWasmModule } = require('../wasm-module');
const { HEADER_WORDS, MAGIC } = require('./typed-layout');

/** Writes a job's text pieces into the module's input as UTF-8; returns the bytes written. */
function writeText(wasm, pieces) {
  let bytes = 0;
  for (const piece of pieces) bytes += Buffer.byteLength(piece, 'utf8');
  const start = wasm.exports.reserveInput(bytes);
  const heap = wasm.heapBuffer(); // after reserveInput, which may grow memory
  let at = start;
  for (const piece of pieces) at += heap.write(piece, at, 'utf8');
  return bytes;
}

/** The typed layout the last call wrote, its sections back to back in one ArrayBuffer (typed-sliced-reader.js reads it). */
function layoutCopy(wasm) {
  const words = wasm.heapWords();
  const header = wasm.exports.outputData() >>> 2;
  if (words[header] !== MAGIC) throw new Error('worker: the output has no typed header');
  const section = (addressWord, bytes) => wasm.heap().subarray(words[header + addressWord] >>> 0, (words[header + addressWord] >>> 0) + bytes);
  const tapeWords = words[header + 2];
  const stringCount = words[header + 3];
  const blobBytes = words[header + 6];
  const shapeWords = words[header + 8];
  const parts = [section(1, tapeWords * 4), section(4, stringCount * 4), section(7, shapeWords * 4), section(5, blobBytes)];
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return { buffer: out.buffer, tapeWords, stringCount, shapeWords, blobBytes, outBytes: HEADER_WORDS * 4 + out.length };
}

// Each job: (wasm, message, pieces) -> result. roundtrip and count read the text; create and createDocument the
// generator's case or a tree loaded with loadDocument. treeHash: the hash of the tree the op built (tree_walk.h),
// asked for by the run's last op (the validation, outside no timing: it is part of that op's time here).
const JOBS = {
  roundtrip(wasm, m, pieces) {
    const inBytes = writeText(wasm, pieces);
    wasm.check(wasm.exports.jsonTypedRoundTrip(inBytes), 'worker round trip');
    return Object.assign(layoutCopy(wasm), { inBytes });
  },
  count(wasm, m, pieces) {
    const inBytes = writeText(wasm, pieces);
    return { count: wasm.checkCount(wasm.exports.jsonCount(inBytes), 'worker count'), inBytes, outBytes: 0 };
  },
  create(wasm, m) {
    wasm.check(wasm.exports.typedCreate(m.caseName, m.seed), `worker create ${m.caseName}`);
    return Object.assign(layoutCopy(wasm), { inBytes: 0 });
  },
  createDocument(wasm, m) {
    wasm.check(wasm.exports.typedCreateDocument(m.tree), 'worker create document');
    return Object.assign(layoutCopy(wasm), { inBytes: 0 });
  },
  /** A user's document for createDocument: its MessagePack (the document worker's) read into a tree kept here. */
  loadDocument(wasm, m) {
    const { id, write } = wasm.beginDocument(m.bytes.byteLength);
    write(new Uint8Array(m.bytes), 0);
    while (!wasm.continueDocument(id, 2 ** 31, 2 ** 31));
    return { tree: id };
  },
  /** An op given up before its run (its text failed or the run was stopped): its pieces are dropped. */
  abandon() {
    return {};
  },
  dropDocument(wasm, m) {
    wasm.dropDocument(m.tree);
    wasm.releaseMemory();
    return {};
  },
  /** After a run on a user's document: its buffers and last tree given back, as the service's module gives its own. */
  releaseMemory(wasm) {
    wasm.releaseMemory();
    return {};
  },
};

loadWasmModule().then((wasm) => {
  const texts = new Map(); // job id -> its pieces so far
  parentPort.on('message', (m) => {
    if (m.piece !== undefined) {
      if (!texts.has(m.id)) texts.set(m.id, []);
      texts.get(m.id).push(m.piece);
      return;
    }
    const pieces = texts.get(m.id) || [];
    texts.delete(m.id);
    let answer;
    try {
      const result = JOBS[m.job](wasm, m, pieces);
      if (m.hashTree) result.treeHash = wasm.treeHash();
      answer = { id: m.id, result };
    } catch (err) {
      answer = { id: m.id, error: err.message };
    }
    answer.heapBytes = wasm.heapBytes();
    parentPort.postMessage(answer, answer.result && answer.result.buffer ? [answer.result.buffer] : []);
  });
  parentPort.postMessage({ ready: true });
}, (err) => {
  parentPort.postMessage({ failed: err.message });
});
