'use strict';
// sha256 and UTF-8 length of a text that arrives as chunks, computed in slices between event-loop turns, so that
// checking a 40 MB result never blocks the service longer than serializing it did. Node 14 syntax.
const crypto = require('crypto');
const { performance } = require('perf_hooks');
const { runSlices } = require('@lab/loop-kit/slices');

// Hashing runs at several hundred MB/s: a piece this size, of characters or of bytes, is well under a millisecond.
const PIECE_CHARS = 1 << 18;
const PIECE_BYTES = 1 << 18;

/** update(piece) for each piece of list, in slices of about yieldMs (loop-kit's slice loop). */
function updateInSlices(list, update, yieldMs) {
  let next = 0;
  return runSlices((deadline) => {
    while (next < list.length) {
      update(list[next++]);
      if (performance.now() >= deadline) break;
    }
    return next === list.length;
  }, { yieldMs });
}

/**
 * Splits text into pieces of at most maxChars that never separate the two halves of a surrogate pair, so that each
 * piece encodes to the same UTF-8 bytes it has inside the whole text.
 */
function* pieces(text, maxChars) {
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + maxChars, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && end - 1 > at) end--;
    yield text.slice(at, end);
    at = end;
  }
}

const isHighSurrogate = (code) => code >= 0xd800 && code <= 0xdbff;

/**
 * The chunks of a text made whole as to surrogate pairs, for an encoder that takes them one by one: whole(chunk)
 * returns the chunk without the high half of a pair it ends with, which is put before the next chunk; rest() returns
 * what is held at the end ('' or a lone high half) and lets it go.
 */
function createPairJoiner() {
  let held = '';
  return {
    whole(chunk) {
      let text = held === '' ? chunk : held + chunk;
      held = '';
      if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
        held = text[text.length - 1];
        text = text.slice(0, -1);
      }
      return text;
    },
    rest() {
      const rest = held;
      held = '';
      return rest;
    },
  };
}

/**
 * A running hash. add(chunk) resolves once the chunk is hashed, in slices of about yieldMs (loop-kit's slice loop);
 * addAll(chunks) hashes a list of chunks in one slice loop, so many small chunks still give the event loop its turns.
 * digest() -> {hash, bytes}. A chunk may end between the halves of a surrogate pair: the high half waits for the next
 * chunk, so the hash is that of the whole text's UTF-8 whatever the chunking.
 */
function createTextHash({ yieldMs }) {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const pairs = createPairJoiner();
  const update = (text) => {
    hash.update(text, 'utf8');
    bytes += Buffer.byteLength(text, 'utf8');
  };
  const split = (chunk) => Array.from(pieces(pairs.whole(chunk), PIECE_CHARS));
  const hashPieces = (list) => updateInSlices(list, update, yieldMs);
  return {
    add: (chunk) => hashPieces(split(chunk)),
    addAll: (chunks) => hashPieces([].concat(...chunks.map(split))),
    digest() {
      const rest = pairs.rest();
      if (rest) update(rest);
      return { hash: hash.digest('hex'), bytes };
    },
  };
}

/** {hash, bytes} of the concatenation of chunks (an array, or an async iterable of strings whose producer yields). */
async function hashText(chunks, { yieldMs }) {
  const hash = createTextHash({ yieldMs });
  if (Array.isArray(chunks)) await hash.addAll(chunks);
  else for await (const chunk of chunks) await hash.add(chunk);
  return hash.digest();
}

/** {hash, bytes} of a Buffer's bytes, hashed in pieces of PIECE_BYTES in slices of about yieldMs. */
async function hashBytes(buffer, { yieldMs }) {
  const hash = crypto.createHash('sha256');
  const list = [];
  for (let at = 0; at < buffer.length; at += PIECE_BYTES) list.push(buffer.subarray(at, at + PIECE_BYTES));
  await updateInSlices(list, (piece) => hash.update(piece), yieldMs);
  return { hash: hash.digest('hex'), bytes: buffer.length };
}

module.exports = { pieces, createPairJoiner, createTextHash, hashText, hashBytes, PIECE_CHARS };
