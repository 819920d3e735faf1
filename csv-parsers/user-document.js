'use strict';
// A user's own CSV document (PUT /documents with Content-Type: text/csv, node-kit/document-upload.js): checked once
// when it is stored, by the reference parser, whose rows hash is what every csv run on it is checked against.
//
// The reference is the lab's in-memory parse, `memory`'s scanner (approaches/fast-scanner.js), not csv-parse:
// - it implements this folder's CSV rules (README.md), which every approach is tested on; csv-parse departs from them
//   (it takes a `\r` that ends no line as data), so with csv-parse as the reference a file our rules refuse would be
//   stored and then fail in all nine other approaches, and one it refuses would never reach them;
// - it needs no library, so the load driver, which has no csv-parse, refuses exactly what the services refuse;
// - it is the fastest parse the lab has (about 30 ms for 5 MB), and its errors name the record.
// What it costs: `memory` and `fast` share the scanner, so on a user's document their validation is only as
// independent as the corpus tests that check the scanner; the seven character-loop approaches (csv-lexer.js) and
// csv-parse are independent implementations checked against it.
const { badRequest, HttpError } = require('@lab/node-kit');
const { nextTurn } = require('@lab/loop-kit/event-loop');
const { FastScanner } = require('./approaches/fast-scanner');
const { CsvSyntaxError } = require('./csv-error');
const { countCells } = require('./upload-memory');
const { rowsHashSliced } = require('./rows-hash');
const { pieces } = require('@lab/js-serializers/text-hash');

const REFERENCE = 'memory';
// The scanner gets the text in slices of this many characters with a turn of the event loop between them, so that a
// 64 MB document does not block the service for the whole parse (about 6 ms a slice).
const SLICE_CHARS = 1 << 20;

/**
 * text: the document (a string). maxCells: the most cells it may have (countCells' upper bound; Infinity: no cap):
 * a run holds every parsed row, so the cells, not the bytes, bound its memory (upload-memory.js). Resolves
 * {reference: rows hash, rows}, or rejects with 400 (empty, malformed: `row` names the record) or 413 (`limitCells`).
 * reference: false leaves the rows hash out (null) for a process that runs nothing on the document (make try, the
 * load driver).
 */
async function checkCsvDocument(text, { maxCells = Infinity, reference = true } = {}) {
  if (text.length === 0) throw badRequest('the CSV document is empty');
  const cells = countCells(text) + 1; // the last cell ends with the text, not with a separator
  if (cells > maxCells) throw new HttpError(413, `the CSV document has more than ${maxCells} cells (counted as its commas and line breaks, plus one)`, { limitCells: maxCells });
  const scanner = new FastScanner();
  let rows;
  try {
    for (const slice of pieces(text, SLICE_CHARS)) {
      scanner.write(slice);
      await nextTurn();
    }
    rows = scanner.finish();
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw badRequest(`the document is not CSV (${REFERENCE}'s rules, csv-parsers/README.md): ${error.message}`, { row: error.row });
    throw error;
  }
  return { reference: reference ? await rowsHashSliced(rows) : null, rows: rows.length };
}

/** readDocument's csv check (node-kit/document-upload.js) with a cap on cells, with the reference or without it. */
const csvDocumentCheck = ({ maxCells, reference } = {}) => (text) => checkCsvDocument(text, { maxCells, reference });

module.exports = { checkCsvDocument, csvDocumentCheck, REFERENCE };
