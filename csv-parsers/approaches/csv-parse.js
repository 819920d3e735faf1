'use strict';
// The library baseline: csv-parse's streaming API (a Transform stream) written the chunks as they arrive, with
// backpressure, its records collected from 'data'. Options chosen to state this folder's rules in its terms: both
// \n and \r\n end records (its default would guess one from the input), and rows may differ in length (our
// parsers do not check column counts). Its errors are its own, wrapped in CsvSyntaxError (message kept) so that
// callers tell bad input from other failures.
const { once } = require('events');
const { CsvSyntaxError } = require('../csv-error');
const { ASYNC_CHUNKS, checkSignal } = require('../sources');

const OPTIONS = { record_delimiter: ['\r\n', '\n'], relax_column_count: true };

/** csvParse: the csv-parse package. Returns the csv-parse approach. */
function csvParseApproach(csvParse) {
  function asSyntaxError(error) {
    if (!(error instanceof csvParse.CsvError)) return error;
    const row = error.record === undefined ? '?' : error.record;
    return new CsvSyntaxError(row, `csv-parse: ${error.message}`, { cause: error });
  }

  async function parse(source, { signal } = {}) {
    const parser = csvParse.parse(OPTIONS);
    const rows = [];
    parser.on('data', (row) => rows.push(row));
    const ended = once(parser, 'end'); // rejects with the parser's error
    ended.catch(() => {}); // observed below; a parse error before then must not count as unhandled
    try {
      for await (const chunk of source) {
        checkSignal(signal);
        if (parser.destroyed) break; // failed: `ended` holds the error
        if (!parser.write(chunk)) await Promise.race([once(parser, 'drain'), ended]);
      }
      parser.end();
      await ended;
    } catch (error) {
      parser.destroy();
      throw asSyntaxError(error);
    }
    return rows;
  }
  parse.input = ASYNC_CHUNKS;
  return parse;
}

module.exports = { csvParseApproach };
