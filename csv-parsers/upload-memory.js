'use strict';
// What one POST /csv parse may hold on the heap, as a bound its two caps make true by construction. A parse holds
// what it built from the body's bytes (the decoded text, the fields' characters) and, per cell, a string and a slot
// in a row; every row has at least one cell. Bytes are capped as they arrive; cells are counted, before any approach
// sees the text, as an upper bound that costs three native scans of each chunk: every comma, line feed and carriage
// return may end a cell, plus the last one (a quoted comma or line break is counted too, so the count never falls
// short). The body cannot hold more than maxBytes bytes and maxCells cells, so no parse holds more than
// parseBound({bytes: maxBytes, cells: maxCells}), whatever the rows look like.
//
// The costs are the worst any approach showed, measured by bench/upload-memory.js (Node 24.21.0, x64, 2026-11-26:
// live heap after a full collection at the end of each parse, every approach on every shape), with a margin:
// - per byte: 33.0 for the character-loop approaches (sync, async, ...) on one long field, which they build a
//   character at a time (`field += char`), a 32-byte V8 cons string per character until the field is flattened;
//   the text itself and the whole-text approaches (memory, fast, csv-parse) hold at most 3.0;
// - per cell: 197 for the character-loop approaches and csv-parse on empty lines (a new `[]` gets 16 slots on its
//   first push); 44.7 for memory and fast, which split lines natively.
// The lowest ratio of this bound to what a parse held, over every approach and shape, is 1.23 (a long field).
// Counting cells as separators over-counts quoted fields, which only makes the bound safer.

const PER_BYTE = 40;
const PER_CELL = 240;
const PER_PARSE = 1024 * 1024; // a parser's own state, a chunk in flight, the answer

const SEPARATORS = [',', '\n', '\r'];

/** The separators in text (commas, line feeds, carriage returns): a body's cells are at most their sum plus one. */
function countCells(text) {
  let separators = 0;
  // indexOf is native and vectorised: three scans cost half of one charCodeAt loop.
  for (const separator of SEPARATORS) {
    for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + 1)) separators++;
  }
  return separators;
}

/** The most heap, in bytes, a parse of a body of `bytes` bytes and at most `cells` cells may hold, any approach. */
const parseBound = ({ bytes, cells }) => PER_BYTE * bytes + PER_CELL * cells + PER_PARSE;

module.exports = { countCells, parseBound, PER_BYTE, PER_CELL, PER_PARSE };
