'use strict';
// The `msgpackr` approach: the msgpack approach's C++ side (the same exports), with msgpackr, the fastest JS
// MessagePack library, on the JS side. Configured for standard MessagePack: no records/structures extension
// (useRecords: false), maps sized by their key count (variableMapSize: objects of 65536 keys and more need map 32),
// 64-bit integers read as numbers (C++ only writes ones within 2^53 - 1). msgpackr writes every integer beyond 32
// bits as a float 64, which the C++ reader takes when it holds an integer (src/msgpack_codec.h).
// msgpackr packs straight into WASM memory: useBuffer points it at the module's input buffer before each pack.
const { bufferApproach } = require('./buffer-approach');
const { Packr, Unpackr } = require('msgpackr');

const packr = new Packr({ useRecords: false, variableMapSize: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: 'number' });

// msgpackr starts a fresh buffer of its own when fewer than 2 KB are left (pack.js), so the room starts well above.
const INITIAL_ROOM = 64 * 1024;
let room = INITIAL_ROOM;
let target = null; // a Buffer over the input buffer in WASM memory, made again when memory grows or the input moves

function writeInput(wasm, value) {
  const start = wasm.exports.reserveInput(room);
  const memory = wasm.heap().buffer;
  if (target === null || target.buffer !== memory || target.byteOffset !== start || target.length !== room) {
    target = Buffer.from(memory, start, room);
  }
  packr.useBuffer(target);
  const bytes = packr.pack(value);
  if (bytes.buffer === memory && bytes.byteOffset === start) return bytes.length;
  // It outgrew the room and msgpackr moved to a buffer of its own: copy this one, and make room for the next.
  room = Math.max(room * 2, bytes.length * 2);
  return wasm.writeInput(bytes);
}

function readOutput(wasm, inBytes) {
  const bytes = wasm.outputView();
  return { value: unpackr.unpack(bytes), inBytes, outBytes: bytes.length };
}

module.exports = bufferApproach('msgpackr', 'msgpack', { writeInput, readOutput });
