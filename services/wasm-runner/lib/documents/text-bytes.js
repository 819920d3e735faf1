'use strict';
// A document's text as UTF-8 bytes in a buffer of its own, made in slices (loop-kit's slice loop), so that handing a
// 64 MB document to the document worker never holds the event loop: Buffer.from(text) of 64 MB is one block of tens
// of milliseconds, and a structured clone of the string as long. The buffer's memory can then be transferred to the
// worker, not copied.
const { performance } = require('node:perf_hooks');
const { runSlices } = require('@lab/loop-kit/slices');
const { pieces } = require('@lab/js-serializers/text-hash');

// Characters encoded in one step: about a millisecond's work at the slowest (two-byte text), well under here.
const PIECE_CHARS = 1 << 20;

/** Runs work() -> done (one piece) in slices of about yieldMs, at most maxPieces pieces a slice. */
function inSlices(work, { yieldMs, maxPieces, stats }) {
  return runSlices((deadline) => {
    let done;
    let count = 0;
    do {
      done = work();
      count++;
    } while (!done && count < maxPieces && performance.now() < deadline);
    stats.maxSlicePieces = Math.max(stats.maxSlicePieces, count);
    return done;
  }, { yieldMs, stats });
}

/**
 * Resolves a Buffer of text's UTF-8 whose ArrayBuffer is its own (transferable). Two passes of pieces that never split
 * a surrogate pair: their lengths, then the bytes. stats (optional) gets `yields` and `maxSlicePieces`.
 */
async function utf8InSlices(text, { yieldMs = 5, stats = {} } = {}) {
  stats.yields = 0;
  stats.maxSlicePieces = 0;
  // A slice encodes at most about yieldMs of pieces at a rate above this machine's (1 GB/s of one-byte text).
  const options = { yieldMs, maxPieces: Math.max(1, Math.ceil(yieldMs)), stats };
  const parts = [];
  let total = 0;
  const lengths = pieces(text, PIECE_CHARS);
  await inSlices(() => {
    const next = lengths.next();
    if (next.done) return true;
    const bytes = Buffer.byteLength(next.value, 'utf8');
    parts.push({ text: next.value, at: total });
    total += bytes;
    return false;
  }, options);
  const buffer = Buffer.from(new ArrayBuffer(total));
  let index = 0;
  await inSlices(() => {
    if (index === parts.length) return true;
    const part = parts[index++];
    buffer.write(part.text, part.at, 'utf8');
    return index === parts.length;
  }, options);
  return buffer;
}

module.exports = { utf8InSlices, PIECE_CHARS };
