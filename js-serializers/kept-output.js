'use strict';
// What a stringify run keeps of its output until the run ends and the output is hashed (stringify-workload.js): the
// approach's chunks, joined as they come into strings of at least JOIN_CHARS characters. Node 14 syntax.
//
// Why joined: a chunk is a young string that stays alive until the hash, so every scavenge while the run goes on copies
// it, until it is promoted; a one-byte string past 128 KB is one of V8's large objects, which no collection copies.
// `fast` on npm's `next` record (21 MB, yieldMs 5), eight runs each way, alternating, beside a CPU hog: kept as they
// came, its chunks put up to 17.2 ms of the collector's pauses into its longest blocks (5.3-17.2 ms) on Node 24, up
// to 12.6 ms (5.5-12.6) on Node 14; joined into strings of 256 Ki characters, none (5.0-7.4 ms) and at most 1.9 ms
// (5.8-7.5). Those pauses were the lab's own check charged to the approach: a service that sends its output lets each
// chunk go once written, as body=1 does here. Joins of 1 Mi characters kept the pauses away as well, but each one's
// copy (fresh pages) added about a millisecond to the turn that made it.
// The join copies each character once, in the turn that completes the string; a chunk that is a string of JOIN_CHARS
// or more by itself (native's whole output) is kept as it is, uncopied.
const JOIN_CHARS = 1 << 18;

/**
 * A list of the output's chunks: add(chunk) in order, then take() -> the kept strings, whose concatenation is every
 * chunk added, each but the last of at least JOIN_CHARS characters; take() empties it. stats.joinedChars counts the
 * characters the joins copied.
 */
function createKeptOutput() {
  const kept = [];
  let pending = [];
  let pendingChars = 0;
  const stats = { joinedChars: 0 };
  const settle = () => {
    if (pending.length > 1) {
      kept.push(pending.join(''));
      stats.joinedChars += pendingChars;
    } else if (pending.length === 1) {
      kept.push(pending[0]);
    }
    pending = [];
    pendingChars = 0;
  };
  return {
    stats,
    add(chunk) {
      pending.push(chunk);
      pendingChars += chunk.length;
      if (pendingChars >= JOIN_CHARS) settle();
    },
    take() {
      settle();
      return kept.splice(0, kept.length);
    },
  };
}

module.exports = { createKeptOutput, JOIN_CHARS };
