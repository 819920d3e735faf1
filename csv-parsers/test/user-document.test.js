'use strict';
// A user's CSV document's check at upload (user-document.js): the reference parser's rows hash equals the hash of
// the rows the document was generated from, and what is not a CSV document it can take is refused with its status.
const test = require('node:test');
const assert = require('node:assert');
const { checkCsvDocument } = require('../user-document');
const { csvDocument } = require('../csv-document');

test('the reference rows hash of a document is the hash of the rows it was generated from', async () => {
  const generated = csvDocument({ seed: 7, rows: 2000, chunkChars: 4096 });
  assert.deepStrictEqual(await checkCsvDocument(generated.chunks.join('')), { reference: generated.rowsHash, rows: generated.rows });
  // Where nothing runs on the document (make try, the load driver), the same check without the hash.
  assert.deepStrictEqual(await checkCsvDocument(generated.chunks.join(''), { reference: false }), { reference: null, rows: generated.rows });
});

test('empty, malformed or over the cells cap: refused with 400 naming the row, or 413 naming the cap', async () => {
  await assert.rejects(checkCsvDocument(''), (err) => err.status === 400 && /empty/.test(err.message));
  await assert.rejects(checkCsvDocument('a,b\n1,2\n3,"x'), (err) => err.status === 400 && err.details.row === 3);
  await assert.rejects(checkCsvDocument('a\rb\n'), (err) => err.status === 400 && err.details.row === 1, 'a \\r that ends no line');
  await assert.rejects(checkCsvDocument('a,b\nc,d\n', { maxCells: 4 }), (err) => err.status === 413 && err.details.limitCells === 4);
  assert.strictEqual((await checkCsvDocument('a,b\nc,d', { maxCells: 4 })).rows, 2, 'exactly at the cap');
});
