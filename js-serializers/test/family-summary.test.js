'use strict';
// The benchmarks' summary line per family (bench/family-summary.js): per approach, the worst ratio over the family's
// documents of 1 MB and more and over the smaller ones apart, the worst block over all, native's worst block last; a
// document whose output differed is counted as FAILED, never as a ratio. Node 14 syntax.
const assert = require('assert');
const test = require('./test-runner');
const { summaryLines, SMALL_BYTES } = require('../bench/family-summary');

const doc = (family, bytes, nativeBlockMs, approaches) => ({ family, bytes, nativeBlockMs, approaches });

test('one line per family, in the order the documents came, with the worst of each figure', () => {
  const lines = summaryLines([
    doc('trees', SMALL_BYTES, 30, { chunks: { ratio: 1.2, blockMs: 6 }, parse: { ratio: 1.1, blockMs: 4 } }),
    doc('corpus: emoji data', 1000, 2, { chunks: { ratio: 2.5, blockMs: 1.5 }, parse: { ratio: 3, blockMs: 1 } }),
    doc('trees', 5 * SMALL_BYTES, 40, { chunks: { ratio: 1.4, blockMs: 5 }, parse: { ratio: 1.05, blockMs: 9.25 } }),
    doc('trees', 100, 1, { chunks: { ratio: 3.5, blockMs: 0.5 }, parse: { ratio: 0.9, blockMs: null } }),
  ]);
  assert.strictEqual(lines.length, 4);
  assert.deepStrictEqual(lines[0].split(/ {2,}/), ['family', 'chunks', 'parse', 'native']);
  assert.deepStrictEqual(lines[2].split(/ +/), ['trees', '1.40x', '3.50x', '6.0ms', '1.10x', '0.90x', '9.3ms', '40.0ms']);
  assert.deepStrictEqual(lines[3].split(/ +/), ['corpus:', 'emoji', 'data', '-', '2.50x', '1.5ms', '-', '3.00x', '1.0ms', '2.0ms']);
});

test('a document whose output differed makes its approach\'s cell FAILED in that family, and only there', () => {
  const lines = summaryLines([
    doc('a', SMALL_BYTES, 10, { peer: { ratio: null, blockMs: null, failed: true }, fast: { ratio: 1.2, blockMs: 5 } }),
    doc('a', SMALL_BYTES, 10, { peer: { ratio: 2, blockMs: 7 }, fast: { ratio: 1.3, blockMs: 6 } }),
    doc('b', SMALL_BYTES, 10, { peer: { ratio: 2, blockMs: 7 }, fast: { ratio: 1.3, blockMs: 6 } }),
  ]);
  assert.match(lines[2], /^a +1 FAILED +1\.30x +- +6\.0ms +10\.0ms$/);
  assert.match(lines[3], /^b +2\.00x +- +7\.0ms +1\.30x +- +6\.0ms +10\.0ms$/);
});

test('the quick benchmark compares pipeTo() with native\'s text written to a sink, and the others with native alone', () => {
  const { render } = require('../bench/shapes-quick');
  const approach = (ms) => ({ ms: [ms], blockMs: [1], verified: true });
  const member = {
    family: 'trees',
    bytes: SMALL_BYTES,
    approaches: { native: approach(10), 'native write': approach(12), chunks: approach(11), pipeTo: approach(15), 'native parse': approach(20), parse: approach(30) },
  };
  const cells = render({ members: [member] }).split('\n')[2].split(/ +/);
  assert.deepStrictEqual(cells, ['trees', '1.10x', '-', '1.0ms', '1.25x', '-', '1.0ms', '1.50x', '-', '1.0ms', '1.0ms']);
});
