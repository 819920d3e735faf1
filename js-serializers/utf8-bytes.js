'use strict';
/**
 * Counting the UTF-8 bytes of an output's chunks (what Buffer.byteLength gives: a lone surrogate counts 3 bytes, as
 * it is written) in a fifth of byteLength's time while they are ASCII. fast-stringify's pipeTo() counts the chunks it
 * writes with one counter per document.
 *
 *   utf8Counter() -> count(text) -> number
 *
 * Why: Buffer.byteLength reads ASCII at about 4 bytes a ns on Node 24 (20-26 µs for 98 KB), a sixth of native's
 * JSON.stringify time for the same text, and that count was most of what pipeTo() cost beyond native's text written;
 * TextEncoder's encodeInto copies an ASCII one-byte string at about 20 (5 µs). But encodeInto is slower than
 * byteLength on any other text: 1-2 ns a character past the first non-ASCII character of a one-byte string, and all
 * through a two-byte string (one that holds any character past U+00FF, ASCII or not), 1.5 times byteLength. So:
 * - a text is encoded a block at a time while its blocks are ASCII, and byteLength counts the rest from the first
 *   block that is not; the blocks grow with the ASCII read before them, so that the block that turns out not to be
 *   ASCII costs little beside what the ones before saved;
 * - once one chunk was not ASCII, the counter counts every later chunk with byteLength: JSON's text past ASCII keeps
 *   coming (names, prose, a two-byte string's every chunk), so a document pays encodeInto's slow path in one chunk
 *   at most.
 * Node 14 syntax (TextEncoder is global from Node 11; on Node 14, 4 MB of ASCII: 0.23 ms against byteLength's 0.48).
 */

// The blocks: an eighth of the ASCII read before them, from FIRST_BLOCK_CHARS to MAX_BLOCK_CHARS.
const FIRST_BLOCK_CHARS = 1 << 10;
const MAX_BLOCK_CHARS = 1 << 16;
const GROWTH_SHIFT = 3;

const encoder = new TextEncoder();
// An ASCII block is encoded whole into it, a byte a character; a block with any other character is not.
const scratch = new Uint8Array(MAX_BLOCK_CHARS);

/** The ASCII characters text starts with, up to the block that is not ASCII (its length when it all is). */
function asciiPrefix(text) {
  const length = text.length;
  let at = 0;
  while (at < length) {
    const size = Math.min(MAX_BLOCK_CHARS, Math.max(FIRST_BLOCK_CHARS, at >> GROWTH_SHIFT));
    // A block after an ASCII block starts at a whole character: no surrogate pair is cut.
    const block = at === 0 && length <= size ? text : text.slice(at, at + size);
    const done = encoder.encodeInto(block, scratch);
    if (done.read !== block.length || done.written !== block.length) return at;
    at += block.length;
  }
  return length;
}

function utf8Counter() {
  let ascii = true;
  return (text) => {
    if (!ascii) return Buffer.byteLength(text);
    const prefix = asciiPrefix(text);
    if (prefix === text.length) return prefix;
    ascii = false;
    return prefix + Buffer.byteLength(prefix === 0 ? text : text.slice(prefix));
  };
}

module.exports = { utf8Counter };
