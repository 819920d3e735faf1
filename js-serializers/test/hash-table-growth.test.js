'use strict';
// hash-table-growth.js's model of V8, checked against the V8 that runs it (and Node 14's, when installed): each new
// table is one large allocation (3 words an entry), so the insertion that grows a table is the one after which the
// large-object spaces hold at least the new table's bytes more.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { isArrayIndex, indexKeyCount, tableCapacity, growthCount } = require('../hash-table-growth');

const MODULE = path.join(__dirname, '../hash-table-growth');

// Run here, and as a script in Node 14: for objects that JSON.parse made with `start` named keys (and array
// indices, which must not count), the counts at which inserting named keys one by one grew the table, against the
// model's. Node 14 syntax.
const CHECK = `
  const v8 = require('v8');
  const { tableCapacity, growthCount } = require(${JSON.stringify(MODULE)});
  const largeBytes = () => v8.getHeapSpaceStatistics().filter((s) => /large_object/.test(s.space_name)).reduce((sum, s) => sum + s.space_used_size, 0);
  const checks = [];
  for (const start of [1500, 20000, 30000]) {
    const members = [];
    for (let i = 0; i < start; i++) members.push('"k' + i + '":' + i);
    for (let i = 0; i < 300; i++) members.push('"' + i * 7 + '":0');
    const object = JSON.parse('{' + members.join(',') + '}');
    const expected = [];
    const seen = [];
    for (let capacity = tableCapacity(start); growthCount(capacity) <= 60000; capacity *= 2) {
      if (capacity >= 1 << 14) expected.push(growthCount(capacity));
    }
    let before = largeBytes();
    for (let count = start + 1; count <= 60000; count++) {
      object['k' + (count - 1)] = count;
      const after = largeBytes();
      const newTableBytes = 2 * tableCapacity(count - 1) * 3 * 8;
      if (tableCapacity(count - 1) >= 1 << 14 && after - before >= 0.9 * newTableBytes) seen.push(count);
      before = after;
    }
    checks.push({ start, expected, seen });
  }
  process.stdout.write(JSON.stringify({ version: process.version, checks }));
`;

function assertGrowthAsModelled(report) {
  for (const { start, expected, seen } of report.checks) {
    assert.ok(expected.length >= 1, `start ${start}: no growth expected below 60000 keys`);
    assert.deepStrictEqual(seen, expected, `${report.version}, ${start} keys parsed: the table grew at these counts, not the model's`);
  }
}

test('array indices are told from named keys as V8 tells them', () => {
  for (const key of ['0', '7', '123', '4294967294']) assert.ok(isArrayIndex(key), key);
  for (const key of ['', '-1', '01', '1.5', '1e3', ' 1', '4294967295', '99999999999', 'key_1', '__proto__']) assert.ok(!isArrayIndex(key), key);
  const keys = Object.keys(JSON.parse('{"b":1,"10":2,"a":3,"2":4,"4294967295":5}'));
  assert.strictEqual(indexKeyCount(keys), 2, `Object.keys listed ${keys}`);
  assert.strictEqual(indexKeyCount([]), 0);
});

test('the table keeps a third free and doubles', () => {
  assert.strictEqual(tableCapacity(0), 4);
  assert.strictEqual(tableCapacity(87381), 131072);
  assert.strictEqual(growthCount(131072), 87382);
  assert.strictEqual(growthCount(16384), 10924);
  assert.strictEqual(tableCapacity(growthCount(131072)), 262144);
});

test('V8 grows a wide object\'s table at the insertions the model names', () => {
  assertGrowthAsModelled(JSON.parse(execFileSync(process.execPath, ['-e', CHECK], { encoding: 'utf8' })));
});

test('so does Node 14\'s V8, when that runtime is installed', (t) => {
  const node14 = path.join(__dirname, '../../.runtimes/node-14.21.3/bin/node');
  if (!fs.existsSync(node14)) return t.skip(`no Node 14 runtime at ${node14}`);
  const report = JSON.parse(execFileSync(node14, ['-e', CHECK], { encoding: 'utf8' }));
  assert.strictEqual(report.version, 'v14.21.3');
  return assertGrowthAsModelled(report);
});
