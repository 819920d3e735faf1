'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { asyncStringify } = require('../async-stringify');
const { generate } = require('@lab/payloads');

const date = new Date(Date.UTC(2020, 1, 29, 12, 0, 0));
const samples = {
  records: generate({ document: 'records', seed: 3, size: 50 }),
  primitives: [0, -0, 1.5, -1e21, NaN, Infinity, -Infinity, true, false, null, '', 'a"b\\c\n\u2028\ud800'],
  skipped: { a: undefined, b: () => 1, c: Symbol('s'), d: 1, arr: [undefined, () => 1, Symbol('s')] },
  toJSON: { when: date, nested: { toJSON: (key) => `key:${key}` }, list: [date] },
  boxed: [Object(1), Object('s'), Object(false)],
  integerKeys: { b: 1, 2: 'two', a: 3, 1: 'one' },
  sparse: [1, , 3], // eslint-disable-line no-sparse-arrays
  empty: [{}, [], [[]], { a: {} }],
  deep: Array.from({ length: 200 }).reduce((inner) => ({ inner }), 'bottom'),
};

for (const [name, value] of Object.entries(samples)) {
  test(`asyncStringify equals JSON.stringify: ${name}`, async () => {
    assert.strictEqual((await asyncStringify(value)).text, JSON.stringify(value));
  });
}

test('asyncStringify returns undefined where JSON.stringify does', async () => {
  for (const value of [undefined, () => 1, Symbol('x')]) {
    assert.strictEqual((await asyncStringify(value)).text, JSON.stringify(value));
  }
});

test('asyncStringify throws native TypeErrors on cycles and BigInt', async () => {
  const cyclic = { a: [] };
  cyclic.a.push(cyclic);
  await assert.rejects(asyncStringify(cyclic), (err) => err instanceof TypeError && /circular/.test(err.message));
  await assert.rejects(asyncStringify({ n: 1n }), (err) => err instanceof TypeError && /BigInt/.test(err.message));
  await assert.rejects(asyncStringify([Object(1n)]), TypeError);
  const shared = { x: 1 };
  assert.strictEqual((await asyncStringify([shared, shared])).text, '[{"x":1},{"x":1}]'); // repeated, not cyclic
});

test('asyncStringify yields on a large document and stops when aborted', async () => {
  const big = generate({ document: 'records', seed: 9, size: 2000 });
  const { yields } = await asyncStringify(big, { yieldMs: 1 });
  assert.ok(yields > 0, 'no yield on a 4 MB document');
  const signal = { aborted: false };
  setTimeout(() => (signal.aborted = true), 2);
  await assert.rejects(asyncStringify(big, { yieldMs: 1, signal }), { name: 'AbortError' });
});
