'use strict';
// The child process of test/kept-shapes.test.js, run with V8's --trace-generalization and --expose-gc:
//   node --trace-generalization --expose-gc js-serializers/test/shapes-after-collection.js parse|stringify
// Runs fast-parse's parse() or fast-stringify's stringify() and chunks() on documents that take every kind of step
// of their walk (and, for stringify, documents done in one step) three times, prints AFTER_COLLECTION, collects all
// garbage twice with no call alive, and runs them once more. Each call runs on the work clock of test/work-counts.js,
// so that the passes take the same path on any machine. V8 prints a line for each field of a shape that widens (an
// integer field given a fraction, a constant field written again): a shape rebuilt from its constructor after the
// collection widens its fields once more, which the test reads after the marker. Node 14 syntax.
const assert = require('assert');
const { countWork } = require('./work-counts');
const { tree } = require('../bench/tree-families');

const AFTER_COLLECTION = '--- after the collection ---';
const FAST_PARSE = require.resolve('../fast-parse');
const FAST_STRINGIFY = require.resolve('../fast-stringify');

// space: how parse's text is printed (JSON.stringify's third argument).
const DOCUMENTS = [
  { value: tree('arrays', 'small', 2, 14, 1) }, // a tree of small arrays: parse counts brackets, parses a chain's child apart
  { value: tree('objects', 'small', 16, 3, 2) }, // small objects: parse merges batches into wide objects
  { value: tree('arrays', 'large', 8, 3, 3) }, // arrays of 1000-character strings: parse guesses batch ends
  { value: tree('objects', 'large', 8, 3, 4), space: 2 }, // large members printed a member a line: parsed apart
  { value: { id: 1, text: 'a long string, '.repeat(40000) } }, // a string longer than a batch: in pieces
  { value: tree('objects', 'large', 64, 1, 5) }, // 65 KB: stringify does it in one step
  { value: tree('objects', 'small', 4, 4, 6) }, // 16 KB: one step too
];

const RUNS = {
  parse() {
    const { parse } = require(FAST_PARSE);
    const texts = DOCUMENTS.map((doc) => JSON.stringify(doc.value, null, doc.space));
    return async () => {
      for (const text of texts) {
        let value;
        await countWork(FAST_PARSE, async () => {
          value = await parse(text, { yieldMs: 1 });
        });
        assert.deepStrictEqual(value, JSON.parse(text));
      }
    };
  },
  stringify() {
    const { stringify, chunks } = require(FAST_STRINGIFY);
    return async () => {
      for (const { value } of DOCUMENTS) {
        let text;
        let pieces = '';
        await countWork(FAST_STRINGIFY, async () => {
          text = await stringify(value, { yieldMs: 1 });
          for await (const chunk of chunks(value, { yieldMs: 1 })) pieces += chunk;
        });
        assert.strictEqual(text, JSON.stringify(value));
        assert.strictEqual(pieces, text);
      }
    };
  },
};

async function main(module) {
  const runAll = RUNS[module]();
  for (let pass = 0; pass < 3; pass++) await runAll();
  process.stdout.write(`${AFTER_COLLECTION}\n`);
  global.gc();
  global.gc();
  await runAll();
}

if (require.main === module) {
  const name = process.argv[2];
  if (!Object.prototype.hasOwnProperty.call(RUNS, name)) throw new Error(`usage: shapes-after-collection.js ${Object.keys(RUNS).join('|')}`);
  main(name).catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  });
}

module.exports = { AFTER_COLLECTION };
