'use strict';
// The parse approaches behind one shape, so that the workload times and checks them all the same way:
//
//   approach(text, {yieldMs, signal, stats}) -> Promise<value>
//
// stats.yields counts the turns given to the event loop (null where a library does not say). An approach that can
// stop rejects at its next yield once the signal is aborted; native and yieldable-json cannot. Third-party libraries
// are passed in by the service, which pins their versions. Node 14 syntax.
const fastParse = require('./fast-parse');
const { badRequest } = require('@lab/node-kit/errors');
const { oneAtATime } = require('./one-at-a-time');
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

// yieldable-json's parse rebuilds a string at each of its escapes, work quadratic in a string's escapes that no
// timeoutMs stops (a 720 KB escaped string took 67 s; 33 MB held a core for over 20 minutes): it is refused a document
// past this many characters copied (json-text-scan.js' escapeWork), which it copies at 1.5-5 per ns here, a second or
// two at most.
const YIELDABLE_MAX_ESCAPE_WORK = 2e9;

/**
 * yieldable-json's parseAsync (default intensity): no way to stop it or to learn how often it yielded. Its admit(),
 * which the workload calls before the timed section, refuses a stored document whose escapes it could not get
 * through (400 naming the approaches that can), then waits for its turn: the library keeps its place in the text in
 * a global (utils/index-of-generator.js assigns `chunk` undeclared), so two parses at once break each other ("Bad
 * object"), and its runs take turns.
 */
function yieldable(yieldableJson) {
  const turns = oneAtATime();
  function yieldableParse(text, { stats }) {
    stats.yields = null;
    return new Promise((resolve, reject) => yieldableJson.parseAsync(text, (err, value) => (err ? reject(err) : resolve(value))));
  }
  yieldableParse.admit = ({ check, signal, allowed }) => {
    if (check && check.escapeWork > YIELDABLE_MAX_ESCAPE_WORK) {
      throw badRequest(`yieldable cannot finish this document: it rebuilds a string at each of its escapes, ${check.escapeWork} characters copied here, and is given at most ${YIELDABLE_MAX_ESCAPE_WORK} (it cannot be stopped); ${allowed.join(', ')} can`, { parameter: 'approach', allowed });
    }
    return turns.take(signal);
  };
  return yieldableParse;
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

module.exports = { native, fast, yieldable, jsonExt, YIELDABLE_MAX_ESCAPE_WORK };
