'use strict';
// The values of users' documents for runs that carry one (roundtrip, count): parsed by the lab's fast-parse, which
// yields to the event loop every yieldMs (a 64 MB document held it for about a second through JSON.parse), shared by
// the runs in flight on the same document and dropped when the last of them ends. Not kept beyond them, unlike
// js-serializers' last parsed value: a value can cost 66 bytes a node (an empty object), and memory-model.js counts
// each run's value for as long as the run lasts, which a value kept after it would escape.
const fastParse = require('@lab/js-serializers/fast-parse');

function createDocumentValues() {
  const parsed = new Map(); // sha256 -> {value: Promise, holds}

  return {
    /** {value: a promise of the document's value, release()} for a run; held: the store's held document. */
    hold(held, yieldMs) {
      let entry = parsed.get(held.sha256);
      if (!entry) {
        entry = { value: fastParse.parse(held.text, { yieldMs }), holds: 0 };
        parsed.set(held.sha256, entry);
      }
      entry.holds++;
      let released = false;
      return {
        value: entry.value,
        release() {
          if (released) return;
          released = true;
          if (--entry.holds === 0 && parsed.get(held.sha256) === entry) parsed.delete(held.sha256);
        },
      };
    },
    /** How many documents have a value now (the tests check that none outlives its runs). */
    size: () => parsed.size,
  };
}

module.exports = { createDocumentValues };
