'use strict';
// async-char-streams' #3: blocking reads, to measure generators without awaits. A generator of characters over the sync
// chunks, a generator of rows over the characters, collected by Array.from: three sync loops, no promise at all.
const { CharParser } = require('../char-parser');
const { SYNC_CHUNKS, checkSignal } = require('../sources');

function* chars(source, signal) {
  for (const chunk of source) {
    checkSignal(signal);
    yield* chunk;
  }
}

function* rows(characters) {
  const parser = new CharParser();
  for (const char of characters) {
    const row = parser.push(char);
    if (row !== undefined) yield row;
  }
  const last = parser.finish();
  if (last !== undefined) yield last;
}

async function sync(source, { signal } = {}) {
  return Array.from(rows(chars(source, signal)));
}
sync.input = SYNC_CHUNKS;

module.exports = { sync };
