'use strict';
// bench/v8-steps.js finds the steps on the right part of a document: the widest object, wherever it is nested, and the
// flat string only for an approach that returns one. The times themselves are the benchmark's.
const test = require('node:test');
const assert = require('node:assert');
const { stringifySteps, parseSteps } = require('../bench/v8-steps');

const keyed = (count) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
const document = () => ({ meta: keyed(3), data: [{ small: keyed(10) }, { wide: keyed(2000) }], list: [1, 2, 3] });

test('stringify: the keys of the widest nested object, and the flat string only for an approach that returns one', () => {
  const output = JSON.stringify(document());
  const chunked = stringifySteps(document(), { flattens: false, output });
  assert.deepStrictEqual(chunked.map((s) => [s.keys, s.spread === true, s.extra === true]), [[2000, false, true], [2000, true, true]]);
  const flat = stringifySteps(document(), { flattens: true, output });
  assert.deepStrictEqual(flat.map((s) => s.keys || s.chars), [2000, 2000, output.length]);
  // An object no wider than one batch is never split: no copy of its keys.
  assert.deepStrictEqual(stringifySteps({ small: keyed(10) }, { flattens: false, output: '' }).map((s) => s.spread === true || s.extra === true), [false]);
  assert.ok(flat.every((s) => s.ms >= 0 && typeof s.step === 'string'));
});

test('parse: growing the widest nested object, its longest insertion, and listing and inserting all of them when it spans batches; nothing without objects', () => {
  const steps = parseSteps(document(), { splitChars: 1000 });
  assert.deepStrictEqual(steps.map((s) => [s.keys, s.spread === true, s.extra === true]), [[2000, false, false], [2000, true, true], [2000, true, true]]);
  assert.deepStrictEqual(steps.map((s) => s.step.split(' ')[0]), ['growing', 'listing', 'inserting']);
  assert.ok(steps.every((s) => s.ms >= 0 && /2000 keys/.test(s.step)));
  // One batch holds it: native parses it whole, nothing is inserted from JavaScript.
  assert.deepStrictEqual(parseSteps(document()).map((s) => [s.keys, s.extra === true]), [[2000, false]]);
  assert.deepStrictEqual(parseSteps([1, 'two', [3]]), []);
});

test('parse: a string longer than a batch holds costs one more copy of its text; a shorter one, nothing', () => {
  const value = { id: 1, body: 'a "quoted" line\n'.repeat(2000), note: 'short' };
  const text = JSON.stringify(value.body);
  const strings = (options) => parseSteps(value, options).filter((s) => s.chars !== undefined);
  const [step] = strings({ splitChars: 1000 });
  assert.deepStrictEqual([step.chars, step.spread, step.extra], [text.length, true, true]);
  assert.ok(step.ms >= 0 && /longest string/.test(step.step), step.step);
  assert.deepStrictEqual(strings({ splitChars: text.length }), []);
  assert.deepStrictEqual(strings(), []);
});
