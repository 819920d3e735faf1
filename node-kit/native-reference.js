'use strict';
// The reference every run on a user's JSON document is checked against: the sha256 of native JSON.stringify's text
// of native JSON.parse's value (a parse run's value is serialized again to be compared with it). Taken once, when the
// document is stored, by the runtime's own JSON and never by an approach under test, so no approach checks itself;
// and in a process of its own, so the service's event loop keeps turning (JSON.parse of 64 MB of `{}` held it for
// seconds, issue 57) and its heap never holds the value. That process's heap is capped at the budget of document
// runs (document-memory.js): a value that does not fit there would not fit a run either, and it is that process that
// runs out of memory. Not a worker thread: a worker whose heap fills inside JSON.parse does not stop there, V8 ends
// the whole process (4 million `{}` under a 64 MB cap killed the service every time here; a million, one time in
// three). One process at a time: the next check waits for the one before. Node 14 syntax.
const path = require('path');
const { spawn } = require('child_process');
const { HttpError } = require('./errors');

const SCRIPT = path.join(__dirname, 'native-reference-process.js');
// The least heap the process is given: Node itself needs some (a cap of a few MB would fail any document).
const MIN_HEAP_MB = 64;
// What V8 prints when a heap reaches its limit.
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit/;

let queue = Promise.resolve();

/**
 * Resolves {hash, bytes} (bytes: the length of JSON.stringify's text) of the JSON document whose UTF-8 bytes are
 * `bytes` (a Buffer), or rejects with 413 when its value does not fit heapLimitBytes.
 */
function nativeReference(bytes, heapLimitBytes) {
  const run = queue.then(() => inProcess(bytes, heapLimitBytes));
  queue = run.then(() => undefined, () => undefined);
  return run;
}

function inProcess(bytes, heapLimitBytes) {
  const heapMb = Math.max(MIN_HEAP_MB, Math.floor(heapLimitBytes / 2 ** 20));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err = (err + chunk).slice(-4000)));
    child.on('error', reject);
    // A process that dies before it read it all leaves the rest unwritten: its exit says why.
    child.stdin.on('error', () => {});
    child.on('close', (code, signal) => {
      if (code === 0) {
        try {
          return resolve(JSON.parse(out));
        } catch (parseError) {
          return reject(new Error(`the native reference's process answered what is not JSON: ${out.slice(0, 200)}`));
        }
      }
      if (OUT_OF_MEMORY.test(err)) {
        return reject(new HttpError(413, `the document's value does not fit the ${Math.round(heapLimitBytes / 1e6)} MB of heap runs on users' documents may take here (DOCUMENT_MEMORY_BYTES)`, { limitBytes: heapLimitBytes }));
      }
      return reject(new Error(`the native reference's process exited (code ${code}, signal ${signal}) without an answer: ${err.slice(-500)}`));
    });
    child.stdin.end(bytes);
  });
}

module.exports = { nativeReference };
