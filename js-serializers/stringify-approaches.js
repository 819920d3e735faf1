'use strict';
// The stringify approaches behind one shape, so that the workload times, checks and streams them all the same way:
//
//   approach(value, {yieldMs, signal, stats}) -> AsyncIterable<string>
//
// The chunks concatenate to the approach's JSON text. stats.yields counts the turns given to the event loop (null
// where a library does not say). An approach that can stop rejects at its next yield once the signal is aborted;
// one that cannot (native, yieldable-json) runs to its end and the workload reports how far past the deadline that
// was. Third-party libraries are passed in by the service, which pins their versions. Node 14 syntax.
const fast = require('./fast-stringify');
const { asyncStringify } = require('./async-stringify');
const { nextTurn } = require('@lab/loop-kit/event-loop');
const { oneAtATime } = require('./one-at-a-time');

/** Native JSON.stringify: one synchronous call, one chunk. The baseline, and the block everyone else avoids. */
async function* native(value, { stats }) {
  stats.yields = 0;
  const text = JSON.stringify(value);
  if (text !== undefined) yield text;
}

/** Adapts a serializer that resolves to {text} (fibers-to-async's async/await walk, node-fibers) to the chunk shape. */
function fromWholeText(serialize) {
  return async function* wholeText(value, options) {
    options.stats.yields = 0;
    const { text } = await serialize(value, options);
    if (text !== undefined) yield text;
  };
}

/** The fibers-to-async experiment's async/await serializer (async-stringify.js). */
const originalAsync = fromWholeText(asyncStringify);

/** The lab's own non-blocking serializer (fast-stringify.js), streamed chunk by chunk. */
function fastChunks(value, { yieldMs, signal, stats }) {
  return fast.chunks(value, { yieldMs, signal, stats });
}

/**
 * yieldable-json's stringifyAsync: it yields on its own schedule and has no way to be stopped or to report yields. It
 * keeps its state in module globals, so that two calls at once break each other ("Circular Structure Detected"): its
 * admit(), which the workload calls before the timed section, waits for its turn.
 */
function yieldable(yieldableJson) {
  const turns = oneAtATime();
  const stringifyAsync = (value) =>
    new Promise((resolve, reject) => yieldableJson.stringifyAsync(value, (err, text) => (err ? reject(err) : resolve(text))));
  async function* yieldableJsonChunks(value, { stats }) {
    stats.yields = null;
    const text = await stringifyAsync(value);
    if (text !== undefined) yield text;
  }
  yieldableJsonChunks.admit = ({ signal }) => turns.take(signal);
  return yieldableJsonChunks;
}

/**
 * @discoveryjs/json-ext's stringifyChunked, a synchronous generator of ~16 KB chunks: this driver takes chunks for
 * yieldMs, then gives the event loop a turn, checking the signal there.
 */
function jsonExt(jsonExtLibrary) {
  return async function* jsonExtChunks(value, { yieldMs, signal, stats }) {
    stats.yields = 0;
    let sliceStart = Date.now();
    for (const chunk of jsonExtLibrary.stringifyChunked(value)) {
      yield chunk;
      if (Date.now() - sliceStart >= yieldMs) {
        await nextTurn();
        stats.yields++;
        if (signal && signal.aborted) throw signal.reason;
        sliceStart = Date.now();
      }
    }
  };
}

module.exports = { native, originalAsync, fastChunks, fromWholeText, yieldable, jsonExt };
