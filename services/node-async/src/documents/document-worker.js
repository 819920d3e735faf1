'use strict';
// The documents pool's worker (piscina): native JSON.parse and JSON.stringify, off the main thread. A value crosses
// the threads as V8's serialization (the structured clone's own format) in a buffer that is transferred, not copied:
// each side serializes or deserializes it in its own code, where a failure is an error of the task (a value nested
// past the serializer's stack throws RangeError) rather than an answer piscina cannot deliver (piscina 5.3.2 never
// settles a task whose answer fails to clone: seen with 10 000 nested arrays), and where the main thread's share is
// plain to see (worker-approaches.js). Whatever else an answer holds is flat (value-pieces.js' skeleton). Texts
// cross as strings, copied by piscina's postMessage.
const v8 = require('node:v8');
const Piscina = require('piscina');
const { cutValue } = require('./value-pieces');

/** The value of text, serialized into a transferred buffer for the main thread to deserialize. */
function parse(text) {
  const buffer = v8.serialize(JSON.parse(text));
  return Piscina.move(buffer);
}

/** The value of text cut into pieces (value-pieces.js), their buffers transferred. */
function parsePieces(text) {
  const cut = cutValue(JSON.parse(text));
  return Piscina.move({ [Piscina.transferableSymbol]: cut.pieces.map((piece) => piece.buffer), [Piscina.valueSymbol]: cut });
}

/** The JSON text of the value serialized in buffer (by the main thread). */
const stringify = (buffer) => JSON.stringify(v8.deserialize(buffer));

module.exports = { parse, parsePieces, stringify };
