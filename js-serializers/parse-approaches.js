'use strict';
// The parse approaches behind one shape, so that the workload times and checks them all the same way:
//
//   approach(text, {yieldMs, signal, stats}) -> Promise<value>
//
// stats.yields counts the turns given to the event loop (null where a library does not say). An approach that can
// stop rejects at its next yield once the signal is aborted; native and yieldable-json cannot. Third-party libraries
// are passed in by the service, which pins their versions. Node 14 syntax.
const fastParse = require('./fast-parse');
const { nextTurn } = require('@lab/loop-kit/event-loop');
const { pieces } = require('./text-hash');

/** Native JSON.parse: one synchronous call. */
async function native(text, { stats }) {
  stats.yields = 0;
  return JSON.parse(text);
}

/** The lab's own non-blocking parser (fast-parse.js). */
function fast(text, { yieldMs, signal, stats }) {
  return fastParse.parse(text, { yieldMs, signal, stats });
}

/** yieldable-json's parseAsync (default intensity): no way to stop it or to learn how often it yielded. */
function yieldable(yieldableJson) {
  return function yieldableParse(text, { stats }) {
    stats.yields = null;
    return new Promise((resolve, reject) => yieldableJson.parseAsync(text, (err, value) => (err ? reject(err) : resolve(value))));
  };
}

// json-ext is fed slices of the text of this many characters.
const JSON_EXT_CHUNK_CHARS = 1 << 16;

/**
 * @discoveryjs/json-ext's parseChunked, fed the text in 64 Ki-character slices by an async generator that gives the
 * event loop a turn (and checks the signal) whenever yieldMs passed: parseChunked itself only awaits its input, and
 * a resolved promise lets no timer run.
 */
function jsonExt(jsonExtLibrary) {
  return function jsonExtParse(text, { yieldMs, signal, stats }) {
    stats.yields = 0;
    async function* slices() {
      let sliceStart = Date.now();
      for (const piece of pieces(text, JSON_EXT_CHUNK_CHARS)) {
        yield piece;
        if (Date.now() - sliceStart >= yieldMs) {
          await nextTurn();
          stats.yields++;
          if (signal && signal.aborted) throw signal.reason;
          sliceStart = Date.now();
        }
      }
    }
    return jsonExtLibrary.parseChunked(slices);
  };
}

module.exports = { native, fast, yieldable, jsonExt };
