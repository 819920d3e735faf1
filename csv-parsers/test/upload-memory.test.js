'use strict';
// upload-memory.js' cell count is the bound the upload caps stand on: it must never fall short of the cells (and so
// of the rows) an approach returns, whatever the quoting, line ends or chunk boundaries.
const test = require('node:test');
const assert = require('node:assert');
const { countCells, parseBound } = require('../upload-memory');
const { CASES } = require('./corpus');

test('countCells + 1 is at least the cells and the rows of every corpus text, counted in one piece or per chunk', () => {
  for (const { name, text, rows } of CASES) {
    const cells = rows.reduce((sum, row) => sum + row.length, 0);
    const bound = countCells(text) + 1;
    assert.ok(bound >= cells && bound >= rows.length, `${name}: counted ${bound}, the text has ${cells} cells in ${rows.length} rows`);
    for (let cut = 0; cut <= text.length; cut++) {
      assert.strictEqual(countCells(text.slice(0, cut)) + countCells(text.slice(cut)), bound - 1, `${name} cut at ${cut}`);
    }
  }
  assert.strictEqual(countCells('a,"b,\r\nc"\n'), 5); // the quoted comma, carriage return and line feed count too
});

test('parseBound grows with bytes and cells: 40 B a byte, 240 B a cell, 1 MiB a parse', () => {
  assert.strictEqual(parseBound({ bytes: 0, cells: 0 }), 1024 * 1024);
  assert.strictEqual(parseBound({ bytes: 1000, cells: 10 }) - parseBound({ bytes: 0, cells: 0 }), 40 * 1000 + 240 * 10);
});
