'use strict';
// A worker thread with a WASM module of its own, answering jobs by id: the one protocol of the service's two such
// threads (documents/document-worker.js, transfer/transfer-worker.js). The thread posts {ready} once its module
// loaded, or {failed: reason}; then {id, result | error, heapBytes} for each job. What to do with a thread that grew
// (recycle it, keep it for a tree it holds) is each client's policy, given as afterAnswer.
const { Worker } = require('node:worker_threads');

/**
 * Starts the thread of file. Returns {thread, pending: Map<id, waiting | null>, ready: Promise}: a client puts
 * {resolve, reject, …} under a job's id before posting it (null while it only reserves the id). Each answer takes its
 * entry out of pending, calls afterAnswer(message, waiting) and settles it. An error or an exit of the thread rejects
 * ready and every entry waiting, clears pending and calls onGone().
 */
function startModuleThread(file, { name, afterAnswer = () => {}, onGone = () => {} }) {
  const thread = new Worker(file);
  const pending = new Map();
  const failAll = (err) => {
    for (const waiting of pending.values()) if (waiting !== null) waiting.reject(err);
    pending.clear();
    onGone();
  };
  const ready = new Promise((resolve, reject) => {
    thread.on('message', (message) => {
      if (message.ready) return resolve();
      if (message.failed) return reject(new Error(`the ${name} could not load its module: ${message.failed}`));
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      afterAnswer(message, waiting);
      if (message.error !== undefined) waiting.reject(new Error(message.error));
      else waiting.resolve(message.result);
    });
    thread.on('error', (err) => {
      reject(err);
      failAll(err);
    });
    thread.on('exit', (code) => {
      const err = new Error(`the ${name} stopped (exit code ${code})`);
      reject(err);
      failAll(err);
    });
  });
  return { thread, pending, ready };
}

module.exports = { startModuleThread };
