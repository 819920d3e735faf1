'use strict';
// The manifests: each checked against the schema when read, one component per name and port, every service a compose
// service; and the topology a native run and compose derive from them.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { tempDir } = require('@lab/test-kit');
const { readManifests, servicesOf, nodeServicesOf, ROOT } = require('../manifests');
const { nativeLab, prometheusTargets, writeTargets } = require('../topology');
const { validate } = require('../schema');
const SCHEMA = require('../service.schema.json');

/** A lab root in a temp folder holding the given manifests (by folder name). */
function labWith(manifests) {
  const root = tempDir('lab-manifests-');
  for (const [dir, manifest] of Object.entries(manifests)) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, dir, 'service.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  }
  return root;
}

const service = (name, port, extra) => Object.assign({ name, port, kind: 'node', native: { start: 'start' } }, extra);

test("the lab's manifests: four services and the load driver, in port order, each in its own folder", () => {
  const manifests = readManifests({ extra: [] });
  assert.deepStrictEqual(manifests.map((m) => `${m.name}:${m.port}:${m.kind}`), [
    'node14-fibers:3001:node', 'node-async:3002:node', 'wasm-runner:3003:node', 'jvm-serializer:3004:jvm', 'load:3005:load',
  ]);
  for (const m of manifests) assert.ok(fs.existsSync(path.join(m.dir, 'Makefile')), `${m.name} has no Makefile to start it with`);
  assert.deepStrictEqual(servicesOf(manifests).map((m) => m.name), ['node14-fibers', 'node-async', 'wasm-runner', 'jvm-serializer']);
  assert.deepStrictEqual(nodeServicesOf(manifests).map((m) => m.name), ['node14-fibers', 'node-async', 'wasm-runner']);
  for (const m of servicesOf(manifests)) assert.ok(m.smoke, `${m.name} says nothing of its smoke coverage`);
});

test('a manifest is checked against the schema when read, and the error names the file and every fault', () => {
  const cases = [
    [{ port: 80 }, /port: must be at least 1024/],
    [{ kind: 'Go 1.25' }, /kind: must match/],
    [{ name: 'Bad_Name' }, /name: must match/],
    [{ native: {} }, /native: start is required/],
    [{ extra: 1 }, /extra is not a field it may have/],
    [{ smoke: { connections: 0 } }, /smoke\/connections: must be at least 1/],
    [{ smoke: { workloads: { x: { params: { size: true } } } } }, /smoke\/workloads\/x\/params\/size: must be a integer or a string/],
    [{ smoke: { workloads: { x: { query: 'size=1' } } } }, /query is not a field it may have/],
  ];
  for (const [change, message] of cases) {
    const manifest = Object.assign(service('svc', 4000), change);
    const root = labWith({ [`services/${manifest.name}`]: manifest });
    assert.throws(() => readManifests({ root, extra: [] }), (err) => message.test(err.message) && err.message.includes('service.json'), JSON.stringify(change));
  }
  assert.throws(() => readManifests({ root: labWith({ 'services/a': '{ not json' }), extra: [] }), /services\/a\/service\.json/);
  assert.throws(() => readManifests({ root: labWith({ 'services/a': service('b', 4000) }), extra: [] }), /name b must be its folder's name, a/);
  assert.throws(() => readManifests({ root: labWith({ 'services/a': service('a', 4000), 'services/b': service('b', 4000) }), extra: [] }), /same port, 4000/);
  assert.throws(() => validate({ type: 'object', oneOf: [] }, {}), /keyword oneOf is not checked/, 'a keyword the checker does not know is refused');
  assert.deepStrictEqual(validate(SCHEMA, service('ok', 4000)), []);
});

test('folders without a manifest are not components, and LAB_EXTRA_SERVICES adds folders from elsewhere', () => {
  const root = labWith({ 'services/a': service('a', 4000) });
  fs.mkdirSync(path.join(root, 'services', 'notes'));
  const extra = labWith({ b: service('b', 3999) });
  assert.deepStrictEqual(readManifests({ root, extra: [path.join(extra, 'b')] }).map((m) => m.name), ['b', 'a']);
});

test('a native run shifts every port, and Prometheus gets every component and itself, each target labelled with its job', () => {
  const manifests = readManifests({ extra: [] });
  const { components, prometheus } = nativeLab(100, manifests);
  assert.deepStrictEqual(components.map((c) => c.port), [3101, 3102, 3103, 3104, 3105]);
  assert.strictEqual(prometheus.port, 9190);
  assert.ok(components.every((c) => c.url === `http://127.0.0.1:${c.port}` && c.start === 'start'));
  const native = prometheusTargets(manifests, { hostOf: () => '127.0.0.1', offset: 100 });
  assert.deepStrictEqual(native.map((g) => `${g.labels.job} ${g.targets.join()}`), [
    'node14-fibers 127.0.0.1:3101', 'node-async 127.0.0.1:3102', 'wasm-runner 127.0.0.1:3103', 'jvm-serializer 127.0.0.1:3104',
    'load 127.0.0.1:3105', 'prometheus 127.0.0.1:9190',
  ]);
  const compose = prometheusTargets(manifests, { hostOf: (name) => name, offset: 0 });
  assert.deepStrictEqual(compose.map((g) => g.targets[0]), ['node14-fibers:3001', 'node-async:3002', 'wasm-runner:3003', 'jvm-serializer:3004', 'load:3005', 'prometheus:9090']);
});

test('prometheus.yml names no service, reads the targets file beside it, and promtool accepts both', () => {
  const config = fs.readFileSync(path.join(ROOT, 'prometheus.yml'), 'utf8');
  for (const m of readManifests({ extra: [] })) assert.ok(!config.includes(`${m.name}:${m.port}`), `prometheus.yml names ${m.name}`);
  const dir = tempDir('prom-');
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const file = writeTargets(dir, prometheusTargets(readManifests({ extra: [] }), { hostOf: () => '127.0.0.1', offset: 0 }));
  assert.strictEqual(path.relative(dir, file), path.join('targets', 'lab.json'));
  execFileSync('promtool', ['check', 'config', path.join(dir, 'prometheus.yml')], { stdio: 'pipe' });
});
