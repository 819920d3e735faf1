'use strict';
// async-char-streams' #1: the whole text in memory, parsed in one synchronous pass. The original split it with
// `split('\n')` / `split(',')`, which is wrong as soon as a field is quoted; this baseline keeps its speed with the
// same native technique, correctly: fast-scanner.js over the joined text (lines without a quote or a carriage return
// split natively, quoted fields skipped with indexOf). It is the strongest in-memory parse the lab has, so `fast`'s
// ratio to it is the cost of reading a stream, nothing else.
// Input: a sync iterable of chunks, joined first (the join is timed, like the original's readFile).
const { FastScanner } = require('./fast-scanner');
const { SYNC_CHUNKS, checkSignal } = require('../sources');

async function memory(source, { signal } = {}) {
  let text = '';
  for (const chunk of source) {
    checkSignal(signal);
    text += chunk;
  }
  const scanner = new FastScanner();
  scanner.write(text);
  return scanner.finish();
}
memory.input = SYNC_CHUNKS;

module.exports = { memory };
