'use strict';
// The child process of test/kept-shapes.test.js, run with V8's --trace-generalization and --expose-gc: parses texts
// that take every kind of step of fast-parse's walk (batches counted, scanned and guessed, members apart, a long
// string in pieces, batches merged into an object) three times, prints AFTER_COLLECTION, collects all garbage twice
// with no parse alive, and parses them once more. Each parse runs on the work clock of test/work-counts.js, so that
// the passes take the same path on any machine. V8 prints a line for each field of a shape that widens (an integer
// field given a fraction, a constant field written again): a shape rebuilt from its constructor after the
// collection widens its fields once more, which the test reads after the marker. Node 14 syntax.
const assert = require('assert');
const { countWork } = require('./work-counts');
const { tree } = require('../bench/tree-families');

const FAST_PARSE = require.resolve('../fast-parse');
const { parse } = require(FAST_PARSE);
const AFTER_COLLECTION = '--- after the collection ---';

const TEXTS = [
  JSON.stringify(tree('arrays', 'small', 2, 14, 1)), // a tree of small arrays: bracket counts, a chain apart
  JSON.stringify(tree('objects', 'small', 16, 3, 2)), // small objects: batches merged into wide objects
  JSON.stringify(tree('arrays', 'large', 8, 3, 3)), // arrays of 1000-character strings: guessed batch ends
  JSON.stringify(tree('objects', 'large', 8, 3, 4), null, 2), // large members, printed a member a line: members apart
  JSON.stringify({ id: 1, text: 'a long string, '.repeat(40000) }), // a string longer than a batch: in pieces
];

async function parseAll() {
  for (const text of TEXTS) {
    let value;
    await countWork(FAST_PARSE, async () => {
      value = await parse(text, { yieldMs: 1 });
    });
    assert.deepStrictEqual(value, JSON.parse(text));
  }
}

async function main() {
  for (let pass = 0; pass < 3; pass++) await parseAll();
  process.stdout.write(`${AFTER_COLLECTION}\n`);
  global.gc();
  global.gc();
  await parseAll();
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  });
}

module.exports = { AFTER_COLLECTION };
