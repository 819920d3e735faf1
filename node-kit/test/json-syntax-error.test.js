'use strict';
// locateJsonError agrees with JSON.parse on which texts are JSON (the parse corpus every parser of the lab is held
// to, torture texts, seeded random documents and every one-character mutation of some), and places the first error
// where a reader would look: line, column, excerpt.
const test = require('node:test');
const assert = require('node:assert');
const { locateJsonError } = require('../json-syntax-error');
const { valid, invalid, tortureTexts, randomText } = require('@lab/js-serializers/conformance/parse-corpus');
const { mulberry32 } = require('@lab/payloads');

const parses = (text) => {
  try {
    JSON.parse(text);
    return true;
  } catch (error) {
    return false;
  }
};

test('null for every text JSON.parse reads, an error for every text it refuses (the parse corpus)', () => {
  for (const { name, text } of valid.concat(tortureTexts())) assert.strictEqual(locateJsonError(text), null, name);
  for (const testCase of invalid) {
    const text = testCase.text;
    const error = locateJsonError(text);
    assert.ok(error, `${testCase.name}: no error found`);
    assert.ok(error.offset >= 0 && error.offset <= text.length, testCase.name);
  }
});

test('agrees with JSON.parse on seeded random documents and every kind of one-character mutation of them', () => {
  const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', '0', '-', '.', 'e', 't', 'n', ' ', '\n', 'x', '\u0001', 'u'];
  for (let seed = 1; seed <= 40; seed++) {
    const text = randomText(seed, 200);
    assert.strictEqual(locateJsonError(text), null, `seed ${seed}`);
    const random = mulberry32(seed);
    for (let k = 0; k < 60; k++) {
      const at = Math.floor(random() * (text.length + 1));
      const ch = alphabet[Math.floor(random() * alphabet.length)];
      const kind = k % 3;
      const mutated = kind === 0 ? text.slice(0, at) + ch + text.slice(at) : kind === 1 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + ch + text.slice(at + 1);
      assert.strictEqual(locateJsonError(mutated) === null, parses(mutated), `seed ${seed}, mutation ${k}: ${JSON.stringify(mutated.slice(Math.max(0, at - 10), at + 10))}`);
    }
  }
});

test('line, column and excerpt of the first error, in characters, counting lines from 1', () => {
  assert.deepStrictEqual(locateJsonError('{\n  "a": 1,\n  "b": tru\n}'), { line: 3, column: 8, offset: 19, excerpt: '{\n  "a": 1,\n  "b": tru\n}', what: "'t' where a value was expected" });
  const missingComma = locateJsonError('[1,\n2\n3]');
  assert.deepStrictEqual([missingComma.line, missingComma.column, missingComma.what], [3, 1, "'3' where ',' or ']' was expected"]);
  const end = locateJsonError('{"a": [1, 2');
  assert.deepStrictEqual([end.line, end.column, end.what], [1, 12, "the end of the text where ',' or ']' was expected"]);
  const control = locateJsonError('["a\u0001b"]');
  assert.match(control.what, /a control character \(U\+0001\) inside a string/);
  const far = locateJsonError(`[${'1,'.repeat(100000)}x]`);
  assert.strictEqual(far.column, 200002);
  assert.ok(far.excerpt.length <= 48 && far.excerpt.includes('x]'), far.excerpt);
  assert.match(locateJsonError('{} []').what, /after the end of the document/);
  assert.match(locateJsonError('{a: 1}').what, /where a key \(a string in double quotes\) was expected/);
});
