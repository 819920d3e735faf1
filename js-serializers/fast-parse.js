'use strict';
/**
 * Non-blocking JSON.parse: the same value, built in slices of about `yieldMs` milliseconds with a turn of the event
 * loop (setImmediate) between slices, so timers and I/O keep running while a large text is parsed. Sister module of
 * fast-stringify.js. CommonJS and Node 14 syntax, because the Node 14 services load it too.
 *
 *   parse(text, options?)               -> Promise<value>
 *       Resolves to a value deep-equal to JSON.parse(text): same key order, "__proto__" as an own property, duplicate
 *       keys resolved the same way (last value, first position), -0 kept, lone surrogates kept. No reviver.
 *       Rejects with a SyntaxError on every text JSON.parse rejects, and accepts no other: its message names a
 *       position in `text` where native's does (otherwise the range of the text that was being parsed).
 *       A `text` that is not a string is converted with ToString first, as JSON.parse does (`undefined` is the text
 *       "undefined" and rejects with a SyntaxError; a Symbol rejects with a TypeError).
 *   parseChunks(chunks, options?)       -> Promise<value>
 *       The same for an iterable or async iterable of strings, Buffers or Uint8Arrays (UTF-8), e.g. a request stream.
 *       Not incremental: the chunks are collected (signal checked between them), joined, then parsed as above.
 *
 * Options (all optional):
 *   signal   AbortSignal: once aborted, the promise rejects with signal.reason, or an AbortError (loop-kit/slices.js's,
 *            re-exported here) when there is none, at the next slice boundary; no more work is done after it.
 *   yieldMs  target length of one synchronous slice in ms (default 5).
 *   stats    an object that gets `yields`, `nativeCalls`, `maxSliceMs`, `chars` (characters of the text parsed,
 *            scanned or copied, an array element copied counting as one, all slices together) and `maxSliceChars`
 *            (the most of them in one slice) filled in as the work progresses.
 *
 * Before changing this module: `make bench-shapes-quick` (a few minutes: the generated tree families against native,
 * the worst ratio and block per family) tells whether a change costs time anywhere.
 *
 * How it works, why, its limits and the invariants its work-count guard checks: fast-parse.md. The modules of the
 * walk are in fast-parse/ (fast-parse.md lists them); this file is the public entry and the slice loop around them.
 */
const { StringDecoder } = require('string_decoder');
const { AbortError, throwIfAborted, readSliceOptions, nextTurn, runSlices } = require('@lab/loop-kit/slices');
const { now } = require('./fast-parse/syntax');
const { MAX_BATCH_CHARS, JOIN_ALONE_CHARS } = require('./fast-parse/sizes');
const { Parser, documentRate, keepShapes } = require('./fast-parse/parser');

function readOptions(options) {
  const settings = readSliceOptions(options);
  return Object.assign(settings, { stats: settings.stats || {} });
}

function resetStats(stats) {
  stats.yields = 0;
  stats.nativeCalls = 0;
  stats.maxSliceMs = 0;
  stats.chars = 0;
  stats.maxSliceChars = 0;
}

/** Adds one slice's figures to stats. */
function countSlice(stats, ms, chars) {
  stats.maxSliceMs = Math.max(stats.maxSliceMs, ms);
  stats.chars += chars;
  stats.maxSliceChars = Math.max(stats.maxSliceChars, chars);
}

/** Runs a Parser slice by slice (loop-kit's slice loop). */
async function run(text, settings) {
  const stats = settings.stats;
  if (documentRate.readsWhole(text, settings.maxSliceChars, settings.yieldMs)) {
    throwIfAborted(settings.signal);
    return parseWhole(text, stats);
  }
  const parser = new Parser(text, settings.maxSliceChars);
  const step = (deadline) => {
    const started = now();
    parser.sliceChars = 0;
    try {
      return parser.step(deadline);
    } finally {
      countSlice(stats, now() - started, parser.sliceChars);
      stats.nativeCalls += parser.nativeCalls;
      parser.nativeCalls = 0;
    }
  };
  try {
    await runSlices(step, { yieldMs: settings.yieldMs, signal: settings.signal, stats });
  } finally {
    keepShapes();
  }
  // Native's own rate on this text's pieces (their copies included), not the batches' (scans, merges, frames): the
  // rate a whole parse of a text like it would run at.
  documentRate.addWhole(parser.nativeMs, parser.nativeChars, text);
  return parser.result;
}

/**
 * A text native reads within one slice, at the rate this process learnt: read whole, in the caller's turn, with no
 * turn waited (there is no second slice for the first to share a turn with), and native's error if it fails.
 */
function parseWhole(text, stats) {
  const started = now();
  stats.nativeCalls = 1;
  let value;
  try {
    value = JSON.parse(text);
  } finally {
    countSlice(stats, now() - started, text.length);
  }
  documentRate.addWhole(stats.maxSliceMs, text.length, text); // a text rejected early would teach a rate far too fast
  return value;
}

async function parse(text, options) {
  const settings = readOptions(options);
  resetStats(settings.stats);
  return run(typeof text === 'string' ? text : `${text}`, settings);
}

async function parseChunks(chunks, options) {
  const settings = readOptions(options);
  resetStats(settings.stats);
  throwIfAborted(settings.signal);
  const parts = [];
  let chars = 0;
  let decoder = null;
  const add = (part) => {
    parts.push(part);
    chars += part.length;
  };
  for await (const chunk of chunks) {
    throwIfAborted(settings.signal);
    if (typeof chunk === 'string') {
      if (decoder !== null) add(decoder.end());
      decoder = null;
      add(chunk);
    } else if (ArrayBuffer.isView(chunk)) {
      if (decoder === null) decoder = new StringDecoder('utf8');
      add(decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    } else {
      throw new TypeError('parseChunks takes strings, Buffers or Uint8Arrays');
    }
  }
  if (decoder !== null) add(decoder.end());
  if (chars > JOIN_ALONE_CHARS) {
    // The join copies the whole text and cannot be split: a slice of its own.
    await nextTurn();
    settings.stats.yields++;
    throwIfAborted(settings.signal);
  }
  const started = now();
  const text = parts.join('');
  countSlice(settings.stats, now() - started, chars); // a copy of the whole text, one step: the module's documented limit
  return run(text, settings);
}

module.exports = { parse, parseChunks, AbortError, MAX_BATCH_CHARS };
