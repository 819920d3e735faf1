'use strict';
// async-char-streams' #7 and #5: async.js's three functions as a transpiler writes them, generator coroutines over a
// runtime (coroutines.js). `transpiled-async` runs them on the standard runtime (every await is awaited), and
// `transpiled-asyncish` on the eager one (awaits of values that are not promises are skipped). The bodies are the
// same for both, the original's `git diff` of its two files reduced to the runner.
const { CharParser } = require('../char-parser');
const { ASYNC_CHUNKS, checkSignal } = require('../sources');
const { STANDARD, EAGER } = require('./coroutines');

function transpiledParser(runtime) {
  const { asyncGenerator, asyncFunction, awaitValue, asyncIterator } = runtime;

  // async function* chars(source, signal): for await over the chunks, each chunk's characters yielded one by one
  const chars = asyncGenerator(function* (source, signal) {
    const iterator = asyncIterator(source);
    let abrupt = false; // the loop left between steps: the source must be closed
    try {
      for (let step; (abrupt = !(step = yield awaitValue(iterator.next())).done); abrupt = false) {
        checkSignal(signal);
        for (const char of step.value) yield char;
      }
    } finally {
      if (abrupt && typeof iterator.return === 'function') yield awaitValue(iterator.return());
    }
  });

  // async function* rows(characters): for await over the characters, yielding each completed record
  const rows = asyncGenerator(function* (characters) {
    const parser = new CharParser();
    const iterator = asyncIterator(characters);
    let abrupt = false;
    try {
      for (let step; (abrupt = !(step = yield awaitValue(iterator.next())).done); abrupt = false) {
        const row = parser.push(step.value);
        if (row !== undefined) yield row;
      }
    } finally {
      if (abrupt && typeof iterator.return === 'function') yield awaitValue(iterator.return());
    }
    const last = parser.finish();
    if (last !== undefined) yield last;
  });

  // async function collect(iterable): for await, pushing every item
  const collect = asyncFunction(function* (iterable) {
    const all = [];
    const iterator = asyncIterator(iterable);
    for (let step; !(step = yield iterator.next()).done; ) all.push(step.value);
    return all;
  });

  async function parse(source, { signal } = {}) {
    return collect(rows(chars(source, signal)));
  }
  parse.input = ASYNC_CHUNKS;
  return parse;
}

module.exports = { transpiledAsync: transpiledParser(STANDARD), transpiledAsyncish: transpiledParser(EAGER) };
