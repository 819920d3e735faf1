'use strict';
// Writes text to an HTTP response (any Node Writable) honouring backpressure: a slow client holds the run at its
// next write instead of the service buffering the whole document for it. Node 14 syntax.
const { pieces } = require('./text-hash');

// One write's worth: large enough to keep the socket busy, small enough that encoding it is not a block.
const WRITE_CHARS = 1 << 16;

/**
 * Resolves once every piece of text was accepted by the writable (waiting for 'drain' whenever write() says so).
 * Rejects with signal.reason if the signal aborts meanwhile, or with an error if the writable closes first. A client
 * that reads nothing for stalledMs (0: no limit) is cut: the writable is destroyed, so its run ends as the client's.
 */
async function writeText(writable, text, signal, stalledMs = 0) {
  for (const piece of pieces(text, WRITE_CHARS)) {
    if (signal.aborted) throw signal.reason;
    if (!writable.write(piece)) await drained(writable, signal, stalledMs);
  }
}

function drained(writable, signal, stalledMs) {
  return new Promise((resolve, reject) => {
    // Destroying closes the writable: its 'close' (below, and the client watch of the service) ends the wait.
    const stall = stalledMs > 0 ? setTimeout(() => writable.destroy(), stalledMs) : null;
    const settle = (error) => {
      if (stall !== null) clearTimeout(stall);
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
