'use strict';
/**
 * A fast path for long strings: tells, in a third of a regular expression's time, that a string is plain ASCII,
 * every character below 0x80 and none that JSON.stringify escapes (control characters, quote, backslash), so that
 * the string is its own JSON text between quotes.
 *
 *   knownPlainAscii(text) -> boolean
 *       true: plain ASCII. false: not ASCII, something to escape, or no WebAssembly SIMD here (Node 14 has it only
 *       behind a flag): the caller decides some other way.
 *
 * Why: a regular expression over the string is the cost of fast-stringify's long strings (about 0.55 ns a
 * character here, 11 ms of a 20 M-character string's 28), where TextEncoder copies ASCII at about 0.12 ns a
 * character and a SIMD loop checks 16 bytes in one step. Other strings are left to the caller: their UTF-8 bytes
 * would hide a lone surrogate, which JSON.stringify escapes, and converting them costs more than the expression
 * (2.8 ns a character for text dense in non-ASCII). Node 14 syntax.
 */

// Characters are encoded and scanned a block at a time. The first block is short, so that a string that is not
// plain ASCII costs little to turn down; blocks then double up to the most the scanner's memory holds.
const FIRST_BLOCK_CHARS = 1 << 12;
const BLOCK_CHARS = 1 << 20;
const SIMD_BYTES = 16;
const WASM_PAGE_BYTES = 1 << 16;
const SPACE = 0x20;

/**
 * The scanner, assembled here (167 bytes) rather than built by a toolchain the Node services do not have:
 *   (func (export "escapes") (param $bytes i32) (result i32)   ;; $bytes: a multiple of 16
 *     for each 16 bytes at $i < $bytes: $found |= (v < 0x20) | (v == 0x22) | (v == 0x5c)
 *     return any_true($found))
 * with its memory exported as "memory".
 */
function scannerModule() {
  const I32 = 0x7f;
  const V128 = 0x7b;
  const simd = (opcode) => [0xfd, opcode]; // SIMD opcodes below 0x80 are one LEB128 byte
  const splat = (byte) => [...simd(0x0c), ...new Array(SIMD_BYTES).fill(byte)]; // v128.const
  const get = (local) => [0x20, local];
  const set = (local) => [0x21, local];
  const [BYTES, I, FOUND, V] = [0, 1, 2, 3]; // the parameter, then the locals
  const LT_U = simd(0x26); // i8x16.lt_u
  const EQ = simd(0x23); // i8x16.eq
  const OR = simd(0x50); // v128.or
  const body = [
    0x02, 0x40, // block
    0x03, 0x40, //   loop
    ...get(I), ...get(BYTES), 0x4f, 0x0d, 1, // if $i >= $bytes, leave the block (i32.ge_u, br_if 1)
    ...get(I), ...simd(0x00), 4, 0, ...set(V), // $v = v128.load align=16 offset=0
    ...get(FOUND),
    ...get(V), ...splat(0x20), ...LT_U,
    ...get(V), ...splat(0x22), ...EQ, ...OR,
    ...get(V), ...splat(0x5c), ...EQ, ...OR,
    ...OR, ...set(FOUND),
    ...get(I), 0x41, SIMD_BYTES, 0x6a, ...set(I), // $i += 16 (i32.const, i32.add)
    0x0c, 0, // continue the loop (br 0)
    0x0b, //   end loop
    0x0b, // end block
    ...get(FOUND), ...simd(0x53), // v128.any_true
    0x0b,
  ];
  const locals = [2, 1, I32, 2, V128]; // two groups: one i32 ($i), two v128 ($found, $v)
  const code = [...locals, ...body];
  const pages = Math.ceil((BLOCK_CHARS + SIMD_BYTES) / WASM_PAGE_BYTES);
  const name = (text) => [text.length, ...Buffer.from(text, 'ascii')];
  const section = (id, content) => [id, ...leb128(content.length), ...content];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [1, 0x60, 1, I32, 1, I32]), // types: (i32) -> i32
    ...section(3, [1, 0]), // functions: one, of type 0
    ...section(5, [1, 0x00, ...leb128(pages)]), // memory: one, minimum `pages`, no maximum
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('escapes'), 0x00, 0]), // exports
    ...section(10, [1, ...leb128(code.length), ...code]), // code
  ]);
}

/** Unsigned LEB128, the module format's integers. */
function leb128(n) {
  const bytes = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (n !== 0);
  return bytes;
}

/** {escapes, bytes}, or null where WebAssembly SIMD is not there (Node 14 has it only behind a flag). */
function loadScanner() {
  const module = scannerModule();
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate(module)) return null;
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(module));
  return { escapes: exports.escapes, bytes: new Uint8Array(exports.memory.buffer) };
}

let scanner; // loaded on first use: most processes never see a long string
const encoder = new TextEncoder();

function knownPlainAscii(text) {
  if (scanner === undefined) scanner = loadScanner();
  if (scanner === null) return false;
  const { escapes, bytes } = scanner;
  for (let start = 0, size = FIRST_BLOCK_CHARS; start < text.length; start += size, size = Math.min(2 * size, BLOCK_CHARS)) {
    const block = start === 0 && text.length <= size ? text : text.slice(start, start + size);
    const { read, written } = encoder.encodeInto(block, bytes);
    if (read !== block.length || written !== read) return false; // a character took more than one byte: not ASCII
    const padded = Math.ceil(written / SIMD_BYTES) * SIMD_BYTES;
    bytes.fill(SPACE, written, padded); // a space needs no escape
    if (escapes(padded)) return false;
  }
  return true;
}

module.exports = { knownPlainAscii, FIRST_BLOCK_CHARS, BLOCK_CHARS }; // the block sizes for the tests of its seams
