'use strict';
// The one reading of a JSON text: stopped after any number of characters and taken up again, it finds what it finds
// in one go (error, depth, counts, findings), reading no more than it was asked for, give or take a token's last
// few characters; its counts are the values JSON.parse makes; a text of nothing but `[` costs it a byte a level.
const test = require('node:test');
const assert = require('node:assert');
const { JsonTextScan } = require('../json-text-scan');
const { valid, invalid, tortureTexts, randomText } = require('@lab/js-serializers/conformance/parse-corpus');
const { mulberry32 } = require('@lab/payloads');

// The longest a step may run past what it was given: the rest of a \u escape or of a literal.
const OVERRUN = 6;

function inSteps(text, chars) {
  const scan = new JsonTextScan(text);
  for (let guard = 0; ; guard++) {
    const from = scan.at;
    if (scan.step(chars)) break;
    assert.ok(scan.at - from <= chars + OVERRUN && scan.at > from, `a step of ${chars} read ${scan.at - from}`);
    assert.ok(guard <= text.length, 'no progress');
  }
  return scan.result();
}

// Texts a step of one character can walk in a moment; the corpus' larger ones (up to 20 MB) are read in one go by the
// other tests of node-kit and js-serializers.
const SMALL = 20000;

function texts() {
  const all = valid.concat(invalid).concat(tortureTexts()).map((c) => c.text).filter((text) => text.length <= SMALL);
  for (let seed = 1; seed <= 12; seed++) {
    const text = randomText(seed, 120);
    const random = mulberry32(seed);
    all.push(text);
    for (let k = 0; k < 20; k++) {
      const at = Math.floor(random() * text.length);
      all.push(text.slice(0, at) + '["\\u12', text.slice(0, at) + text.slice(at + 1), text.slice(0, at));
    }
  }
  return all.concat(['{"a\\u00e9": [1e5, -0, "\\ud800", 9007199254740993], "a\\u00e9": 1.0}', '1e', '-', '"abc\\', '[1.]', 'tru', '   ']);
}

test('taken in steps of any size, the scan finds what it finds in one go, and a step reads what it was given', () => {
  for (const text of texts()) {
    const whole = new JsonTextScan(text).run().result();
    for (const chars of [1, 2, 3, 5, 17]) assert.deepStrictEqual(inSteps(text, chars), whole, `${JSON.stringify(text.slice(0, 60))} in steps of ${chars}`);
  }
});

test("its counts are the values of JSON.parse's value, and its depth the deepest nesting", () => {
  const countValues = (value, counts) => {
    if (Array.isArray(value)) {
      counts.arrays++;
      value.forEach((v) => countValues(v, counts));
    } else if (value !== null && typeof value === 'object') {
      counts.objects++;
      for (const key of Object.keys(value)) {
        counts.members++;
        countValues(value[key], counts);
      }
    } else if (typeof value === 'string') counts.strings++;
    else counts.scalars++;
    return counts;
  };
  for (const { name, text } of valid) {
    const { counts, nodes, findings, depth } = new JsonTextScan(text).run().result();
    if (findings.some((f) => f.topic === 'duplicate-key')) continue; // JSON.parse keeps one member of each name
    if (depth > 1000) continue; // deeper than countValues' recursion goes
    assert.deepStrictEqual(counts, countValues(JSON.parse(text), { objects: 0, arrays: 0, members: 0, strings: 0, scalars: 0 }), name);
    assert.strictEqual(nodes, counts.objects + counts.arrays + counts.strings + counts.scalars);
  }
  assert.strictEqual(new JsonTextScan('[[], {"a": [[1]]}]').run().result().depth, 4);
  assert.strictEqual(new JsonTextScan('"[[["').run().result().depth, 0);
});

test('containers past framesDepth keep their kind only: a million unclosed [ hold a byte each', () => {
  const scan = new JsonTextScan('['.repeat(1e6), { framesDepth: 50 }).run();
  assert.strictEqual(scan.frames.length, 50);
  assert.ok(scan.kinds.length <= 2 * 1e6, `${scan.kinds.length} bytes of kinds`);
  assert.deepStrictEqual(scan.result().error, { offset: 1e6, what: "the end of the text where a value or ']' was expected" });
  assert.strictEqual(scan.result().depth, 1e6);
});
