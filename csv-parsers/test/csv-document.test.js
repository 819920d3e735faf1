'use strict';
// The generated document: async-char-streams' dimensions, deterministic, every tricky case present, chunked as a stream
// would be; and rowsHash, the one definition of "the same rows".
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('crypto');
const { csvDocument, csvDocumentInSlices } = require('../csv-document');
const { countTurns } = require('@lab/test-kit/count-turns');
const { rowsHash, rowsHashSliced } = require('../rows-hash');

const document = csvDocument();
const text = document.chunks.join('');

test('the default document has the async-char-streams dimensions: 50 002 rows, about 5.4 MB, about 82 chunks of 64 KiB', () => {
  assert.strictEqual(document.rows, 50002);
  assert.ok(document.bytes > 5.3e6 && document.bytes < 5.5e6, `${document.bytes} bytes`);
  assert.strictEqual(document.bytes, Buffer.byteLength(text, 'utf8'));
  assert.strictEqual(document.chars, text.length);
  assert.ok(document.chunks.length >= 80 && document.chunks.length <= 84, `${document.chunks.length} chunks`);
  assert.ok(document.chunks.every((chunk) => chunk.length <= 65536 && chunk.length > 0));
  assert.ok(text.startsWith('id,name,email,city,amount,date,status,note\n'));
  assert.ok(text.endsWith('\n'));
});

test('no chunk ends between the halves of a surrogate pair', () => {
  for (const chunk of csvDocument({ rows: 3000, chunkChars: 7 }).chunks) {
    const last = chunk.charCodeAt(chunk.length - 1);
    assert.ok(!(last >= 0xd800 && last <= 0xdbff), JSON.stringify(chunk));
  }
});

test('the document holds every case a parser must get right', () => {
  const has = (pattern, what) => assert.match(text, pattern, what);
  has(/,"[^"\n]*,[^"\n]*",/, 'a quoted field with a comma');
  has(/""[^"]/, 'a doubled quote');
  has(/"[^"\n,]*\n[^"\n,]*"/, 'a quoted \\n');
  has(/"[^"\r,]*\r\n[^"\r,]*"/, 'a quoted \\r\\n');
  has(/,"[A-Za-z]+",/, 'a quoted field that needs no quotes');
  has(/,,/, 'an empty field');
  has(/[\u0080-\uffff]/, 'non-ASCII text');
  has(/[\ud800-\udbff][\udc00-\udfff]/, 'an astral character');
});

test('the same seed gives the same document; another seed or size another; chunk size changes only the chunks', () => {
  const small = csvDocument({ seed: 7, rows: 500 });
  assert.deepStrictEqual(csvDocument({ seed: 7, rows: 500 }), small);
  assert.notStrictEqual(csvDocument({ seed: 8, rows: 500 }).rowsHash, small.rowsHash);
  assert.notStrictEqual(csvDocument({ seed: 7, rows: 501 }).rowsHash, small.rowsHash);
  const rechunked = csvDocument({ seed: 7, rows: 500, chunkChars: 100 });
  assert.strictEqual(rechunked.rowsHash, small.rowsHash);
  assert.strictEqual(rechunked.chunks.join(''), small.chunks.join(''));
  assert.ok(rechunked.chunks.length > small.chunks.length);
});

test('one row is just the header', () => {
  const header = csvDocument({ rows: 1 });
  assert.deepStrictEqual(header.chunks, ['id,name,email,city,amount,date,status,note\n']);
  assert.strictEqual(header.rowsHash, rowsHash([['id', 'name', 'email', 'city', 'amount', 'date', 'status', 'note']]));
});

test('invalid options throw', () => {
  assert.throws(() => csvDocument({ rows: 0 }), TypeError);
  assert.throws(() => csvDocument({ seed: -1 }), TypeError);
  assert.throws(() => csvDocument({ chunkChars: 1 }), TypeError);
  assert.throws(() => csvDocument({ rows: 1.5 }), TypeError);
});

test('rowsHash is sha256 over each row as JSON plus a line feed, in one go or in slices', async () => {
  const rows = [['a', 'b'], [''], ['x "y"', 'é😀\n']];
  const expected = crypto.createHash('sha256').update('["a","b"]\n[""]\n["x \\"y\\"","é😀\\n"]\n').digest('hex');
  assert.strictEqual(rowsHash(rows), expected);
  assert.strictEqual(await rowsHashSliced(rows), expected);
  assert.notStrictEqual(rowsHash([['a,b']]), rowsHash([['a', 'b']]));
  const many = Array.from({ length: 10000 }, (_, i) => [String(i), 'x']);
  assert.strictEqual(await rowsHashSliced(many, { yieldMs: 0 }), rowsHash(many));
});

test('a CSV document built in slices equals the one built at once, with a turn of the loop after every row', async () => {
  const options = { seed: 7, rows: 500, chunkChars: 100 };
  const stop = countTurns();
  const document = await csvDocumentInSlices(options, { yieldMs: 1e-9 });
  const turns = stop();
  assert.deepStrictEqual(document, csvDocument(options));
  assert.ok(turns >= options.rows, `${turns} turns of the event loop for ${options.rows} rows`);
});
