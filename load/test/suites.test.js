'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadSuite, suiteNames } = require('../src/suites');
const { parseTargets } = require('../src/config');

const targets = parseTargets('node14-fibers=http://a:1,node-async=http://b:2,wasm-runner=http://c:3,jvm-serializer=http://d:4');

test('the shipped suites load, and smoke and demo exist', () => {
  const names = suiteNames();
  assert.ok(names.includes('smoke') && names.includes('demo'), names.join());
  for (const name of names) assert.ok(loadSuite(name, targets).scenarios.length > 0, name);
});

test('a suite with a mistake is rejected naming the scenario and the field', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'suites-'));
  const good = { name: 'x', target: 'node-async', path: '/healthz', connections: 1, durationSeconds: 1, maxRequests: 10, expect: 'status' };
  const cases = [
    [{ target: 'nowhere' }, /target must be one of/],
    [{ durationSeconds: 100000 }, /durationSeconds must be an integer in \[1, 120\]/],
    [{ maxRequests: undefined }, /maxRequests must be/],
    [{ connections: 0 }, /connections must be/],
    [{ path: 'healthz' }, /path must start with/],
    [{ expect: 'anything' }, /expect must be/],
    [{ method: 'DELETE' }, /method must be/],
  ];
  for (const [change, message] of cases) {
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ scenarios: [Object.assign({}, good, change)] }));
    assert.throws(() => loadSuite('bad', targets, dir), (err) => message.test(err.message) && /scenario 0 \(x\)/.test(err.message), JSON.stringify(change));
  }
  assert.throws(() => loadSuite('missing', targets, dir), /no suite "missing"; suites: bad/);
});

test('LOAD_TARGETS is parsed strictly', () => {
  assert.deepStrictEqual(parseTargets('a=http://127.0.0.1:1/, b=http://h:2'), { a: 'http://127.0.0.1:1', b: 'http://h:2' });
  assert.throws(() => parseTargets('a=127.0.0.1:1'), /not name=http/);
});
