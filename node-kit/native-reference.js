'use strict';
// The reference every run on a user's JSON document is checked against: the sha256 of native JSON.stringify's text
// of native JSON.parse's value (a parse run's value is serialized again to be compared with it). Taken once, when the
// document is stored, by the runtime's own JSON and never by an approach under test, so no approach checks itself;
// and in a worker thread, so the service's event loop keeps turning (JSON.parse of 64 MB of `{}` held it for
// seconds, issue 57) and its heap never holds the value. The worker's heap is capped at the budget of document runs
// (document-memory.js): a value that does not fit there would not fit a run either, and the worker, not the service,
// runs out of memory. One worker at a time: the next check waits for the one before. Node 14 syntax.
const path = require('path');
const { Worker } = require('worker_threads');
const { HttpError } = require('./errors');

const WORKER = path.join(__dirname, 'native-reference-worker.js');

let queue = Promise.resolve();

/**
 * Resolves {hash, bytes} (bytes: the length of JSON.stringify's text) of the JSON document whose UTF-8 bytes are
 * `bytes` (a Buffer, handed to the worker: it is not usable here afterwards), or rejects with 413 when its value does
 * not fit heapLimitBytes.
 */
function nativeReference(bytes, heapLimitBytes) {
  const run = queue.then(() => inWorker(bytes, heapLimitBytes));
  queue = run.then(() => undefined, () => undefined);
  return run;
}

function inWorker(bytes, heapLimitBytes) {
  // The whole buffer moves to the worker when it owns its memory alone; a slice of a shared one is copied.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const view = own ? new Uint8Array(bytes.buffer) : Uint8Array.from(bytes);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: { bytes: view },
      transferList: [view.buffer],
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.floor(heapLimitBytes / 2 ** 20)) },
    });
    let answer = null;
    worker.once('message', (message) => {
      answer = message;
    });
    worker.once('error', (error) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        reject(new HttpError(413, `the document's value does not fit the ${Math.round(heapLimitBytes / 1e6)} MB of heap runs on users' documents may take here (DOCUMENT_MEMORY_BYTES)`, { limitBytes: heapLimitBytes }));
      } else {
        reject(error);
      }
    });
    worker.once('exit', (code) => {
      if (answer !== null) resolve(answer);
      else reject(new Error(`the native reference's worker exited (code ${code}) without an answer`));
    });
  });
}

module.exports = { nativeReference };
