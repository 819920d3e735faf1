'use strict';
// async-char-streams' #2: an outer async loop over the chunks and an inner sync loop over each chunk's characters, so
// only chunks and rows cost a promise, not characters.
const { CharParser } = require('../char-parser');
const { ASYNC_CHUNKS, checkSignal } = require('../sources');
const { collect } = require('./async');

async function* rows(source, signal) {
  const parser = new CharParser();
  for await (const chunk of source) {
    checkSignal(signal);
    for (const char of chunk) {
      const row = parser.push(char);
      if (row !== undefined) yield row;
    }
  }
  const last = parser.finish();
  if (last !== undefined) yield last;
}

async function asyncOfSync(source, { signal } = {}) {
  return collect(rows(source, signal));
}
asyncOfSync.input = ASYNC_CHUNKS;

module.exports = { asyncOfSync };
