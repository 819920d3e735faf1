'use strict';
// The scanner behind `fast`: the CSV rules of csv-lexer.js applied to whole chunks with indexOf and charCodeAt
// instead of one call per character. A complete line without a quote or a carriage return is split natively, as
// in memory.js; anything else (a quoted field, a \r\n, the partial line a chunk ends with) goes through a small
// state machine that consumes the chunk field by field and keeps its state, not text, between chunks: a quoted
// field, a `""` pair or a `\r\n` cut by a chunk boundary resumes in the next chunk, and no text is scanned twice.
const { CsvSyntaxError } = require('../csv-error');

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;
const NONE = Infinity;

const RECORD_START = 0;
const FIELD_START = 1;
const UNQUOTED = 2;
const QUOTED = 3;
const QUOTE_IN_QUOTED = 4;
const AFTER_CR = 5;

function nextIndex(text, char, from) {
  const at = text.indexOf(char, from);
  return at < 0 ? NONE : at;
}

class FastScanner {
  constructor() {
    this.rows = [];
    this.state = RECORD_START;
    this.row = [];
    this.field = '';
  }

  /** Parses the next chunk; completed records are appended to this.rows. Throws CsvSyntaxError. */
  write(text) {
    let at = this.state === RECORD_START ? 0 : this.continueRecord(text, 0);
    let nextQuote = -1;
    let nextCR = -1;
    while (at < text.length) {
      const lineFeed = nextIndex(text, '\n', at);
      if (lineFeed === NONE) {
        this.continueRecord(text, at); // the chunk ends inside this record
        return;
      }
      if (nextQuote < at) nextQuote = nextIndex(text, '"', at);
      if (nextCR < at) nextCR = nextIndex(text, '\r', at);
      if (nextQuote > lineFeed && nextCR > lineFeed) {
        this.rows.push(text.slice(at, lineFeed).split(','));
        at = lineFeed + 1;
      } else if (nextQuote > lineFeed && nextCR === lineFeed - 1) {
        this.rows.push(text.slice(at, nextCR).split(','));
        at = lineFeed + 1;
      } else {
        at = this.continueRecord(text, at);
      }
    }
  }

  /** The end of input: the last record if it has no line end. Throws on an open quote or a trailing \r. */
  finish() {
    if (this.state === QUOTED) throw this.error('a quoted field is not closed at the end of the input');
    if (this.state === AFTER_CR) throw this.error('the input ends with a carriage return that is not followed by a line feed');
    if (this.state !== RECORD_START) this.endRecord();
    return this.rows;
  }

  /**
   * Consumes text from `at` until the current record ends (returns the index after its line end) or the text ends
   * (returns text.length, the state saved for the next chunk).
   */
  continueRecord(text, at) {
    const end = text.length;
    while (at < end) {
      switch (this.state) {
        case RECORD_START:
        case FIELD_START:
          if (text.charCodeAt(at) === QUOTE) {
            this.state = QUOTED;
            at++;
          } else {
            this.state = UNQUOTED;
          }
          break;
        case UNQUOTED: {
          let stop = at;
          let code = 0;
          while (stop < end && (code = text.charCodeAt(stop)) !== COMMA && code !== LF && code !== CR && code !== QUOTE) stop++;
          this.field += text.slice(at, stop);
          if (stop === end) return end;
          if (code === QUOTE) throw this.error('a quote inside an unquoted field');
          at = this.afterField(code, stop);
          if (this.state === RECORD_START) return at;
          break;
        }
        case QUOTED: {
          const quote = text.indexOf('"', at);
          if (quote < 0) {
            this.field += text.slice(at);
            return end;
          }
          this.field += text.slice(at, quote);
          this.state = QUOTE_IN_QUOTED;
          at = quote + 1;
          break;
        }
        case QUOTE_IN_QUOTED: {
          const code = text.charCodeAt(at);
          if (code === QUOTE) {
            this.field += '"';
            this.state = QUOTED;
            at++;
            break;
          }
          if (code !== COMMA && code !== LF && code !== CR) throw this.error(`${JSON.stringify(text[at])} after the closing quote of a field`);
          at = this.afterField(code, at);
          if (this.state === RECORD_START) return at;
          break;
        }
        default: // AFTER_CR
          if (text.charCodeAt(at) !== LF) throw this.error('a carriage return outside quotes that is not followed by a line feed');
          this.endRecord();
          return at + 1;
      }
    }
    return end;
  }

  /** After a field, at the comma, line feed or carriage return `code` found at `at`: returns where to go on. */
  afterField(code, at) {
    if (code === COMMA) {
      this.row.push(this.field);
      this.field = '';
      this.state = FIELD_START;
    } else if (code === LF) {
      this.endRecord();
    } else {
      this.state = AFTER_CR;
    }
    return at + 1;
  }

  endRecord() {
    this.row.push(this.field);
    this.rows.push(this.row);
    this.row = [];
    this.field = '';
    this.state = RECORD_START;
  }

  error(problem) {
    return new CsvSyntaxError(this.rows.length + 1, problem);
  }
}

module.exports = { FastScanner };
