'use strict';
// The CSV rules of this folder, one character at a time: RFC 4180 (comma separator, `"` quoting, `""` for a quote
// inside a quoted field) with `\n` or `\r\n` ending a record, the last record's end optional. A carriage return
// outside quotes must be part of `\r\n`: RFC 4180 allows it nowhere else, and a lone one is more likely a mangled
// line end than data. The character-at-a-time approaches and the composed ones share this lexer, so the rules are
// written once; memory and fast implement the same rules with string scanning and are tested against the same
// expected rows.
const { CsvSyntaxError } = require('./csv-error');

// What a character means, returned by step() and finish().
const DATA = 0; // part of the current field's value
const SKIP = 1; // syntax only (an opening or closing quote, the \r of \r\n)
const FIELD_END = 2; // ends the current field (a comma)
const ROW_END = 3; // ends the current field and the record

const RECORD_START = 0;
const FIELD_START = 1;
const UNQUOTED = 2;
const QUOTED = 3;
const QUOTE_IN_QUOTED = 4; // a quote inside a quoted field: closes it, or escapes the quote that follows
const AFTER_CR = 5;

class CsvLexer {
  /** row: the number of the first record it will see (1 unless it starts in the middle of a text). */
  constructor(row = 1) {
    this.state = RECORD_START;
    this.row = row;
  }

  /** The meaning of the next character (a string of one code unit or one code point). Throws CsvSyntaxError. */
  step(char) {
    switch (this.state) {
      case RECORD_START:
      case FIELD_START:
        if (char === '"') {
          this.state = QUOTED;
          return SKIP;
        }
        return this.outsideQuotes(char);
      case UNQUOTED:
        if (char === '"') throw this.error('a quote inside an unquoted field');
        return this.outsideQuotes(char);
      case QUOTED:
        if (char === '"') {
          this.state = QUOTE_IN_QUOTED;
          return SKIP;
        }
        return DATA;
      case QUOTE_IN_QUOTED:
        if (char === '"') {
          this.state = QUOTED;
          return DATA;
        }
        if (char === ',' || char === '\n' || char === '\r') return this.outsideQuotes(char);
        throw this.error(`${JSON.stringify(char)} after the closing quote of a field`);
      default: // AFTER_CR
        if (char === '\n') return this.endRow();
        throw this.error('a carriage return outside quotes that is not followed by a line feed');
    }
  }

  /** The meaning of the end of input: ROW_END when a record is still open, else SKIP. Throws CsvSyntaxError. */
  finish() {
    if (this.state === RECORD_START) return SKIP;
    if (this.state === QUOTED) throw this.error('a quoted field is not closed at the end of the input');
    if (this.state === AFTER_CR) throw this.error('the input ends with a carriage return that is not followed by a line feed');
    return this.endRow();
  }

  outsideQuotes(char) {
    if (char === ',') {
      this.state = FIELD_START;
      return FIELD_END;
    }
    if (char === '\n') return this.endRow();
    if (char === '\r') {
      this.state = AFTER_CR;
      return SKIP;
    }
    this.state = UNQUOTED;
    return DATA;
  }

  endRow() {
    this.state = RECORD_START;
    this.row++;
    return ROW_END;
  }

  error(problem) {
    return new CsvSyntaxError(this.row, problem);
  }
}

module.exports = { CsvLexer, DATA, SKIP, FIELD_END, ROW_END };
