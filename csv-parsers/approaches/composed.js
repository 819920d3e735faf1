'use strict';
// async-char-streams' #4 and #8: the parser as a pipeline of small iterator steps from iter-tools-es, sync or async.
// The original's pipeline, splitOn('\n') then splitOn(','), ignores quotes; here a stateful map gives each character
// its meaning by the shared lexer (csv-lexer.js) and the pipeline splits on meanings instead of characters:
//   chunks -> check the signal -> + [END] -> join (characters) -> map(token) -> splitOn(ROW_END)
//          -> per row: splitOn(FIELD_END) -> str -> all rows but the last
// A token is the character itself (data), '' (syntax: a quote, the \r of \r\n; `str` drops it), FIELD_END or
// ROW_END. ROW_END *terminates* a record (END closes one still open), so splitOn leaves one group after the last
// terminator, always empty or syntax only, which is dropped; slice looks one item ahead, so it comes after the
// rows are built (splitOn's groups must be read in order). A naive splitOn('\n') over a text that ends with a line
// end keeps that group as an extra row: the original's 50 003 rows for sync-composed.
const { CsvLexer, DATA, FIELD_END, ROW_END } = require('../csv-lexer');
const { SYNC_CHUNKS, ASYNC_CHUNKS, checkSignal } = require('../sources');

const END = Symbol('end of input');
const FIELD_END_TOKEN = Symbol('field end');
const ROW_END_TOKEN = Symbol('row end');
const SYNTAX_TOKEN = '';
const ALL_BUT_LAST = { start: 0, end: -1 };

/** A fresh stateful mapping: character (or END) -> its token. */
function tokenizer() {
  const lexer = new CsvLexer();
  return (char) => {
    switch (char === END ? lexer.finish() : lexer.step(char)) {
      case DATA:
        return char;
      case FIELD_END:
        return FIELD_END_TOKEN;
      case ROW_END:
        return ROW_END_TOKEN;
      default:
        return SYNTAX_TOKEN;
    }
  };
}

// Only an empty line has no token at all between its row ends; it is one empty field.
const recordOf = (fields) => (fields.length > 0 ? fields : ['']);

const passChecked = (signal) => (chunk) => {
  checkSignal(signal);
  return chunk;
};

/** iterTools: iter-tools-es. Returns the sync-composed approach. */
function syncComposed(iterTools) {
  const { execPipe, map, join, concat, splitOn, slice, str, arrayFrom } = iterTools;
  const record = (tokens) => recordOf(arrayFrom(execPipe(tokens, splitOn(FIELD_END_TOKEN), map(str))));
  async function parse(source, { signal } = {}) {
    const withEnd = (chunks) => concat(chunks, [[END]]);
    return arrayFrom(execPipe(source, map(passChecked(signal)), withEnd, join, map(tokenizer()), splitOn(ROW_END_TOKEN), map(record), slice(ALL_BUT_LAST)));
  }
  parse.input = SYNC_CHUNKS;
  return parse;
}

/** iterTools: iter-tools-es. Returns the async-composed approach. */
function asyncComposed(iterTools) {
  const { execPipe, asyncMap, asyncJoin, asyncConcat, asyncSplitOn, asyncSlice, asyncStr, arrayFromAsync } = iterTools;
  const record = async (tokens) => recordOf(await arrayFromAsync(execPipe(tokens, asyncSplitOn(FIELD_END_TOKEN), asyncMap(asyncStr))));
  async function parse(source, { signal } = {}) {
    const withEnd = (chunks) => asyncConcat(chunks, [[END]]);
    return arrayFromAsync(execPipe(source, asyncMap(passChecked(signal)), withEnd, asyncJoin, asyncMap(tokenizer()), asyncSplitOn(ROW_END_TOKEN), asyncMap(record), asyncSlice(ALL_BUT_LAST)));
  }
  parse.input = ASYNC_CHUNKS;
  return parse;
}

module.exports = { syncComposed, asyncComposed };
