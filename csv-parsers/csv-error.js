'use strict';
// The one error type for malformed CSV, so that callers (the upload route) can tell a client's bad input from a
// failure of the parser or an interruption.

class CsvSyntaxError extends Error {
  /** row: the 1-based number of the record (the header is row 1) in which the input went wrong. */
  constructor(row, problem, options) {
    super(`CSV row ${row}: ${problem}`, options);
    this.name = 'CsvSyntaxError';
    this.row = row;
  }
}

module.exports = { CsvSyntaxError };
