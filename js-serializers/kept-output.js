'use strict';
// What a stringify run keeps of its output until the run ends and the output is hashed (stringify-workload.js): its
// UTF-8 bytes, written as the chunks come into a buffer outside V8's heap, which the next run reuses. Node 14 syntax.
//
// Why bytes, and why outside the heap: a service that sends its output lets each chunk go once written (as body=1
// does here); the lab keeps it until the hash, and what it keeps must not cost the approach anything the service
// would not pay.
// - Chunks kept as they came were young strings alive for the whole run: every scavenge copied them. `fast` on npm's
//   `next` record (21 MB, yieldMs 5) beside a CPU hog: up to 17.2 ms of the collector's pauses in its longest blocks
//   (Node 24), 12.6 ms (Node 14).
// - Joined into strings of 256 Ki characters (V8's large objects, which no collection copies), they still grew the old
//   generation by the output's size every run, and the mark-compacts that growth brings fell in the approaches' turns:
//   16 runs of `fast` on `next` back to back, 3 mark-compacts (pauses of 7.5-17.3 ms) against 1 with the bytes here (the
//   first run's, the heap growing to the document's value). Under `make try` on `next`, node-async's `fast` stringify
//   had median-round blocks of 18.6-26.5 ms, all of them the collector's, in two runs of three before; 6.7-7.9 ms in
//   the four runs after, at most 1.0 ms of it the collector's (node14-fibers': 8.5-9.9 ms, at most 1.5).
// - The writes cost less than the joins did: 4.4-4.9 ms for `next`'s 19.7 MB into a buffer written before (its pages
//   already mapped), against 13.8-25 ms for the joins' copies into fresh pages. Hence the buffers are kept for the next
//   run (at most MAX_FREE of them, each at most MAX_KEPT_BYTES).
const { createPairJoiner } = require('./text-hash');

const MIN_BYTES = 1 << 20;
const MAX_FREE = 2;
const MAX_KEPT_BYTES = 64 << 20;
// The most bytes one character takes in UTF-8 (a surrogate pair's). A write that left at least this much room unwritten
// wrote its whole text: Buffer#write stops only at a character that does not fit.
const MAX_CHARACTER_BYTES = 4;

const free = []; // buffers released by earlier runs, for the next ones

/**
 * A run's output: add(chunk) in order, then take() -> a Buffer of the UTF-8 bytes of every chunk added (a view of the
 * run's buffer, valid until release()), then release(), which hands the buffer on to a later run. A surrogate pair
 * split between two chunks is encoded whole. stats: {bytes, grownBytes (bytes copied when the buffer grew)}.
 */
function createKeptOutput() {
  let buffer = free.pop() || null;
  let length = 0;
  const pairs = createPairJoiner();
  const stats = { bytes: 0, grownBytes: 0 };

  const ensure = (need) => {
    if (buffer !== null && buffer.length >= need) return;
    const next = Buffer.allocUnsafeSlow(Math.max(need, MIN_BYTES, buffer === null ? 0 : 2 * buffer.length));
    if (buffer !== null) {
      buffer.copy(next, 0, 0, length);
      stats.grownBytes += length;
    }
    buffer = next;
  };

  const write = (text) => {
    ensure(length + text.length + MAX_CHARACTER_BYTES);
    const written = buffer.write(text, length, 'utf8');
    if (buffer.length - length - written < MAX_CHARACTER_BYTES) {
      // Perhaps cut short: room for what it takes exactly, and again.
      ensure(length + Buffer.byteLength(text, 'utf8') + MAX_CHARACTER_BYTES);
      length += buffer.write(text, length, 'utf8');
    } else {
      length += written;
    }
  };

  return {
    stats,
    add(chunk) {
      const text = pairs.whole(chunk);
      if (text.length > 0) write(text);
    },
    take() {
      const rest = pairs.rest();
      if (rest !== '') write(rest); // a lone high surrogate: U+FFFD's bytes, as any UTF-8 encoding of the text gives
      stats.bytes = length;
      return buffer === null ? Buffer.alloc(0) : buffer.subarray(0, length);
    },
    release() {
      if (buffer !== null && buffer.length <= MAX_KEPT_BYTES && free.length < MAX_FREE) free.push(buffer);
      buffer = null;
      length = 0;
    },
  };
}

module.exports = { createKeptOutput, MAX_FREE, MAX_KEPT_BYTES };
