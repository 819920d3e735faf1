'use strict';
// The `typed` approach, the lab's own, designed for speed: no text to parse, no call per value. Both ways the value
// crosses as four sections in WASM memory, found through a header (README.md, "The typed layout";
// src/typed_codec.h): a tape of int32 words (tagged nodes), a table of string lengths in UTF-16 units, one UTF-8
// blob with every string, and the shapes (the key lists of the objects).
// - Arrays whose items are all int32 cross as one run of words (the wasm-transfer experiment's numbers family): a copy,
//   no per-item tags.
// - Strings are concatenated and encoded once, straight into WASM memory, decoded once on the way back and sliced
//   (Buffer's UTF-8 write and toString over WASM memory: the same work as TextEncoder/TextDecoder, less per call).
// - JS writes the tape straight into the module's input buffer; C++ reads every section in place and writes its
//   answer into buffers it reuses, which JS reads through views.
// - Objects with the same keys in the same order share a shape whose keys cross once: an object node is its shape
//   and its values, so neither side looks a key up per member (interning single keys cost a Map lookup per member
//   here and a hash per member in C++, and was slower on every case measured).
// - A shape used often gets compiled code, kept across calls: on the way in a reader of constant-key (monomorphic)
//   loads, on the way back an object factory `(d) => ({"id": d(), "name": d(), ...})`: V8 builds an object literal
//   of known keys several times faster than it adds keys one by one (a 1000-key object 6x: past 128 added keys V8
//   turns an object into a dictionary).
// typed-encoder.js is the way in, typed-decoder.js the way back, typed-layout.js their shared numbers.
const { bufferApproach } = require('./buffer-approach');
const { writeInput } = require('./typed-encoder');
const { readOutput } = require('./typed-decoder');

module.exports = bufferApproach('typed', 'typed', { writeInput, readOutput });
