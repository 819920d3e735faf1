'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { readTargets, nativePrometheusConfig, nativeLab } = require('../lab-topology');
const { parseTargets } = require('../../load/src/config');

test('prometheus.yml names every service once, and each job has a folder to start natively', () => {
  const targets = readTargets();
  const jobs = targets.map((t) => t.job);
  assert.deepStrictEqual([...new Set(jobs)], jobs, 'one target per job');
  for (const t of targets) assert.strictEqual(t.host, t.job, `${t.job}: the compose host name is the service name`);
  const { components, prometheus } = nativeLab(0);
  assert.strictEqual(prometheus.port, 9090);
  assert.deepStrictEqual(components.map((c) => c.port), [3001, 3002, 3003, 3004, 3005]);
});

test('the native config differs only in target addresses, and promtool accepts it', () => {
  const original = fs.readFileSync(path.join(__dirname, '..', '..', 'prometheus.yml'), 'utf8');
  const native = nativePrometheusConfig(100);
  const originalLines = original.split('\n');
  const nativeLines = native.split('\n');
  assert.strictEqual(nativeLines.length, originalLines.length);
  const changed = nativeLines.filter((line, i) => line !== originalLines[i]);
  assert.strictEqual(changed.length, readTargets().length);
  for (const line of changed) assert.match(line, /targets: \['127\.0\.0\.1:\d+'\]/);
  assert.deepStrictEqual(readTargets(native).map((t) => t.port), readTargets().map((t) => t.port + 100));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prom-')), 'prometheus.yml');
  fs.writeFileSync(file, native);
  execFileSync('promtool', ['check', 'config', file], { stdio: 'pipe' });
});

test("the load driver's default targets are prometheus.yml's services", () => {
  const defaults = parseTargets(require('../../load/src/config').DEFAULT_TARGETS);
  const expected = Object.fromEntries(readTargets().filter((t) => !['load', 'prometheus'].includes(t.job)).map((t) => [t.job, `http://${t.host}:${t.port}`]));
  assert.deepStrictEqual(defaults, expected);
});
