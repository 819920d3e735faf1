'use strict';
// The lab's own streaming parser: an async iterable of chunks, each scanned whole (fast-scanner.js), so the cost
// of asynchrony is one await per chunk rather than one per character.
const { FastScanner } = require('./fast-scanner');
const { ASYNC_CHUNKS, checkSignal } = require('../sources');

async function fast(source, { signal } = {}) {
  const scanner = new FastScanner();
  for await (const chunk of source) {
    checkSignal(signal);
    scanner.write(chunk);
  }
  return scanner.finish();
}
fast.input = ASYNC_CHUNKS;

module.exports = { fast };
