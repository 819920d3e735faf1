'use strict';
// The operations of an approach whose value crosses as bytes in one buffer each way (json, msgpack, msgpackr, typed):
// it writes the value into the module's input buffer, calls the C++ export of its codec for the operation, and reads
// the answer from the output buffer. What differs between them is only the two ends, writeInput and readOutput, and
// the name of their C++ exports (approaches.js lists the operations).

/**
 * The operations of a buffer approach: `name` in error messages, `codec` the prefix of its C++ exports (jsonRoundTrip,
 * jsonCount, jsonCreate, jsonCreateDocument), writeInput(wasm, value) -> bytes written, readOutput(wasm, inBytes) ->
 * {value, inBytes, outBytes}.
 */
function bufferApproach(name, codec, { writeInput, readOutput }) {
  const exportNames = { roundTrip: `${codec}RoundTrip`, count: `${codec}Count`, create: `${codec}Create`, createDocument: `${codec}CreateDocument` };
  return {
    roundTrip(wasm, value) {
      const inBytes = writeInput(wasm, value);
      wasm.check(wasm.exports[exportNames.roundTrip](inBytes), `${name} round trip`);
      return readOutput(wasm, inBytes);
    },
    count(wasm, value) {
      const inBytes = writeInput(wasm, value);
      return { count: wasm.checkCount(wasm.exports[exportNames.count](inBytes), `${name} count`), inBytes, outBytes: 0 };
    },
    create(wasm, caseName, seed) {
      wasm.check(wasm.exports[exportNames.create](caseName, seed), `${name} create ${caseName}`);
      return readOutput(wasm, 0);
    },
    /** create on a user's document: C++ hands out a copy of the tree it keeps for it (wasm.loadDocument's id). */
    createDocument(wasm, id) {
      wasm.check(wasm.exports[exportNames.createDocument](id), `${name} create document`);
      return readOutput(wasm, 0);
    },
  };
}

module.exports = { bufferApproach };
