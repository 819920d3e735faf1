'use strict';
// The service's document worker: a worker thread with a WASM module of its own (document-worker-thread.js) that does
// what costs a pass over a whole document, off the event loop: the references at upload, the MessagePack bytes create's
// tree is built from. One job at a time, in the order asked (a second waits for the first; each holds a document's
// value and tree, and two at once would need twice the memory). The text goes over as UTF-8 bytes made in slices
// (text-bytes.js) and transferred. Started on the first job; replaced after a job that grew its WASM memory past
// RECYCLE_HEAP_BYTES (it never shrinks: a 64 MB document leaves 1-2 GB of it); terminated by close().
const path = require('node:path');
const { startModuleThread } = require('../module-thread');
const { utf8InSlices } = require('./text-bytes');

// The module's memory at start is 16 MB; a document of a few MB leaves it under this, and the worker is kept.
const RECYCLE_HEAP_BYTES = 256 * 1024 * 1024;
const THREAD = path.join(__dirname, 'document-worker-thread.js');

function createDocumentWorker({ yieldMs = 5 } = {}) {
  let worker = null; // startModuleThread's {thread, ready, pending}
  let nextId = 0;
  let queue = Promise.resolve();
  let closed = false;

  function start() {
    const current = startModuleThread(THREAD, {
      name: 'document worker',
      afterAnswer(message) {
        if (message.heapBytes > RECYCLE_HEAP_BYTES && worker === current) {
          worker = null;
          current.thread.terminate();
        }
      },
      onGone() {
        if (worker === current) worker = null;
      },
    });
    return current;
  }

  async function send(job, text, options) {
    if (closed) throw new Error('the document worker is closed');
    const bytes = await utf8InSlices(text, { yieldMs });
    if (closed) throw new Error('the document worker is closed');
    if (worker === null) worker = start();
    const current = worker;
    await current.ready;
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      current.pending.set(id, { resolve, reject });
      current.thread.postMessage({ id, job, bytes: bytes.buffer, options }, [bytes.buffer]);
    });
  }

  /** Runs a job after the ones asked before it, whatever became of them. */
  function inTurn(job, text, options) {
    const result = queue.then(() => send(job, text, options));
    queue = result.catch(() => {});
    return result;
  }

  return {
    /** document-worker-thread.js' reference job: a promise of {nodes} or {nodes, bytes, hash, tree, treeError, uncarried}. */
    reference: (text, { maxNodes }) => inTurn('reference', text, { maxNodes }),
    /** A promise of the MessagePack bytes (Uint8Array) of the C++ tree of the document's canonical text. */
    msgpack: (text) => inTurn('msgpack', text, {}),
    /** Terminates the thread; jobs still waiting reject. */
    async close() {
      closed = true;
      if (worker !== null) {
        const { thread } = worker;
        worker = null;
        await thread.terminate();
      }
    },
  };
}

module.exports = { createDocumentWorker, RECYCLE_HEAP_BYTES };
