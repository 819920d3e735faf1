'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir } = require('@lab/test-kit');
const { loadSuite, suiteNames, checkScenarios } = require('../src/suite/suites');
const { parseTargets, composeTargets } = require('../src/driver/config');
const { coverageOf, withCoverage, coverageTargets, COVERAGE } = require('../src/suite/coverage');
const { withDocument } = require('../src/try/try-suite');
const { readManifests, servicesOf } = require('@lab/lab-topology/manifests');

const targets = parseTargets('node14-fibers=http://a:1,node-async=http://b:2,wasm-runner=http://c:3,jvm-serializer=http://d:4');

test('the shipped suites load, and smoke and demo exist', () => {
  const names = suiteNames();
  assert.ok(names.includes('smoke') && names.includes('demo'), names.join());
  // A suite with coverage may have no scenarios of its own (try: they are made from a stored document).
  for (const name of names) assert.ok(loadSuite(name, targets).scenarios.length > 0 || loadSuite(name, targets).coverage, name);
  // The dashboards' probe panel needs probe observations for every target the smoke suite loads.
  const smoke = loadSuite('smoke', targets).scenarios;
  for (const target of new Set(smoke.map((s) => s.target))) assert.ok(smoke.some((s) => s.target === target && s.probe), `smoke probes no ${target} scenario`);
});

// The services' integer parameters (CONTRACT.md): a suite that writes one otherwise (size=10k) is refused by the
// service with 400 on every request, which only a run of that suite would show.
const INTEGER_PARAMS = ['size', 'rows', 'seed', 'iterations', 'yieldMs', 'timeoutMs', 'chunkChars', 'repeat', 'items', 'fibonacciN'];

test("the shipped suites give every integer parameter as an integer", () => {
  for (const name of suiteNames()) {
    for (const scenario of loadSuite(name, targets).scenarios) {
      const params = Object.entries((scenario.run && scenario.run.params) || {});
      for (const [param, value] of params.concat(scenario.bodyFrom ? Array.from(new URL(scenario.bodyFrom, 'http://x').searchParams) : [])) {
        if (INTEGER_PARAMS.includes(param)) assert.match(String(value), /^\d+$/, `suite ${name}, ${scenario.name}: ${param}=${value}`);
      }
    }
  }
});

test("a run's path is derived from it once, its parameters in the order the suite gives them", () => {
  const dir = tempDir('suites-');
  const run = { workload: 'stringify', approach: 'fast', params: { size: 10000, yieldMs: 5, note: 'a b&c' } };
  fs.writeFileSync(path.join(dir, 'runs.json'), JSON.stringify({ scenarios: [{ name: 'r', target: 'node-async', run, connections: 1, durationSeconds: 1, maxRequests: 1, expect: 'validated' }] }));
  const [scenario] = loadSuite('runs', targets, dir).scenarios;
  assert.deepStrictEqual(scenario.run, run);
  assert.strictEqual(scenario.path, '/run/stringify?approach=fast&size=10000&yieldMs=5&note=a%20b%26c');
});

test('a suite with a mistake is rejected naming the scenario and the field', () => {
  const dir = tempDir('suites-');
  const good = { name: 'x', target: 'node-async', path: '/healthz', connections: 1, durationSeconds: 1, maxRequests: 10, expect: 'status' };
  const cases = [
    [{ target: 'nowhere' }, /target must be one of/],
    [{ durationSeconds: 100000 }, /durationSeconds must be an integer in \[1, 120\]/],
    [{ maxRequests: undefined }, /maxRequests must be/],
    [{ connections: 0 }, /connections must be/],
    [{ path: 'healthz' }, /path must start with/],
    [{ expect: 'anything' }, /expect must be/],
    [{ method: 'DELETE' }, /method must be/],
    [{ probe: true }, /probe must be an object like/],
    [{ probe: null }, /probe must be an object like/],
    [{ probe: ['/healthz', 20] }, /probe must be an object like/],
    [{ probe: { path: '/healthz', rate: 20 } }, /probe has unknown field rate; its fields are path, ratePerSecond/],
    [{ probe: { path: 'healthz', ratePerSecond: 20 } }, /probe\.path must start with \//],
    [{ probe: { ratePerSecond: 20 } }, /probe\.path must start with \//],
    [{ probe: { path: '/healthz' } }, /probe\.ratePerSecond must be an integer in \[1, 200\]/],
    [{ probe: { path: '/healthz', ratePerSecond: 0 } }, /probe\.ratePerSecond must be an integer in \[1, 200\]/],
    [{ probe: { path: '/healthz', ratePerSecond: 201 } }, /probe\.ratePerSecond must be an integer in \[1, 200\]/],
    [{ probe: { path: '/healthz', ratePerSecond: 2.5 } }, /probe\.ratePerSecond must be an integer/],
    [{ probe: { path: '/healthz', ratePerSecond: '20' } }, /probe\.ratePerSecond must be an integer/],
    [{ bodyFrom: 'api/test-data' }, /bodyFrom must be a path on the target/],
    [{ bodyFrom: '/api/test-data', body: {} }, /give body or bodyFrom, not both/],
    [{ warmupSeconds: -1 }, /warmupSeconds must be an integer in \[0, 120\]/],
    [{ warmupSeconds: 1.5 }, /warmupSeconds must be an integer/],
    [{ arrivalRate: 0 }, /arrivalRate must be an integer in \[1, 5000\]/],
    [{ arrivalRate: 5001 }, /arrivalRate must be an integer in \[1, 5000\]/],
    [{ path: '/run/stringify?approach=fast' }, /a workload's run is written as run: \{"workload", "approach", "params"\}, not as a path/],
    [{ path: undefined, run: { workload: 'stringify' } }, /run\.approach must be/],
    [{ path: undefined, run: { workload: 'stringify', approach: 'fast', params: { size: [1] } } }, /run\.params\.size must be an integer or a string/],
    [{ path: undefined, run: { workload: 'stringify', approach: 'fast', query: 'size=1' } }, /run has unknown field query/],
    [{ run: { workload: 'stringify', approach: 'fast' } }, /a scenario of a run has no path of its own/],
  ];
  for (const [change, message] of cases) {
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ scenarios: [Object.assign({}, good, change)] }));
    assert.throws(() => loadSuite('bad', targets, dir), (err) => message.test(err.message) && /scenario 0 \(x\)/.test(err.message), JSON.stringify(change));
  }
  assert.throws(() => loadSuite('missing', targets, dir), /no suite "missing"; suites: bad/);
});

test('a probe is optional, and a good one is kept as written', () => {
  const dir = tempDir('suites-');
  const scenario = { target: 'node-async', run: { workload: 'x', approach: 'y' }, connections: 1, durationSeconds: 1, maxRequests: 10, expect: 'status' };
  const probes = [{ path: '/healthz', ratePerSecond: 20 }, { path: '/healthz?x=1', ratePerSecond: 1 }, { path: '/', ratePerSecond: 200 }];
  const scenarios = probes.map((probe, i) => Object.assign({ name: `p${i}`, probe }, scenario)).concat([Object.assign({ name: 'none' }, scenario)]);
  fs.writeFileSync(path.join(dir, 'probes.json'), JSON.stringify({ scenarios }));
  const loaded = loadSuite('probes', targets, dir).scenarios;
  assert.deepStrictEqual(loaded.map((s) => s.probe), probes.concat([undefined]));
});

test('LOAD_TARGETS is parsed strictly', () => {
  assert.deepStrictEqual(parseTargets('a=http://127.0.0.1:1/, b=http://h:2'), { a: 'http://127.0.0.1:1', b: 'http://h:2' });
  assert.throws(() => parseTargets('a=127.0.0.1:1'), /not name=http/);
});

test("the driver's default targets are the compose lab's services, from their manifests", () => {
  const expected = Object.fromEntries(servicesOf(readManifests()).map((m) => [m.name, `http://${m.name}:${m.port}`]));
  assert.deepStrictEqual(parseTargets(composeTargets()), expected);
});

test('coverage: a scenario for every approach of every workload, and of every op, with the smoke settings layered', () => {
  const manifest = {
    name: 'svc',
    smoke: {
      connections: 2, durationSeconds: 2, maxRequests: 100,
      workloads: { a: { params: { size: 1 } }, b: { params: { n: 2 }, durationSeconds: 1 } },
      approaches: { slow: { connections: 1 } },
    },
  };
  const info = {
    workloads: {
      a: { approaches: ['fast', 'slow'], params: { size: { default: 1, min: 1, max: 9 } } },
      b: { approaches: ['x'], params: { op: { default: 'one', values: ['one', 'two'] } } },
    },
  };
  const scenarios = coverageOf(manifest, info);
  assert.deepStrictEqual(scenarios.map((s) => `${s.name} ${s.path} ${s.connections}/${s.durationSeconds}/${s.maxRequests}`), [
    'svc-a-fast /run/a?approach=fast&size=1 2/2/100',
    'svc-a-slow /run/a?approach=slow&size=1 1/2/100',
    'svc-b-x /run/b?approach=x&n=2 2/1/100',
    'svc-b-x-two /run/b?approach=x&op=two&n=2 2/1/100',
  ]);
  assert.ok(scenarios.every((s) => s.target === 'svc' && s.expect === 'validated' && s.probe.path === '/healthz'));
  assert.doesNotThrow(() => checkScenarios('generated', scenarios, { svc: 'http://x:1' }));
});

test('a suite with coverage gets the generated scenarios first, for the targets that have smoke settings', () => {
  const manifests = [{ name: 'svc', smoke: { connections: 1, durationSeconds: 1, maxRequests: 10 } }, { name: 'load' }];
  const suite = { name: 's', coverage: COVERAGE, scenarios: [{ name: 'extra', target: 'svc' }] };
  const infos = { svc: { workloads: { w: { approaches: ['a'], params: {} } } } };
  assert.deepStrictEqual(withCoverage(suite, manifests, infos).scenarios.map((s) => s.name), ['svc-w-a', 'extra']);
  assert.deepStrictEqual(coverageTargets(suite, manifests, { svc: 'u', load: 'u' }), ['svc']);
  const plain = { name: 'p', scenarios: [] };
  assert.strictEqual(withCoverage(plain, manifests, infos), plain);
  assert.deepStrictEqual(coverageTargets(plain, manifests, { svc: 'u' }), []);
  const dir = tempDir('suites-');
  fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ coverage: 'everything', scenarios: [] }));
  assert.throws(() => loadSuite('bad', targets, dir), /coverage must be "every approach"/);
  fs.writeFileSync(path.join(dir, 'good.json'), JSON.stringify({ coverage: COVERAGE, scenarios: [] }));
  assert.deepStrictEqual(loadSuite('good', targets, dir).scenarios, []);
});

test("a try suite's documentScenarios are required, bounded, and for that coverage only", () => {
  const dir = tempDir('suites-');
  const write = (suite) => fs.writeFileSync(path.join(dir, 'x.json'), JSON.stringify(suite));
  const settings = { connections: 1, durationSeconds: 4, maxRequests: 1000, timeoutSeconds: 60, rounds: 3 };
  write({ coverage: 'stored document', documentScenarios: settings, scenarios: [] });
  assert.deepStrictEqual(loadSuite('x', targets, dir).documentScenarios, settings);
  const cases = [
    [{ coverage: 'stored document', scenarios: [] }, /documentScenarios must be an object/],
    [{ coverage: 'stored document', documentScenarios: Object.assign({}, settings, { timeoutSeconds: 601 }), scenarios: [] }, /timeoutSeconds must be an integer in \[1, 600\]/],
    [{ coverage: 'stored document', documentScenarios: Object.assign({ probe: 1 }, settings), scenarios: [] }, /unknown field probe/],
    [{ coverage: 'stored document', documentScenarios: Object.assign({}, settings, { rounds: 0 }), scenarios: [] }, /rounds must be an integer in \[1, 10\]/],
    [{ coverage: 'stored document', documentScenarios: Object.assign({}, settings, { rounds: undefined }), scenarios: [] }, /rounds must be an integer in \[1, 10\]/],
    [{ coverage: 'every approach', documentScenarios: settings, scenarios: [] }, /documentScenarios is for coverage "stored document" only/],
  ];
  for (const [suite, message] of cases) {
    write(suite);
    assert.throws(() => loadSuite('x', targets, dir), message, JSON.stringify(suite));
  }
});

const DEADLINE = { timeoutMs: { default: 0, min: 0, max: 600000 } };

test('a stored document gets a scenario per stringify and parse approach, the probe beside each, validated', () => {
  const info = { workloads: { stringify: { approaches: ['native', 'fast'], params: DEADLINE }, parse: { approaches: ['native'], params: DEADLINE }, csv: { approaches: ['memory'], params: DEADLINE } } };
  const sha = 'a'.repeat(64);
  const suite = { name: 'try', coverage: 'stored document', documentScenarios: { connections: 1, durationSeconds: 4, maxRequests: 1000, timeoutSeconds: 60, rounds: 1 }, scenarios: [] };
  const made = withDocument(suite, { 'node-async': info, 'wasm-runner': { workloads: {} } }, { 'node-async': { stored: true }, 'wasm-runner': { stored: false } }, { sha256: sha, kind: 'json' }, { durationSeconds: 2 });
  assert.deepStrictEqual(made.scenarios.map((s) => s.name), ['node-async-stringify-native', 'node-async-stringify-fast', 'node-async-parse-native']);
  assert.deepStrictEqual(made.scenarios[1], {
    name: 'node-async-stringify-fast',
    target: 'node-async',
    method: 'GET',
    path: `/run/stringify?approach=fast&document=${sha}&timeoutMs=58000`,
    run: { workload: 'stringify', approach: 'fast', params: { document: sha, timeoutMs: 58000 } },
    expect: 'validated',
    probe: { path: '/healthz', ratePerSecond: 20 },
    connections: 1,
    durationSeconds: 2,
    maxRequests: 1000,
    timeoutSeconds: 60,
  });
  checkScenarios('try', made.scenarios, { 'node-async': 'http://b:2' });
});

test("a stored JSON document runs through wasm-runner's transfer too, one op a request, without a deadline it has not, and only through a workload's documentApproaches when given", () => {
  const sha = 'd'.repeat(64);
  const suite = { name: 'try', coverage: 'stored document', documentScenarios: { connections: 1, durationSeconds: 4, maxRequests: 1000, timeoutSeconds: 60, rounds: 1 }, scenarios: [] };
  const wasm = { workloads: { transfer: { approaches: ['json', 'typed'], params: { op: { default: 'roundtrip', values: ['roundtrip'] }, iterations: { default: 100, min: 1, max: 10000 } } } } };
  const some = { workloads: { parse: { approaches: ['native', 'fast', 'slow'], documentApproaches: ['native', 'fast'], params: DEADLINE } } };
  const handOff = { 'wasm-runner': { stored: true }, some: { stored: true } };
  const made = withDocument(suite, { 'wasm-runner': wasm, some }, handOff, { sha256: sha, kind: 'json' });
  assert.deepStrictEqual(made.scenarios.map((s) => [s.name, s.path]), [
    ['wasm-runner-transfer-json', `/run/transfer?approach=json&document=${sha}&iterations=1`],
    ['wasm-runner-transfer-typed', `/run/transfer?approach=typed&document=${sha}&iterations=1`],
    ['some-parse-native', `/run/parse?approach=native&document=${sha}&timeoutMs=58000`],
    ['some-parse-fast', `/run/parse?approach=fast&document=${sha}&timeoutMs=58000`],
  ]);
  checkScenarios('try', made.scenarios, { 'wasm-runner': 'http://a:1', some: 'http://b:2' });
});

test("the JVM's serde runs a stored JSON document through its documentApproaches, without a deadline it has no parameter for", () => {
  const jvm = { workloads: { serde: { approaches: ['json', 'cbor', 'jackson'], documentApproaches: ['json', 'jackson'], params: { size: {}, document: {} } } } };
  const sha = 'b'.repeat(64);
  const suite = { name: 'try', coverage: 'stored document', documentScenarios: { connections: 1, durationSeconds: 4, maxRequests: 1000, timeoutSeconds: 60, rounds: 1 }, scenarios: [] };
  const made = withDocument(suite, { 'jvm-serializer': jvm }, { 'jvm-serializer': { stored: true } }, { sha256: sha, kind: 'json' });
  assert.deepStrictEqual(made.scenarios.map((s) => s.path), [`/run/serde?approach=json&document=${sha}`, `/run/serde?approach=jackson&document=${sha}`]);
  checkScenarios('try', made.scenarios, { 'jvm-serializer': 'http://j:3' });
});

test('a stored CSV document gets a scenario per csv approach of each service that stored it, and no JSON workload', () => {
  const info = { workloads: { stringify: { approaches: ['native'], params: DEADLINE }, parse: { approaches: ['native'], params: DEADLINE }, csv: { approaches: ['memory', 'async', 'csv-parse', 'fast'], params: DEADLINE } } };
  const fibers = { workloads: { stringify: { approaches: ['native'], params: DEADLINE }, parse: { approaches: ['native'], params: DEADLINE } } };
  const sha = 'c'.repeat(64);
  const suite = { name: 'try', coverage: 'stored document', documentScenarios: { connections: 1, durationSeconds: 4, maxRequests: 1000, timeoutSeconds: 60, rounds: 1 }, scenarios: [] };
  const handOff = { 'node-async': { stored: true }, 'node14-fibers': { stored: false, error: 'it takes no CSV documents' } };
  const made = withDocument(suite, { 'node-async': info, 'node14-fibers': fibers }, handOff, { sha256: sha, kind: 'csv' });
  assert.deepStrictEqual(made.scenarios.map((s) => s.name), ['node-async-csv-memory', 'node-async-csv-async', 'node-async-csv-csv-parse', 'node-async-csv-fast']);
  assert.strictEqual(made.scenarios[3].path, `/run/csv?approach=fast&document=${sha}&timeoutMs=58000`);
  assert.ok(made.scenarios.every((s) => s.expect === 'validated' && s.probe && s.durationSeconds === 4));
  checkScenarios('try', made.scenarios, { 'node-async': 'http://b:2' });
  assert.throws(() => withDocument(suite, { 'node-async': info }, { 'node-async': { stored: true } }, { sha256: sha, kind: 'xml' }), /kind xml/);
});

test("a try suite's rounds interleave: every approach of a service's workload once per round, a workload's rounds together, names unique", () => {
  const info = { workloads: { stringify: { approaches: ['native', 'fast'], params: DEADLINE }, parse: { approaches: ['native', 'json-ext', 'fast'], params: DEADLINE } } };
  const sha = 'e'.repeat(64);
  const suite = { name: 'try', coverage: 'stored document', documentScenarios: { connections: 1, durationSeconds: 1, maxRequests: 1000, timeoutSeconds: 60, rounds: 3 }, scenarios: [] };
  const handOff = { 'node-async': { stored: true }, other: { stored: true } };
  const made = withDocument(suite, { 'node-async': info, other: { workloads: { stringify: info.workloads.stringify } } }, handOff, { sha256: sha, kind: 'json' });
  const runs = made.scenarios.map((s) => `${s.target} ${s.run.workload} ${s.run.approach}`);
  // Each (service, workload) group in one stretch, each of its stretches' rounds the group's approaches in /info order.
  const groups = [...new Set(made.scenarios.map((s) => `${s.target} ${s.run.workload}`))];
  assert.deepStrictEqual(groups, ['node-async stringify', 'node-async parse', 'other stringify']);
  for (const group of groups) {
    const [target, workload] = group.split(' ');
    const approaches = info.workloads[workload].approaches;
    const own = runs.filter((r) => r.startsWith(`${group} `));
    assert.deepStrictEqual(own, [1, 2, 3].flatMap(() => approaches.map((a) => `${group} ${a}`)), group);
    const first = runs.indexOf(own[0]);
    assert.deepStrictEqual(runs.slice(first, first + own.length), own, `${group}'s rounds are contiguous`);
    // Every round runs the same thing: the run ({workload, approach, params}) and so the path are the round's alone.
    for (const approach of approaches) {
      const rounds = made.scenarios.filter((s) => s.target === target && s.run.workload === workload && s.run.approach === approach);
      assert.strictEqual(rounds.length, 3);
      assert.ok(rounds.every((s) => JSON.stringify(s.run) === JSON.stringify(rounds[0].run) && s.path === rounds[0].path && s.durationSeconds === 1), approach);
    }
  }
  const names = made.scenarios.map((s) => s.name);
  assert.strictEqual(new Set(names).size, names.length, 'names are unique');
  assert.deepStrictEqual(names.slice(0, 6), ['node-async-stringify-native', 'node-async-stringify-fast', 'node-async-stringify-native-r2', 'node-async-stringify-fast-r2', 'node-async-stringify-native-r3', 'node-async-stringify-fast-r3']);
  checkScenarios('try', made.scenarios, { 'node-async': 'http://b:2', other: 'http://o:5' });
  // A run's own rounds replace the suite's; the suite file's default is 3.
  assert.strictEqual(withDocument(suite, { 'node-async': info }, { 'node-async': { stored: true } }, { sha256: sha }, { rounds: 1 }).scenarios.length, 5);
  assert.strictEqual(loadSuite('try', targets).documentScenarios.rounds, 3);
});
