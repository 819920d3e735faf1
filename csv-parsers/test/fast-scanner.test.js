'use strict';
// fast keeps its state, not text, across chunk boundaries: every corpus text cut in three at every pair of
// positions, straight through the scanner (no event loop, so all pairs stay quick).
const test = require('node:test');
const assert = require('node:assert');
const { FastScanner } = require('../approaches/fast-scanner');
const { CASES, MALFORMED } = require('./corpus');

function scan(chunks) {
  const scanner = new FastScanner();
  for (const chunk of chunks) scanner.write(chunk);
  return scanner.finish();
}

function* threeWaySplits(text) {
  for (let first = 0; first <= text.length; first++) {
    for (let second = first; second <= text.length; second++) yield [text.slice(0, first), text.slice(first, second), text.slice(second)];
  }
}

test('fast: every corpus case cut in three at every pair of positions gives the expected rows', () => {
  for (const { name, text, rows } of CASES) {
    for (const chunks of threeWaySplits(text)) assert.deepStrictEqual(scan(chunks), rows, `${name}: ${JSON.stringify(chunks)}`);
  }
});

test('fast: malformed input cut in three anywhere throws naming the row', () => {
  for (const { name, text, row, message } of MALFORMED) {
    for (const chunks of threeWaySplits(text)) {
      assert.throws(() => scan(chunks), (error) => error.row === row && message.test(error.message), `${name}: ${JSON.stringify(chunks)}`);
    }
  }
});

test('fast: a quoted field spanning two hundred chunks, with commas, doubled quotes and line ends', () => {
  const field = 'x,"\n'.repeat(50000).replace(/"/g, '""');
  const text = `a,"${field}",b\nc\n`;
  const chunks = text.match(/[^]{1,1000}/g);
  assert.deepStrictEqual(scan(chunks), [['a', 'x,"\n'.repeat(50000), 'b'], ['c']]);
});
