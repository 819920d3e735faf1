'use strict';
// The `msgpack` approach (the wasm-transfer experiment's third): @msgpack/msgpack encodes in JS, C++ reads and writes
// MessagePack with its own small codec (src/msgpack_codec.cpp), JS decodes. One encoder and one decoder for the
// process: they keep their buffers and the decoder its cache of key strings. encodeSharedRef hands back a view of the
// encoder's own buffer, so the bytes are copied once, into WASM memory; the answer is decoded from a view of WASM
// memory.
const { bufferApproach } = require('./buffer-approach');
const { Encoder, Decoder } = require('@msgpack/msgpack');

// Only a guard against cyclic values (the default, 100, would refuse nesting C++ accepts): the C++ reader is the one
// that enforces MAX_DEPTH, so every approach refuses the same values with the same message.
const CYCLE_GUARD_DEPTH = 2048;

const encoder = new Encoder({ maxDepth: CYCLE_GUARD_DEPTH });
const decoder = new Decoder();

function writeInput(wasm, value) {
  return wasm.writeInput(encoder.encodeSharedRef(value));
}

function readOutput(wasm, inBytes) {
  const bytes = wasm.outputView();
  return { value: decoder.decode(bytes), inBytes, outBytes: bytes.length };
}

module.exports = bufferApproach('msgpack', 'msgpack', { writeInput, readOutput });
