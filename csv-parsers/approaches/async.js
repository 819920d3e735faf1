'use strict';
// async-char-streams' #6: a single native async loop over an async iterable of characters. The characters come from an
// async generator over the chunks, the rows from an async generator over the characters, and an async function
// collects them, so every character passes two `await`s. transpiled.js writes these three functions out as a
// transpiler would; the chunk's characters are yielded one by one (not `yield*`) so both versions do the same.
const { CharParser } = require('../char-parser');
const { ASYNC_CHUNKS, checkSignal } = require('../sources');

async function* chars(source, signal) {
  for await (const chunk of source) {
    checkSignal(signal);
    for (const char of chunk) yield char;
  }
}

async function* rows(characters) {
  const parser = new CharParser();
  for await (const char of characters) {
    const row = parser.push(char);
    if (row !== undefined) yield row;
  }
  const last = parser.finish();
  if (last !== undefined) yield last;
}

async function collect(iterable) {
  const all = [];
  for await (const item of iterable) all.push(item);
  return all;
}

async function asyncLoop(source, { signal } = {}) {
  return collect(rows(chars(source, signal)));
}
asyncLoop.input = ASYNC_CHUNKS;

module.exports = { async: asyncLoop, collect };
