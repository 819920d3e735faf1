'use strict';
// The harness' own promises: rounds interleave the approaches after the warm-ups and keep a throw as {error}; the
// command line refuses what is not a positive integer or a value; the table aligns figures right; the summary's
// median is a run that happened; finish writes the raw results and makes a failed validation the exit status.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { tempDir } = require('@lab/test-kit');
const { interleavedRounds, option, textOption, markdownTable, median, summarizeRuns, finish } = require('..');

test('rounds run every approach one after the other, after the warm-ups, and keep a throw as an error', async () => {
  const order = [];
  const runs = await interleavedRounds({
    approaches: ['a', 'b'],
    warmups: 1,
    rounds: 2,
    progress: () => {},
    run: async (approach) => {
      order.push(approach);
      if (approach === 'b' && order.length === 6) throw new Error('b broke');
      return { ms: order.length };
    },
  });
  assert.deepStrictEqual(order, ['a', 'b', 'a', 'b', 'a', 'b']);
  assert.deepStrictEqual(runs, { a: [{ ms: 3 }, { ms: 5 }], b: [{ ms: 4 }, { error: 'b broke' }] });
});

test('the command line refuses a bad value, naming the option', () => {
  assert.strictEqual(option(['--rounds', '3'], '--rounds', 5), 3);
  assert.strictEqual(option([], '--rounds', 5), 5);
  for (const bad of ['0', '-1', '1.5', 'x', undefined]) assert.throws(() => option(['--rounds', bad], '--rounds', 5), /--rounds needs a positive integer/);
  assert.strictEqual(textOption(['--shape', 'deep'], '--shape', ''), 'deep');
  assert.throws(() => textOption(['--shape', '--json'], '--shape', ''), /--shape needs a value/);
});

test('the table aligns the named columns right and writes a missing cell as -', () => {
  assert.strictEqual(markdownTable(['name', 'ms'], [['native', 12.5], ['fast', null]], { right: ['ms'] }), [
    '| name   |   ms |',
    '|:-------|-----:|',
    '| native | 12.5 |',
    '| fast   |    - |',
  ].join('\n'));
});

test("the median is one of the runs, and the summary keeps each run's worst gap and slice", () => {
  assert.strictEqual(median([5, 1, 4, 2]), 4);
  const summary = summarizeRuns([{ ms: 3, maxGapMs: 1, maxSliceMs: 2, yields: 4 }, { ms: 1, maxGapMs: 7, maxSliceMs: 5, yields: 6 }, { ms: 2, maxGapMs: 2, maxSliceMs: 1, yields: 5 }]);
  assert.deepStrictEqual(summary, { ms: 2, maxGapMs: 7, maxSliceMs: 5, yields: 5, nativeCalls: undefined, spreadMs: [1, 3] });
  assert.strictEqual(summarizeRuns([]), null);
});

test('finish saves the raw results, prints the table, and a failed validation sets the exit status', (t) => {
  const dir = tempDir('bench-kit-');
  const printed = [];
  const saved = [];
  t.after(() => {
    process.exitCode = 0;
  });
  t.mock.method(console, 'error', () => {});
  saved.push(finish('harness-test', { figures: [1] }, { args: [], printTable: (r) => printed.push(r), failed: false, dir }));
  assert.deepStrictEqual(JSON.parse(fs.readFileSync(saved[0], 'utf8')), { figures: [1] });
  assert.deepStrictEqual(printed, [{ figures: [1] }]);
  assert.notStrictEqual(process.exitCode, 1);
  saved.push(finish('harness-test', { figures: [] }, { args: [], printTable: () => {}, failed: true, dir }));
  assert.strictEqual(process.exitCode, 1);
  assert.deepStrictEqual(fs.readdirSync(dir).length, 2);
});
