'use strict';
// What users' documents may take of a Node service's heap, so that runs on them are admitted by what they will hold,
// never found out by V8's "heap out of memory" (issue 57: four parses of a stored 64 MiB `[{},{},…]` took
// node14-fibers down, and every stored document with it). Two parts:
// - valueBytes: an upper bound of the heap a JSON document's value takes, from the counts of its one reading
//   (json-text-scan.js). Per value, measured with JSON.parse and the lab's fast-parse on Node 14 and 24 (retained
//   heap after two full collections, a million of each; document-memory.test.js holds the bound on both lines):
//   `[{}]` 64 bytes an object, `[[]]` 40 an array, a member whose key makes a new hidden class (every object with
//   keys of its own) up to 200 with its object and value, a dictionary's member 91, a short string 49 (its
//   string-table entry on Node 14), a number or literal 8 (a double inside an object 24). Text counts twice its bytes
//   (a string with one character past Latin-1 is stored in two bytes a character).
// - a budget: the bytes document runs may reserve at once, DOCUMENT_MEMORY_BYTES, by default RUN_SHARE of the heap
//   limit. The rest is the service's own: its generated inputs' caches (two 20 000-record documents, ~0.6 GB) and the
//   runs on them, the store's texts, the runtime. A reservation past what is left is refused with 503 and Retry-After
//   (after the caches that can let go did), one past the whole budget with 413: no wait would make room for it.
// Node 14 syntax.
const v8 = require('v8');
const { HttpError, busy } = require('./errors');

const COSTS = { container: 64, member: 128, string: 48, scalar: 24, textByte: 2 };
// The most nodes of the cheapest kind (a number and its comma) a budget holds: /info's maxNodes.
const CHEAPEST_NODE_BYTES = COSTS.scalar + 2 * COSTS.textByte;
const RUN_SHARE = 0.6;

/** Bytes of heap a document's value takes at most: counts (json-text-scan.js') and the text's UTF-8 bytes. */
function valueBytes({ counts, bytes }) {
  return COSTS.container * (counts.objects + counts.arrays) + COSTS.member * counts.members + COSTS.string * counts.strings + COSTS.scalar * counts.scalars + COSTS.textByte * bytes;
}

/** DOCUMENT_MEMORY_BYTES, read through envInteger (0: RUN_SHARE of this process's heap limit). */
function memorySetting(envInteger) {
  const set = envInteger('DOCUMENT_MEMORY_BYTES', 0);
  return set > 0 ? set : Math.floor(v8.getHeapStatistics().heap_size_limit * RUN_SHARE);
}

const mb = (bytes) => `${Math.round(bytes / 1e6)} MB`;

/**
 * The budget of limitBytes. reserve(bytes, what) -> release(): a reservation held until released (releasing twice is
 * harmless); throws 413 ({limitBytes}) when bytes exceed the whole budget, 503 when the reservations held leave no
 * room once every evictor (onPressure: a cache that can drop what no run holds, returning whether it did) was asked.
 */
function createMemoryBudget(limitBytes) {
  let reservedBytes = 0;
  const evictors = [];
  const room = () => limitBytes - reservedBytes;
  return {
    limitBytes,
    maxNodes: Math.floor(limitBytes / CHEAPEST_NODE_BYTES),
    reservedBytes: () => reservedBytes,
    onPressure(evict) {
      evictors.push(evict);
    },
    reserve(bytes, what) {
      if (bytes > limitBytes) {
        throw new HttpError(413, `${what} takes about ${mb(bytes)} of this service's heap; runs on users' documents may take ${mb(limitBytes)} (DOCUMENT_MEMORY_BYTES)`, { limitBytes });
      }
      for (const evict of evictors) {
        if (bytes <= room()) break;
        evict();
      }
      if (bytes > room()) {
        throw busy(`${what} takes about ${mb(bytes)} of this service's heap, and the runs in progress hold ${mb(reservedBytes)} of the ${mb(limitBytes)} users' documents may take; retry when they end`, { limitBytes });
      }
      reservedBytes += bytes;
      let released = false;
      return () => {
        if (!released) reservedBytes -= bytes;
        released = true;
      };
    },
  };
}

module.exports = { valueBytes, memorySetting, createMemoryBudget, COSTS };
