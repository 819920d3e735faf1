'use strict';
// learnt-rate.js: the rate by which fast-parse sizes its batches. Plain arithmetic, no clock: the measurements are given.
const test = require('node:test');
const assert = require('node:assert');
const { LearntRate, MIN_LEARN_CHARS } = require('../learnt-rate');

test('the first measurement replaces the prior, the next ones are averaged in', () => {
  const rate = new LearntRate(1);
  rate.add(4, 4 * MIN_LEARN_CHARS);
  assert.strictEqual(rate.measured, true);
  assert.strictEqual(rate.msPerChar, 1 / MIN_LEARN_CHARS);
  rate.add(12, 4 * MIN_LEARN_CHARS);
  assert.strictEqual(rate.msPerChar, 2 / MIN_LEARN_CHARS);
});

test('runs shorter than the minimum are pooled, not dropped', () => {
  const rate = new LearntRate(1);
  for (let i = 0; i < 7; i++) rate.add(1, MIN_LEARN_CHARS / 8);
  assert.strictEqual(rate.measured, false, 'seven eighths of the minimum teach nothing yet');
  rate.add(1, MIN_LEARN_CHARS / 8);
  assert.strictEqual(rate.measured, true);
  assert.strictEqual(rate.msPerChar, 8 / MIN_LEARN_CHARS);
});

test('a rate made a hundred times too high by one pause comes back down through batches sized by it', () => {
  const trueRate = 1e-5; // ms per character
  const rate = new LearntRate(trueRate);
  rate.add(trueRate * 100000, 100000);
  rate.add(trueRate * 4096 + 40, 4096); // a 40 ms pause inside a batch of 4096 characters
  assert.ok(rate.msPerChar > 400 * trueRate);
  // Batches sized to 2.5 ms at the learnt rate, each measured at the true rate.
  let batches = 0;
  while (rate.msPerChar > 2 * trueRate && batches < 10000) {
    const chars = Math.max(256, Math.floor(2.5 / rate.msPerChar));
    rate.add(chars * trueRate, chars);
    batches++;
  }
  assert.ok(rate.msPerChar <= 2 * trueRate, `still ${Math.round(rate.msPerChar / trueRate)} times too high after ${batches} batches`);
  assert.ok(batches < 100, `${batches} batches to recover`);
});

test('forget() makes the next measurement replace the rate', () => {
  const rate = new LearntRate(1);
  rate.add(10, MIN_LEARN_CHARS);
  rate.add(1, MIN_LEARN_CHARS / 2);
  rate.forget();
  assert.strictEqual(rate.measured, false);
  rate.add(2, MIN_LEARN_CHARS);
  assert.strictEqual(rate.msPerChar, 2 / MIN_LEARN_CHARS);
});
