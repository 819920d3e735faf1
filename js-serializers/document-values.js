'use strict';
// The value of the user's document parsed last, and what a run on a stored document may hold of the service's heap
// (node-kit/document-memory.js' budget, which every document run reserves from before it starts: 503 while the runs
// in flight leave no room, never V8's "heap out of memory"). The store keeps texts only, and a try suite's stringify
// runs on one document come in a row, so one parse serves them all while memory holds one value, not one per stored
// document; the budget may take the value back whenever no run holds it. Node 14 syntax.
const fastParse = require('./fast-parse');
const { valueBytes } = require('@lab/node-kit/document-memory');

/** A reservation of bytes in memory (a budget, or null: nothing to count), released by the returned function. */
const reserve = (memory, bytes, what) => (memory ? memory.reserve(bytes, what) : () => {});

/** The heap a held document's value takes, as document-memory.js models it. */
const valueBytesOf = (held) => valueBytes({ counts: held.check.counts, bytes: held.bytes });

/** The heap a held JSON document's text takes as JSON.stringify writes it: its UTF-8 bytes, two a character at most. */
const outputBytesOf = (held) => 2 * held.reference.bytes;

/**
 * The cache of one document value in memory (a budget, or null). lease(held, yieldMs) resolves {value, release}: the
 * value parsed by fast-parse (which yields every yieldMs: a 20 MB document is 100-300 ms of parsing, which must not
 * stall the service before its run starts), kept until another document's replaces it once no run holds it. A
 * document whose value another run's cached one keeps out is parsed for its run alone.
 */
function createValueCache(memory) {
  let cached = null; // {sha256, value: Promise, leases, release}
  const drop = () => {
    if (cached === null || cached.leases > 0) return false;
    cached.release();
    cached = null;
    return true;
  };
  if (memory) memory.onPressure(drop);

  const parsed = (held, yieldMs) => {
    const release = reserve(memory, valueBytesOf(held), 'the value of the stored document');
    const value = fastParse.parse(held.text, { yieldMs });
    value.catch(release);
    return { sha256: held.sha256, value, leases: 0, release };
  };

  return {
    async lease(held, yieldMs) {
      if (cached === null || (cached.sha256 !== held.sha256 && drop())) cached = parsed(held, yieldMs);
      const entry = cached.sha256 === held.sha256 ? cached : parsed(held, yieldMs);
      entry.leases++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        entry.leases--;
        if (entry !== cached && entry.leases === 0) entry.release();
      };
      try {
        return { value: await entry.value, release };
      } catch (err) {
        release();
        if (cached === entry) {
          cached = null;
          entry.release();
        }
        throw err;
      }
    },
  };
}

module.exports = { createValueCache, reserve, valueBytesOf, outputBytesOf };
