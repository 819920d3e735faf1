'use strict';
// The worker approach's thread, from the service's side: started on the first op, shared by the runs in flight (its
// jobs run one at a time, in the order they end), replaced after one that failed it (a WASM abort ends the thread) or
// that grew its memory past RECYCLE_HEAP_BYTES (WASM memory never shrinks). It holds the process open only while a job
// is pending, so a test or a service that is done exits without closing it. Never replaced while it keeps a user's
// document tree (loadDocument until dropDocument): a run's create ops need that tree in that thread.
const path = require('node:path');
const { startModuleThread } = require('../module-thread');

const RECYCLE_HEAP_BYTES = 512 * 1024 * 1024;
const THREAD = path.join(__dirname, 'transfer-worker-thread.js');

function createTransferWorker() {
  let current = null; // startModuleThread's {thread, ready, pending}, and keptTrees
  let nextId = 0;

  function start() {
    const worker = startModuleThread(THREAD, {
      name: 'transfer worker',
      afterAnswer(message, waiting) {
        if (message.error === undefined && waiting.job === 'loadDocument') worker.keptTrees++;
        if (waiting.job === 'dropDocument') worker.keptTrees--;
        if (worker.pending.size === 0) worker.thread.unref();
        if (message.heapBytes > RECYCLE_HEAP_BYTES && current === worker && worker.pending.size === 0 && worker.keptTrees === 0) {
          current = null;
          worker.thread.terminate();
        }
      },
      onGone() {
        if (current === worker) current = null;
      },
    });
    worker.keptTrees = 0;
    worker.thread.unref();
    return worker;
  }

  /**
   * A job: {post(piece), run(message, transfer) -> Promise<result>}. post() hands a piece of the op's text over at once
   * (the string is copied: a piece is short); run() sends the op and resolves the thread's answer.
   */
  function open() {
    if (current === null) current = start();
    const worker = current;
    const id = ++nextId;
    worker.pending.set(id, null); // the thread stays referenced from the first piece
    worker.thread.ref();
    return {
      post(piece) {
        worker.thread.postMessage({ id, piece });
      },
      async run(message, transfer = []) {
        await worker.ready;
        return new Promise((resolve, reject) => {
          if (!worker.pending.has(id)) return reject(new Error('the transfer worker stopped'));
          worker.pending.set(id, { resolve, reject, job: message.job });
          worker.thread.postMessage(Object.assign({ id }, message), transfer);
        });
      },
    };
  }

  return { open, heldOpen: () => current !== null && current.pending.size > 0 };
}

module.exports = { createTransferWorker, RECYCLE_HEAP_BYTES };
