'use strict';
// knownPlainAscii() against its definition, written out character by character, on the places a SIMD scan can get
// wrong: the first and last of its 16-byte steps, the padding after an uneven end, and the seams of its blocks. Node 24
// has WebAssembly SIMD, so plain ASCII must be known as such here; Node 14, where the answer is always false, is
// covered by the stringify corpus, which runs there too.
const test = require('node:test');
const assert = require('node:assert');
const { knownPlainAscii, FIRST_BLOCK_CHARS, BLOCK_CHARS } = require('../plain-ascii');

/** Where plain-ascii.js's blocks end, as they double from FIRST_BLOCK_CHARS to BLOCK_CHARS, and one block more. */
function blockEnds() {
  const ends = [];
  let end = 0;
  for (let size = FIRST_BLOCK_CHARS; size < BLOCK_CHARS; size *= 2) ends.push((end += size));
  ends.push((end += BLOCK_CHARS), end + BLOCK_CHARS);
  return ends;
}
// The seams the tests sit around: the first three, and the last two, where the blocks have reached their largest.
const ALL_ENDS = blockEnds();
const BLOCK_ENDS = [...ALL_ENDS.slice(0, 3), ...ALL_ENDS.slice(-2)];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The definition for ASCII text: whether no character is one that JSON.stringify escapes. */
function expected(text) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    assert.ok(code < 0x80, 'expected() is for ASCII text');
    if (code < 0x20 || code === QUOTE || code === BACKSLASH) return false;
  }
  return true;
}

const filler = (chars) => 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil(chars / 28)).slice(0, chars);
const withCharAt = (text, at, char) => text.slice(0, at) + char + text.slice(at + 1);

test('agrees with the definition for every ASCII character, at every place of a 16-byte step and the padding', () => {
  for (const length of [1, 15, 16, 17, 31, 32, 33, 47]) {
    for (let at = 0; at < length; at++) {
      for (let code = 0; code < 0x80; code++) {
        const text = withCharAt(filler(length), at, String.fromCharCode(code));
        assert.strictEqual(knownPlainAscii(text), expected(text), `code 0x${code.toString(16)} at ${at} of ${length}`);
      }
    }
  }
});

test('an escape is found on either side of a block seam, and in the last block', () => {
  const long = filler(BLOCK_ENDS[BLOCK_ENDS.length - 1] + 40);
  const places = [0, long.length - 1];
  for (const end of BLOCK_ENDS) places.push(end - 1, end, end + 1);
  for (const at of places) {
    for (const char of ['\u0000', '\n', '\u001f', '"', '\\']) {
      assert.strictEqual(knownPlainAscii(withCharAt(long, at, char)), false, `${JSON.stringify(char)} at ${at}`);
    }
    assert.strictEqual(knownPlainAscii(withCharAt(long, at, '\u007f')), true, `DEL at ${at} is not escaped`);
  }
  assert.strictEqual(knownPlainAscii(long), true);
});

test('a character of 0x80 or above makes the answer false, wherever it is', () => {
  const long = filler(BLOCK_ENDS[3] + 100);
  for (const char of ['\u0080', 'é', '\u2028', '\ud83d\ude00', '\ud800', '\udfff', '\uffff']) {
    for (const at of [0, 17, BLOCK_ENDS[0], BLOCK_ENDS[3] - 1, BLOCK_ENDS[3] + 99]) {
      assert.strictEqual(knownPlainAscii(withCharAt(long, at, char)), false, `${JSON.stringify(char)} at ${at}`);
    }
  }
});

test('the empty string is plain, and bytes left from a longer string do not count', () => {
  assert.strictEqual(knownPlainAscii(''), true);
  assert.strictEqual(knownPlainAscii(withCharAt(filler(64), 40, '"')), false);
  assert.strictEqual(knownPlainAscii(filler(33)), true);
});
