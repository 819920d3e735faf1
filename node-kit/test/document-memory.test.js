'use strict';
// document-memory.js' valueBytes is an upper bound of the heap a user's document's value holds, on both Node lines
// the lab's document services run (measured in a child with --expose-gc: bytes, not time, the same on any machine),
// and a tight one where it matters most, the densest shape (64 MiB of `[{},{},…]` is what took node14-fibers down);
// and the budget admits, evicts and refuses by it.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { createMemoryBudget, valueBytes } = require('../document-memory');

const NODE14 = path.join(__dirname, '../../.runtimes/node-14.21.3/bin/node');
const FIXTURE = path.join(__dirname, 'fixtures/value-heap.js');
const run = (node, args) => JSON.parse(execFileSync(node, ['--expose-gc', FIXTURE].concat(args), { encoding: 'utf8' }));
const measure = (node) => run(node, []).map((shape) => run(node, [shape]));

for (const [line, node] of [['Node 24', process.execPath], ['Node 14', NODE14]]) {
  test(`on ${line}, no shape's value holds more than valueBytes allows, and the densest is within 1.25x of it`, () => {
    const rows = measure(node);
    for (const row of rows) assert.ok(row.heldBytes > 0 && row.heldBytes <= row.modelled, `${row.shape}: ${row.heldBytes} bytes held, ${row.modelled} modelled`);
    const densest = rows.find((r) => r.shape === 'empty objects');
    assert.ok(densest.modelled <= 1.25 * densest.heldBytes, `empty objects: ${densest.heldBytes} held, ${densest.modelled} modelled`);
  });
}

test('the budget reserves and releases, asks its caches to let go before it refuses, and tells 503 from 413', () => {
  const budget = createMemoryBudget(1000);
  const first = budget.reserve(600, 'a run');
  let cached = budget.reserve(300, 'a cached value');
  budget.onPressure(() => {
    if (cached) cached();
    cached = null;
  });
  const second = budget.reserve(350, 'another run'); // 600 + 300 + 350 > 1000: the cache lets go
  assert.strictEqual(cached, null);
  assert.strictEqual(budget.reservedBytes(), 950);
  assert.throws(() => budget.reserve(100, 'a third'), (err) => err.status === 503 && err.headers['Retry-After'] === '1' && err.details.limitBytes === 1000);
  assert.throws(() => budget.reserve(1001, 'too much'), (err) => err.status === 413 && err.details.limitBytes === 1000);
  first();
  first(); // twice: harmless
  second();
  assert.strictEqual(budget.reservedBytes(), 0);
  assert.strictEqual(valueBytes({ counts: { objects: 1, arrays: 1, members: 1, strings: 1, scalars: 1 }, bytes: 10 }), 64 + 64 + 128 + 48 + 24 + 20);
});
