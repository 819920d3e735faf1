'use strict';
// Every shape of the benchmark's family (bench/shapes.js), at a small scale: fast's stringify(), chunks() and pipeTo()
// produce native's text exactly, and its parse() builds native's value. Correctness only: the times and the blocks
// are the benchmark's (bench/shapes-bench.js). Thin slices (THIN_MS) make small documents cross the slice, batch and
// long-string boundaries that full-size ones cross at the default yieldMs.
//
// Runs on both Node lines: `node --test` on Node 24, and on Node 14, which has no node:test, with its port (the `test`
// package that node14-fibers pins): `.runtimes/node-14.21.3/bin/node js-serializers/test/shapes.test.js` once
// services/node14-fibers is set up. Node 14 syntax.
const assert = require('assert');
const { keepingSink } = require('../bench/keeping-sink');
const { stringify, chunks, pipeTo } = require('../fast-stringify');
const { parse } = require('../fast-parse');
const { SHAPES, textOf } = require('../bench/shapes');
const { firstDifference } = require('../conformance/parse-corpus');

const test = require('./test-runner');

// About 1/50 of the benchmark's sizes: 20k keys for the widest object, 400k and 320k characters for the long strings
// (past fast-stringify's LONG_STRING, so they are escaped in pieces), a tree of depth 11, the deep tree's 2000 levels.
const TEST_SCALE = 0.02;
const THIN_MS = 0.05;
// Every document here is longer than a few slices' worth of characters (loop-kit/slices.js's bound, which holds
// whatever the clock says), so each run yields at least once: the test then covers the walk across slices, not only
// the single native call a small document would get.
const assertSliced = (stats, what) => assert.ok(stats.yields >= 1, `${what}: no yield (${JSON.stringify(stats)})`);

async function collect(iterable) {
  const kept = [];
  for await (const chunk of iterable) kept.push(chunk);
  return kept;
}

/** pipeTo's output as written. */
async function piped(value, options) {
  const { sink, kept } = keepingSink();
  await pipeTo(value, sink, Object.assign({ end: true }, options));
  return kept.join('');
}

test('the shape family is deterministic: the same scale builds the same JSON text', () => {
  for (const shape of SHAPES) {
    assert.strictEqual(textOf(shape, shape.make(TEST_SCALE)), textOf(shape, shape.make(TEST_SCALE)), shape.name);
  }
});

for (const shape of SHAPES) {
  if (shape.workloads.includes('stringify')) {
    test(`stringify(), chunks() and pipeTo() equal JSON.stringify on ${shape.name}`, async () => {
      const value = shape.make(TEST_SCALE);
      const expected = JSON.stringify(value);
      const stats = {};
      assert.strictEqual(await stringify(value, { yieldMs: THIN_MS, stats }), expected, 'stringify()');
      assertSliced(stats, 'stringify()');
      assert.strictEqual((await collect(chunks(value, { yieldMs: THIN_MS }))).join(''), expected, 'chunks() joined');
      assert.strictEqual(await piped(value, { yieldMs: THIN_MS }), expected, 'pipeTo()');
    });
  }
  if (shape.workloads.includes('parse')) {
    test(`parse() equals JSON.parse on ${shape.name}`, async () => {
      const text = textOf(shape, shape.make(TEST_SCALE));
      const expected = JSON.parse(text);
      const stats = {};
      const actual = await parse(text, { yieldMs: THIN_MS, stats });
      assertSliced(stats, 'parse()');
      // firstDifference is deepStrictEqual's check made iterative (assert's recursion overflows the deep tree's 2000
      // levels), and stricter: Object.is on scalars (-0 is not 0), same prototypes, same keys in the same order.
      assert.strictEqual(firstDifference(actual, expected), null);
      assert.strictEqual(JSON.stringify(actual), JSON.stringify(expected));
    });
  }
}
