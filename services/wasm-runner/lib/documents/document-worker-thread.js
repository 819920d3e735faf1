'use strict';
// The document worker's thread (document-worker.js starts it): a WASM module of its own, which does the whole-document
// work of wasm-runner off the service's event loop, one job at a time. Each job gets the document's UTF-8 bytes
// (transferred, not copied) and answers with the module's memory after it, so that the service can replace a worker
// whose memory a large document grew (WASM memory never shrinks).
const { parentPort } = require('node:worker_threads');
const { sha256 } = require('@lab/node-kit');
const { loadWasmModule } = require('../wasm-module');
const { countNodes } = require('../transfer/nodes');
const { findUncarried } = require('./uncarried');

// The text C++ reads is JSON.stringify's of the value JSON.parse makes of the document, not the user's: the
// approaches carry that value (one member per key, a large integer already a double), and every tree must be its tree.
const JOBS = {
  /**
   * The references of a document at upload (document-reference.js): {nodes} alone when it has more than maxNodes
   * (the store refuses it before C++ reads it), else {nodes, bytes, hash, tree, treeError, uncarried}: bytes and hash
   * of the canonical text, the hash of the C++ tree yyjson builds from it (null when C++ cannot read it, treeError
   * saying why), what an approach cannot carry (uncarried.js).
   */
  reference(wasm, text, { maxNodes }) {
    const value = JSON.parse(text);
    const nodes = countNodes(value);
    if (nodes > maxNodes) return { nodes };
    const canonical = JSON.stringify(value);
    let tree = null;
    let treeError = null;
    try {
      const id = wasm.loadDocument(canonical);
      try {
        tree = wasm.documentTreeHash(id);
      } finally {
        wasm.dropDocument(id);
      }
    } catch (err) {
      treeError = err.message;
    }
    return { nodes, bytes: Buffer.byteLength(canonical), hash: sha256(canonical), tree, treeError, uncarried: findUncarried(value) };
  },

  /** The C++ tree of a document as MessagePack bytes, for the service's module to build create's tree from (document-tree.js). */
  msgpack(wasm, text) {
    const id = wasm.loadDocument(JSON.stringify(JSON.parse(text)));
    try {
      return wasm.documentMsgpack(id);
    } finally {
      wasm.dropDocument(id);
    }
  },
};

loadWasmModule().then((wasm) => {
  parentPort.on('message', ({ id, job, bytes, options }) => {
    let answer;
    try {
      const result = JOBS[job](wasm, Buffer.from(bytes).toString('utf8'), options);
      answer = { id, result };
    } catch (err) {
      answer = { id, error: err.message };
    } finally {
      wasm.releaseMemory();
    }
    answer.heapBytes = wasm.heapBytes();
    const transfer = answer.result instanceof Uint8Array ? [answer.result.buffer] : [];
    parentPort.postMessage(answer, transfer);
  });
  parentPort.postMessage({ ready: true });
}, (err) => {
  parentPort.postMessage({ failed: err.message });
});
