'use strict';
// The documents pool's worker (piscina): native JSON.parse and JSON.stringify, off the main thread. What crosses the
// threads is piscina's structured clone: the text or the value in, the value or the text out. Serializing happens on
// the posting thread and deserializing on the receiving one, so the main thread still pays for the copy of a parse's
// text and value and of a stringify's value and text (README, "worker").

/** The value of text, cloned back to the main thread. */
const parse = (text) => JSON.parse(text);

/** The JSON text of value (the clone the main thread sent), copied back. */
const stringify = (value) => JSON.stringify(value);

module.exports = { parse, stringify };
