'use strict';
// Rows from characters fed one at a time: the per-character work every character-loop approach shares, so that
// they differ only in how the characters reach it (async-char-streams' question).
const { CsvLexer, DATA, FIELD_END, ROW_END } = require('./csv-lexer');

class CharParser {
  constructor(row = 1) {
    this.lexer = new CsvLexer(row);
    this.row = [];
    this.field = '';
  }

  /** Takes the next character; returns the record it completes (string[]), else undefined. */
  push(char) {
    switch (this.lexer.step(char)) {
      case DATA:
        this.field += char;
        return undefined;
      case FIELD_END:
        this.row.push(this.field);
        this.field = '';
        return undefined;
      case ROW_END:
        return this.takeRow();
      default:
        return undefined;
    }
  }

  /** At the end of input: the last record if it had no line end, else undefined. Throws on an open quote. */
  finish() {
    return this.lexer.finish() === ROW_END ? this.takeRow() : undefined;
  }

  takeRow() {
    const row = this.row;
    row.push(this.field);
    this.row = [];
    this.field = '';
    return row;
  }
}

module.exports = { CharParser };
