'use strict';
// fast-parse reads a text whole, in one native call in the caller's turn, when native reads it within one slice at the
// rate the module learnt in this process (document-rate.js): there is nothing to split, and the turn a first slice
// waits for would cost a small document more than its parse. Counted with the work clock of test/work-counts.js, so
// that the rates learnt are the same on any machine, never timed. A file of its own: the rate is the process's, and
// these tests start from the prior. Node 14 syntax (services/node14-fibers/test/parse-whole.test.js runs it there).
const assert = require('assert');
const { countWork } = require('./work-counts');
const { INITIAL_MS_PER_CHAR } = require('../fast-parse/sizes');
const { tree } = require('../bench/tree-families');
const test = require('./test-runner');

const FAST_PARSE = require.resolve('../fast-parse');
const { parse } = require(FAST_PARSE);

// Trees of small objects: 12 k characters (too short to teach a rate: document-rate.js' MIN_LEARN_CHARS), 76 k
// (native's 0.6 ms at the work clock's rate, 3.8 ms at the module's prior of 20 characters a microsecond) and 312 k
// (2.5 ms at the work clock's rate).
const TINY = JSON.stringify(tree('objects', 'small', 2, 7, 1));
const SMALL = JSON.stringify(tree('objects', 'small', 4, 5, 1));
const LARGER = JSON.stringify(tree('objects', 'small', 4, 6, 2));
// A tree of arrays of 1000-character strings, 2.1 M characters (17 ms at the work clock's rate), and trees of small
// arrays with seventeen times its tokens a character: 1.3 M characters, and 156 k (1.2 ms at the work clock's rate).
const LONG_STRINGS = JSON.stringify(tree('arrays', 'large', 2, 11, 3));
const DENSE = JSON.stringify(tree('arrays', 'small', 8, 5, 3));
const DENSE_SHORTER = JSON.stringify(tree('arrays', 'small', 8, 4, 3));

/** One counted parse: {value, counts, stats, turned: whether a turn of the event loop came before it resolved}. */
async function countedParse(text, yieldMs) {
  const stats = {};
  let value;
  let turned = false;
  const counts = await countWork(FAST_PARSE, async () => {
    setImmediate(() => {
      turned = true;
    });
    value = await parse(text, { yieldMs, stats });
  });
  assert.deepStrictEqual(value, JSON.parse(text));
  return { counts, stats, turned };
}

function assertWhole(name, text, run) {
  const figures = `${name}: ${JSON.stringify(run.counts)}, ${JSON.stringify(run.stats)}`;
  assert.strictEqual(run.counts.nativeCalls, 1, `not one native call: ${figures}`);
  assert.strictEqual(run.counts.nativeChars, text.length, `native did not read the text once: ${figures}`);
  assert.strictEqual(run.stats.yields, 0, `yielded: ${figures}`);
  assert.strictEqual(run.turned, false, `waited for a turn of the event loop: ${figures}`);
}

test('the first parse in a process, of a short text, is one native call in the caller\'s turn', async () => {
  assertWhole('12 k characters, yieldMs 5', TINY, await countedParse(TINY, 5));
});

test('a text that fits a slice only at the rate its own sliced parse taught is sliced once, then read whole', async () => {
  // At the prior, 76 k characters are about four slices of 1 ms (the test before taught nothing): walked in batches.
  const first = await countedParse(SMALL, 1);
  assert.ok(first.counts.nativeCalls > 1 && first.turned, `read whole at the prior: ${JSON.stringify(first.counts)}`);
  assertWhole('76 k characters, yieldMs 1, after its sliced parse taught the rate', SMALL, await countedParse(SMALL, 1));
  const larger = await countedParse(LARGER, 1);
  assert.ok(larger.stats.yields > 0, `312 k characters were read whole in a slice of 1 ms: ${JSON.stringify(larger.stats)}`);
});

/** Whether a text fits a slice of ms at the prior, the slowest rate: then it is read whole whatever its kind. */
const fitsAtPrior = (text, ms) => text.length * INITIAL_MS_PER_CHAR <= ms;

test('a text that does not fit the slice at the prior is read whole only after a text with as many tokens a character taught the rate', async () => {
  // A slice of 20 ms fits either text at the rate learnt (and handles 20 Mi characters): what decides is their kind.
  assert.ok(!fitsAtPrior(LONG_STRINGS, 20) && !fitsAtPrior(DENSE, 20), 'both texts must be past what is read whole on the rate alone');
  // The trees of small objects the test before parsed taught the rate: the long strings have fewer tokens a
  // character, and parse no slower a character.
  assertWhole('2.1 M characters of long strings, after denser texts taught the rate', LONG_STRINGS, await countedParse(LONG_STRINGS, 20));
  const dense = await countedParse(DENSE, 20);
  assert.ok(dense.counts.nativeCalls > 1 && dense.turned, `a denser text was read whole at the rate of long strings: ${JSON.stringify(dense.counts)}`);
  // Its own sliced parse taught its kind's rate.
  assertWhole('1.3 M characters of small arrays, after its sliced parse taught the rate', DENSE, await countedParse(DENSE, 20));
});

// Until 2026-11-27 only texts past 1 Mi characters were asked their kind: after long strings taught the rate, a denser
// text under that was read whole on the rate alone (0.93 M characters of small records: 4.7-5.6 ms measured in a 1 ms
// slice on Node 24; at the work clock's one rate for every kind, 156 k characters fit the 5 ms slice here).
test('a shorter denser text, after long strings taught the rate, is sliced until its own kind taught one', async () => {
  assert.ok(!fitsAtPrior(DENSE_SHORTER, 5), 'the text must be past what is read whole on the rate alone');
  await countedParse(LONG_STRINGS, 20); // whole or sliced (the tests before decide), it teaches its kind's rate
  assertWhole('2.1 M characters of long strings, its kind\'s rate taught', LONG_STRINGS, await countedParse(LONG_STRINGS, 20));
  const dense = await countedParse(DENSE_SHORTER, 5);
  assert.ok(dense.counts.nativeCalls > 1 && dense.turned, `read whole at the rate of long strings: ${JSON.stringify(dense.counts)}`);
  assertWhole('156 k characters of small arrays, after its sliced parse taught the rate', DENSE_SHORTER, await countedParse(DENSE_SHORTER, 5));
});
