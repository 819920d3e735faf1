'use strict';
// Writes text to an HTTP response (any Node Writable) honouring backpressure: a slow client holds the run at its
// next write instead of the service buffering the whole document for it. Node 14 syntax.
const { pieces } = require('./text-hash');

// One write's worth: large enough to keep the socket busy, small enough that encoding it is not a block.
const WRITE_CHARS = 1 << 16;

/**
 * Resolves once every piece of text was accepted by the writable (waiting for 'drain' whenever write() says so).
 * Rejects with signal.reason if the signal aborts meanwhile, or with an error if the writable closes first.
 */
async function writeText(writable, text, signal) {
  for (const piece of pieces(text, WRITE_CHARS)) {
    if (signal.aborted) throw signal.reason;
    if (!writable.write(piece)) await drained(writable, signal);
  }
}

function drained(writable, signal) {
  return new Promise((resolve, reject) => {
    const settle = (error) => {
      writable.removeListener('drain', onDrain);
      writable.removeListener('close', onClose);
      writable.removeListener('error', onError);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new Error('the response closed before the document was written'));
    const onError = (err) => settle(err);
    const onAbort = () => settle(signal.reason);
    writable.on('drain', onDrain);
    writable.on('close', onClose);
    writable.on('error', onError);
    signal.addEventListener('abort', onAbort);
  });
}

module.exports = { writeText };
