'use strict';
// Malformed input handed straight to each C++ reader: the bytes are written into the module's input buffer by hand
// (json, msgpack, typed) or are JS values outside the payload spec (embind). Each must be refused with an error that
// names the problem, through both the roundTrip and the count export, never a crash or a read outside the input; the
// failed call leaves no tree behind, and the next normal call works.
const test = require('node:test');
const assert = require('node:assert');
const { loadWasmModule } = require('../lib/wasm-module');
const { APPROACHES } = require('../lib/transfer/approaches');

const SAMPLE = { ok: [1, 'two', { three: 3 }] };

/** Runs both exports of a reader on `size` input bytes and expects each to refuse with `pattern`. */
function assertRefused(wasm, reader, size, pattern) {
  for (const op of ['RoundTrip', 'Count']) {
    assert.strictEqual(wasm.exports[`${reader}${op}`](size), 0, `${reader}${op} accepted it`);
    assert.throws(() => wasm.fail(`${reader}${op}`), pattern);
    assert.throws(() => wasm.treeHash(), /no tree/, `${reader}${op} left a tree behind`);
  }
}

/** The module still works: a normal round trip of every approach. */
function assertStillWorks(wasm) {
  for (const [name, approach] of Object.entries(APPROACHES)) {
    assert.deepStrictEqual(approach.roundTrip(wasm, SAMPLE).value, SAMPLE, name);
  }
}

function refuseBytes(wasm, reader, bytes, pattern) {
  assertRefused(wasm, reader, wasm.writeInput(Uint8Array.from(bytes)), pattern);
  assertStillWorks(wasm);
}

const utf8 = (text) => [...Buffer.from(text, 'utf8')];

test('json: the yyjson reader refuses malformed JSON, and reads every JSON number into one form', async () => {
  const wasm = await loadWasmModule();
  const cases = [
    [utf8('{"a":'), /invalid JSON at byte \d+/],
    [[0x22, 0xff, 0x22], /invalid JSON at byte 1/], // invalid UTF-8 inside a string
    [utf8('[1] x'), /invalid JSON at byte 4/], // trailing bytes
    [[], /invalid JSON/],
    [utf8('"\\ud800"'), /no low surrogate in string/],
    [utf8('['.repeat(513) + ']'.repeat(513)), /nesting deeper than MAX_DEPTH \(512/],
  ];
  for (const [bytes, pattern] of cases) refuseBytes(wasm, 'json', bytes, pattern);
  // Whatever form yyjson reads a number in (uint, sint, real), the tree is the one a JS value of it makes.
  const sameTree = (text, value) => {
    assert.strictEqual(wasm.exports.jsonCount(wasm.writeInput(Uint8Array.from(utf8(text)))), 1, text);
    const read = wasm.treeHash();
    APPROACHES.typed.count(wasm, value);
    assert.strictEqual(read, wasm.treeHash(), text);
  };
  for (const [text, value] of [['1.0', 1], ['1e2', 100], ['-0', 0], ['-0.0', 0], ['18446744073709551615', 2 ** 64], ['-9007199254740992', -(2 ** 53)], ['123456789012345678901234567890', 1.2345678901234568e29], ['0.1', 0.1], ['null', null], ['true', true]]) {
    sameTree(text, value);
  }
  // The limit itself is accepted.
  assert.strictEqual(wasm.exports.jsonCount(wasm.writeInput(Uint8Array.from(utf8('['.repeat(512) + ']'.repeat(512))))), 512);
});

test('msgpack: the reader refuses input cut short, counts past the end, types JSON has not, bad keys and UTF-8', async () => {
  const wasm = await loadWasmModule();
  const float64 = (number) => {
    const bytes = Buffer.alloc(9);
    bytes[0] = 0xcb;
    bytes.writeDoubleBE(number, 1);
    return [...bytes];
  };
  const cases = [
    [[], /msgpack: input cut short in a value/],
    [[0x92, 0x01], /array of 2 items past the end of the input \(at byte 1\)/], // an array of 2 with one item
    [[0x93, 0x01, 0x91, 0x01], /input cut short in a value: needs 1 bytes, 0 left \(at byte 4\)/],
    [[0xd9, 0x05, 0x61], /input cut short in a string: needs 5 bytes, 1 left/],
    [[0xcd, 0x01], /input cut short in an unsigned integer/],
    [[0xdd, 0xff, 0xff, 0xff, 0xff], /array of 4294967295 items past the end of the input/],
    [[0xdf, 0x00, 0x01, 0x00, 0x00, 0xa1], /map of 65536 entries past the end of the input/],
    [[0x8f], /map of 15 entries past the end/],
    [[0xc1], /the never-used type byte \(type byte 0xc1\)/],
    [[0xc4, 0x00], /a bin/],
    [[0xd4, 0x01, 0x02], /an ext/],
    [[0xc7, 0x00, 0x01], /an ext/],
    [[0x81, 0x01, 0x01], /a map key that is not a string \(type byte 0x01\)/],
    [[0x81, 0x90, 0x01], /a map key that is not a string/],
    [[0xa1, 0xff], /invalid UTF-8 in a string at byte 0 of 1/],
    [[0xa2, 0xc0, 0x80], /invalid UTF-8/], // an overlong NUL
    [[0xa3, 0xed, 0xa0, 0x80], /invalid UTF-8/], // a surrogate, encoded
    [[0x81, 0xa1, 0xff, 0x01], /invalid UTF-8/], // in a key
    [[0x01, 0x02], /1 bytes after the value/],
    [float64(Infinity), /NaN or an infinity/],
    [float64(NaN), /NaN or an infinity/],
    [[...Array(513).fill(0x91), 0x90], /nesting deeper than MAX_DEPTH/],
  ];
  for (const [bytes, pattern] of cases) refuseBytes(wasm, 'msgpack', bytes, pattern);
});

test('msgpack: every integer form is read with its sign, a float holding an integer is that integer, nil and booleans are theirs', async () => {
  const wasm = await loadWasmModule();
  const reference = (value) => {
    APPROACHES.json.count(wasm, value);
    return wasm.treeHash();
  };
  const forms = [
    [[0xd0, 0x80], -128],
    [[0xd1, 0x80, 0x00], -32768],
    [[0xd2, 0x80, 0, 0, 0], -2147483648],
    [[0xd3, 0xff, 0xe0, 0, 0, 0, 0, 0, 1], -9007199254740991],
    [[0xcc, 0xff], 255],
    [[0xce, 0xff, 0xff, 0xff, 0xff], 4294967295],
    [[0xcf, 0x00, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 9007199254740991],
    [[0xff], -1],
    [[0xcb, 0x42, 0x70, 0, 0, 0, 0, 0, 0], 2 ** 40], // msgpackr writes integers past 32 bits this way
    [[0xcf, 0x00, 0x20, 0, 0, 0, 0, 0, 0], 2 ** 53], // past 2^53 - 1: the double
    [[0xd3, 0xff, 0xe0, 0, 0, 0, 0, 0, 0], -(2 ** 53)],
    [[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], 1.5],
    [[0xca, 0x3f, 0xc0, 0, 0], 1.5], // float 32
    [[0xcb, 0x80, 0, 0, 0, 0, 0, 0, 0], 0], // -0
    [[0xc0], null],
    [[0xc2], false],
    [[0xc3], true],
  ];
  for (const [bytes, value] of forms) {
    assert.strictEqual(wasm.exports.msgpackCount(wasm.writeInput(Uint8Array.from(bytes))), 1, `${value}`);
    assert.strictEqual(wasm.treeHash(), reference(value), `${value}`);
  }
  // The limit itself is accepted.
  assert.strictEqual(wasm.exports.msgpackCount(wasm.writeInput(Uint8Array.from([...Array(511).fill(0x91), 0x90]))), 512);
});

// The typed layout (README.md, "The typed layout"), written word by word so that any part can be wrong.
const TYPED = { MAGIC: 0x32505954, HEADER_WORDS: 9, INT32: 0, INT64: 1, STRING: 2, ARRAY: 3, INT32_ARRAY: 4, OBJECT: 5 };
const node = (tag, payload) => ((payload << 3) | tag) >>> 0;

/** Writes a layout into the input buffer; `patch(header, start)` may spoil the header. Returns the input size. */
function typedInput(wasm, { tape = [], lengths = [], shapes = [], blob = [], patch = () => {} }) {
  const size = 4 * (TYPED.HEADER_WORDS + tape.length + lengths.length + shapes.length) + blob.length;
  const start = wasm.exports.reserveInput(size);
  const words = wasm.heapWords();
  const tapeAt = start + 4 * TYPED.HEADER_WORDS;
  const lengthsAt = tapeAt + 4 * tape.length;
  const shapesAt = lengthsAt + 4 * lengths.length;
  const blobAt = shapesAt + 4 * shapes.length;
  words.set(tape, tapeAt >>> 2);
  words.set(lengths, lengthsAt >>> 2);
  words.set(shapes, shapesAt >>> 2);
  wasm.heap().set(blob, blobAt);
  const header = [TYPED.MAGIC, tapeAt, tape.length, lengths.length, lengthsAt, blobAt, blob.length, shapesAt, shapes.length];
  patch(header, start, size);
  words.set(header, start >>> 2);
  return size;
}

test('typed: a layout written by hand is read (the test\'s writer is right)', async () => {
  const wasm = await loadWasmModule();
  const value = { a: [1, 2], b: 'ü🎉', c: [{ a: -5 }] };
  const size = typedInput(wasm, {
    tape: [
      node(TYPED.OBJECT, 0), node(TYPED.INT32_ARRAY, 2), 1, 2, node(TYPED.STRING, 3),
      node(TYPED.ARRAY, 1), node(TYPED.OBJECT, 1), TYPED.INT32, -5,
    ],
    lengths: [1, 1, 1, 3, 1],
    shapes: [0, 3, 4, 1],
    blob: utf8('abcü🎉a'),
  });
  assert.strictEqual(wasm.exports.typedCount(size), 8);
  const hash = wasm.treeHash();
  APPROACHES.json.count(wasm, value);
  assert.strictEqual(hash, wasm.treeHash());
});

test('typed: the reader refuses bad headers, sections, tags, counts, indexes, lengths and UTF-8', async () => {
  const wasm = await loadWasmModule();
  const int32 = [TYPED.INT32, 7];
  const cases = [
    [{ tape: int32, patch: (h) => { h[0] = 0x31505954; } }, /bad magic number/],
    [{ tape: int32, patch: (h, start) => { h[1] = start + 4096 * 1024; } }, /the tape \(8 bytes at address \d+\) lies outside the \d+ input bytes/],
    [{ tape: int32, patch: (h) => { h[2] = 1000000; } }, /the tape .* lies outside/],
    [{ tape: int32, patch: (h) => { h[1] += 2; } }, /the tape at a misaligned address/],
    [{ tape: int32, lengths: [1], blob: [0x61], patch: (h) => { h[4] -= 4096; } }, /the string table .* lies outside/],
    [{ tape: int32, lengths: [1], blob: [0x61], patch: (h) => { h[6] = 1 << 30; } }, /the string blob .* lies outside/],
    [{ tape: int32, shapes: [0, 0], patch: (h) => { h[8] = 1 << 28; } }, /the shapes .* lies outside/],
    [{ tape: [node(6, 3)] }, /scalar 3 is none of null, false, true \(at tape word 1\)/],
    [{ tape: [7, 0] }, /the tape ends inside a double/],
    [{ tape: [7, 0, 0x3ff00000] }, /double 1 is an integer: kInt32 or kInt64 carries it/],
    [{ tape: [7, 0, 0x7ff80000] }, /NaN or an infinity/],
    [{ tape: [] }, /the tape ends where a node should start/],
    [{ tape: [TYPED.INT32] }, /the tape ends inside an int32/],
    [{ tape: [TYPED.INT64, 0] }, /the tape ends inside an int64/],
    [{ tape: [TYPED.INT64, 0, 0x200000] }, /int64 9007199254740992 is beyond 2\^53 - 1/],
    [{ tape: [TYPED.INT64, 0, -0x200000] }, /int64 -9007199254740992 is beyond/],
    [{ tape: [node(TYPED.ARRAY, 1000)] }, /an array of 1000 past the end of the tape/],
    [{ tape: [node(TYPED.ARRAY, 2), ...int32] }, /the tape ends where a node should start \(at tape word 3\)/],
    [{ tape: [node(TYPED.INT32_ARRAY, 5), 1, 2] }, /an int32 run of 5 past the end of the tape/],
    [{ tape: [node(TYPED.STRING, 3)], lengths: [1], blob: [0x61] }, /string index 3 out of range \(1 strings\)/],
    [{ tape: [node(TYPED.OBJECT, 2)], shapes: [0, 0] }, /shape index 2 out of range \(1 shapes\)/],
    [{ tape: [node(TYPED.OBJECT, 0)], shapes: [0, 5], lengths: [1], blob: [0x61] }, /shape 0 has keys 0 to 5, past the 1 strings/],
    [{ tape: [node(TYPED.OBJECT, 0)], shapes: [0, 3], lengths: [1, 1, 1], blob: utf8('abc') }, /an object of 3 values past the end/],
    [{ tape: int32, shapes: [0] }, /odd number of words/],
    [{ tape: int32, lengths: [5], blob: utf8('ab') }, /the string lengths need 5 bytes, more than the blob's 2/],
    [{ tape: int32, lengths: [3], blob: utf8('üb') }, /the string lengths need more than the blob's 3 bytes \(string 0\)/],
    [{ tape: int32, lengths: [1], blob: utf8('ab') }, /1 bytes in the string blob after the last string/],
    [{ tape: int32, lengths: [1], blob: utf8('üb') }, /1 bytes in the string blob after the last string/],
    [{ tape: int32, lengths: [-1], blob: [] }, /string 0 has a negative length/],
    [{ tape: int32, lengths: [1], blob: [0xff] }, /invalid UTF-8 in the string blob at byte 0 \(string 0\)/],
    [{ tape: int32, lengths: [1], blob: [0xed, 0xa0, 0x80] }, /invalid UTF-8/], // a surrogate, encoded
    [{ tape: int32, lengths: [1, 1], blob: utf8('🎉') }, /string 0 ends inside a character/],
    [{ tape: [...int32, ...int32] }, /2 words on the tape after the value/],
    [{ tape: [...Array(512).fill(node(TYPED.ARRAY, 1)), node(TYPED.ARRAY, 0)] }, /nesting deeper than MAX_DEPTH \(512/],
    [{ tape: [...Array(512).fill(node(TYPED.ARRAY, 1)), node(TYPED.INT32_ARRAY, 1), 1] }, /nesting deeper than MAX_DEPTH/],
  ];
  for (const [layout, pattern] of cases) {
    assertRefused(wasm, 'typed', typedInput(wasm, layout), pattern);
    assertStillWorks(wasm);
  }
  // Input shorter than the header, and a size past the buffer the module reserved.
  assertRefused(wasm, 'typed', 8, /input of 8 bytes is shorter than the header/);
  assertRefused(wasm, 'typed', 0x7fffffff, /input of 2147483647 bytes is larger than the \d+ bytes reserved/);
  assertRefused(wasm, 'json', 0x7fffffff, /larger than the \d+ bytes reserved/);
  assertRefused(wasm, 'msgpack', 0x7fffffff, /larger than the \d+ bytes reserved/);
  // The limit itself is accepted.
  const deepest = typedInput(wasm, { tape: [...Array(511).fill(node(TYPED.ARRAY, 1)), node(TYPED.ARRAY, 0)] });
  assert.strictEqual(wasm.exports.typedCount(deepest), 512);
  assertStillWorks(wasm);
});

test('embind: the val reader refuses values JSON has not, naming them', async () => {
  const wasm = await loadWasmModule();
  const cases = [
    [undefined, /embind: an undefined/],
    [[1, undefined], /embind: an undefined/],
    [[, 1], /embind: an undefined/], // eslint-disable-line no-sparse-arrays
    [[NaN], /embind: NaN or an infinity/],
    [{ f() {} }, /embind: a function/],
    [[Symbol('s')], /embind: a symbol/],
    [[10n], /embind: a bigint/],
    [JSON.parse('['.repeat(513) + ']'.repeat(513)), /embind: nesting deeper than MAX_DEPTH/],
  ];
  for (const [index, [value, pattern]] of cases.entries()) {
    for (const op of ['roundTrip', 'count']) {
      assert.throws(() => APPROACHES.embind[op](wasm, value), pattern, `${op} of case ${index}`);
      assert.throws(() => wasm.treeHash(), /no tree/);
    }
    assertStillWorks(wasm);
  }
});

test('the JS encoders refuse what they cannot write, with the reason', async () => {
  const wasm = await loadWasmModule();
  assert.throws(() => APPROACHES.typed.roundTrip(wasm, [Infinity]), /typed: Infinity: JSON has no such value/);
  assert.throws(() => APPROACHES.typed.roundTrip(wasm, [() => 1]), /typed: a function: JSON has no such value/);
  assert.throws(() => APPROACHES.typed.roundTrip(wasm, { a: 'x\ud800' }), /typed: a string with a lone surrogate/);
  assert.throws(() => APPROACHES.json.roundTrip(wasm, undefined), /json: a undefined has no JSON form/);
  assertStillWorks(wasm);
});
