'use strict';
// An example serializer plugin (plugins/README.md): stringify walks a top-level array in slices, each element written
// by native JSON.stringify, and gives the event loop a turn with setImmediate between slices; parse is JSON.parse
// after one turn. Both stop at their next turn once the signal is aborted. Plain CommonJS in Node 14's syntax: both
// Node services load it (node14-fibers on Node 14, node-async on Node 24). No dependencies.

// How many elements are written between two looks at the clock.
const CLOCK_EVERY = 64;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function stopIfAborted(signal) {
  if (signal.aborted) throw signal.reason;
}

/**
 * What native JSON.stringify writes for element `index` of `list`. The element goes through native in a one-key
 * holder, so native does all of it as it would inside the array: reads the element once (a getter runs once), calls
 * its toJSON with the index as a string, leaves a toJSON result's own toJSON alone, finds cycles back to the array.
 * An element that native leaves out of an object (undefined, a function, a symbol) is null in an array.
 */
function elementText(list, index) {
  const key = String(index);
  const holder = {};
  holder[key] = list[index];
  const text = JSON.stringify(holder);
  return text === '{}' ? 'null' : text.slice(JSON.stringify(key).length + 2, -1);
}

/** stringify(value, {signal, yieldMs, stats}): an async iterable of the chunks of JSON.stringify(value)'s text. */
async function* stringify(value, options) {
  const signal = options.signal;
  const stats = options.stats;
  stats.yields = 0;
  await nextTurn();
  stats.yields++;
  stopIfAborted(signal);
  // An array with a toJSON of its own (a subclass) is written by native as a whole, like anything but an array.
  if (!Array.isArray(value) || typeof value.toJSON === 'function') {
    const text = JSON.stringify(value);
    if (text !== undefined) yield text;
    return;
  }
  const length = value.length;
  let parts = ['['];
  let sliceStart = Date.now();
  for (let index = 0; index < length; index++) {
    parts.push(index === 0 ? '' : ',', elementText(value, index));
    if (index % CLOCK_EVERY === CLOCK_EVERY - 1 && Date.now() - sliceStart >= options.yieldMs) {
      yield parts.join('');
      parts = [];
      await nextTurn();
      stats.yields++;
      stopIfAborted(signal);
      sliceStart = Date.now();
    }
  }
  parts.push(']');
  yield parts.join('');
}

/** parse(text, {signal, yieldMs, stats}): JSON.parse(text) after one turn of the event loop. */
async function parse(text, options) {
  options.stats.yields = 0;
  await nextTurn();
  options.stats.yields++;
  stopIfAborted(options.signal);
  return JSON.parse(text);
}

module.exports = { name: 'example-chunked-json', stringify, parse };
