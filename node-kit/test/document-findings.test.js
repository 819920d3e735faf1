'use strict';
// The scan of a user's JSON document for what runtimes may treat differently: each topic found where it is, with
// its count; nothing in a clean document or in strings that only look like the topics; and Node's details true.
const test = require('node:test');
const assert = require('node:assert');
const { scanFindings, describeFindings, TOPICS, NODE_DETAILS } = require('../document-findings');

const only = (text) => scanFindings(text).map((f) => [f.topic, f.path, f.count]);

test('a clean document has no findings', () => {
  assert.deepStrictEqual(scanFindings('{"a": [1, -2, 0.5, 1e+21, 9007199254740991, -9007199254740991, "x", true, null], "b": {}}'), []);
  assert.deepStrictEqual(scanFindings('"\\ud83d\\ude00 and 😀"'), []);
});

test('integers beyond 2^53 - 1, with the pointer of the first', () => {
  assert.deepStrictEqual(only('{"id": [1, 9007199254740992, -12345678901234567890]}'), [['large-integer', '/id/1', 2]]);
  assert.deepStrictEqual(only('9007199254740993'), [['large-integer', '', 1]]);
  // Not integers by their text: a fraction or an exponent makes a double, whatever its size.
  assert.deepStrictEqual(only('[1e300, 12345678901234567890.5]'), [['number-format', '/0', 2]]);
});

test('-0 in any spelling', () => {
  assert.deepStrictEqual(only('[0, -0, {"x": -0.0}, -0e3]'), [['negative-zero', '/1', 3]]);
});

test('duplicate keys in one object, not across objects; the pointer names the repeated member', () => {
  assert.deepStrictEqual(only('[{"a": 1}, {"a": 2}]'), []);
  assert.deepStrictEqual(only('[{"a": 1, "b": {"a": 1}, "a": 3, "\\u0061": 4}]'), [['duplicate-key', '/0/a', 2]]);
});

test('lone surrogates, escaped high or low, in values and keys', () => {
  assert.deepStrictEqual(only('{"s": ["ok", "\\ud800x"]}'), [['lone-surrogate', '/s/1', 1]]);
  assert.deepStrictEqual(only('{"\\udc00": 1, "t": "\\ud800"}'), [['lone-surrogate', '/\udc00', 2]]);
  assert.deepStrictEqual(only('["\\ud800\\ud800\\udc00"]'), [['lone-surrogate', '/0', 1]]);
});

test('numbers not written in their shortest form', () => {
  assert.deepStrictEqual(only('{"a": [1.0, 1e2, 1.50, 1E+21, 0.1, 1e400, -1e400]}'), [['number-format', '/a/0', 6]]);
});

test('look-alikes inside strings are not findings', () => {
  assert.deepStrictEqual(scanFindings('{"-0": "-0", "x": "1.0 1e2 9007199254740993", "q": "\\"-0\\"", "dup": "{\\"a\\":1,\\"a\\":2}", "~/": "\\\\ud800"}'), []);
});

test('pointers escape ~ and / in keys; topics come in one order whatever the document order', () => {
  const found = scanFindings('{"a/b~c": [1.0], "d": -0}');
  assert.deepStrictEqual(found.map((f) => [f.topic, f.path]), [['negative-zero', '/d'], ['number-format', '/a~1b~0c/0']]);
  assert.deepStrictEqual(found.map((f) => f.topic), TOPICS.filter((t) => found.some((f) => f.topic === t)));
});

test("Node's details say what JSON.parse and JSON.stringify do", () => {
  assert.deepStrictEqual(describeFindings(scanFindings('[-0]'), NODE_DETAILS), [{ topic: 'negative-zero', path: '/0', count: 1, detail: NODE_DETAILS['negative-zero'] }]);
  assert.deepStrictEqual(Object.keys(NODE_DETAILS), TOPICS);
  // What each detail claims, as this Node does it.
  assert.strictEqual(JSON.stringify(JSON.parse('12345678901234567890')), '12345678901234567000');
  assert.ok(Object.is(JSON.parse('-0'), -0));
  assert.strictEqual(JSON.stringify(JSON.parse('-0')), '0');
  assert.strictEqual(JSON.stringify(JSON.parse('{"a":1,"b":2,"a":3}')), '{"a":3,"b":2}');
  assert.strictEqual(JSON.stringify(JSON.parse('"\\ud800"')), '"\\ud800"');
  assert.strictEqual(Buffer.from(JSON.parse('"\\ud800"')).toString('hex'), 'efbfbd');
  assert.strictEqual(JSON.stringify(JSON.parse('[1.0,1e2,1e400]')), '[1,100,null]');
});

test('a deep document and a wide one: the first instance named, every instance counted', () => {
  const deep = `${'['.repeat(5000)}-0${']'.repeat(5000)}`;
  assert.strictEqual(scanFindings(deep)[0].path, '/0'.repeat(5000));
  const wide = `{${Array.from({ length: 20000 }, (_, i) => `"k${i % 10000}": 1.0`).join(',')}}`;
  assert.deepStrictEqual(only(wide), [['duplicate-key', '/k0', 10000], ['number-format', '/k0', 20000]]);
});
