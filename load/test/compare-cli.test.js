'use strict';
// compare.js as `make compare` runs it, a child process on run folders written here: its exit codes (0, 1 on a
// regression beyond MAX_REGRESSION, 2 on bad input with the reason), the table, and compare.html (escaped, no network).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir } = require('@lab/test-kit');
const { runCompare, scenarioResult, writeRun } = require('./compare-helper');

const steady = (n, requests, ms) => Array.from({ length: n }, (_, i) => [requests + (i % 3), ms + (i % 4) * 0.1]);

function fixtures(t) {
  const dir = tempDir('compare-cli-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const fast = writeRun(dir, 'run-fast', [scenarioResult('wait', steady(8, 100, 20)), scenarioResult('only-a', steady(3, 5, 5))]);
  const slow = writeRun(dir, 'run-slow', [scenarioResult('wait', steady(8, 77, 26)), scenarioResult('only-b', steady(3, 5, 5))]);
  return { dir, fast, slow };
}

test('a regression beyond MAX_REGRESSION exits 1; within it, or none, exits 0; the table names every scenario', async (t) => {
  const { dir, fast, slow } = fixtures(t);
  const worse = await runCompare(['run-fast', 'run-slow'], { RESULTS_DIR: dir });
  assert.strictEqual(worse.status, 1, worse.stderr);
  assert.match(worse.stdout, /^wait +requests\/s +100\.88 +77\.88 +-22\.8 % +1\.6e-4 +▼ WORSE \(regression\)$/m);
  assert.match(worse.stdout, /only in A: only-a\nonly in B: only-b/);
  assert.match(worse.stdout, /REGRESSION: wait latency p50 ms \+29\.7 %/);
  const html = fs.readFileSync(path.join(slow, 'compare.html'), 'utf8');
  assert.match(html, /FAILED: wait requests\/s/);
  assert.match(html, /<li>only-a<\/li>/);

  const tolerated = await runCompare([fast, slow], { MAX_REGRESSION: '0.35' });
  assert.strictEqual(tolerated.status, 0, tolerated.stderr);
  assert.match(tolerated.stdout, /▼ worse/);
  assert.match(tolerated.stdout, /no significant regression beyond 35 %/);

  const better = await runCompare([slow, fast]);
  assert.strictEqual(better.status, 0);
  assert.match(better.stdout, /▲ better/);
  const itself = await runCompare([fast, fast]);
  assert.strictEqual(itself.status, 0);
  assert.strictEqual((itself.stdout.match(/no significant change/g) || []).length, 8, 'two scenarios, four metrics each');
  assert.doesNotMatch(itself.stdout, /only in/);
});

test('compare.html goes where --html says, self-contained, with every text from the results escaped', async (t) => {
  const { dir, fast } = fixtures(t);
  const evil = writeRun(dir, 'run-<evil>', [scenarioResult('wait', steady(8, 100, 20)), Object.assign(scenarioResult('x', steady(3, 5, 5)), { scenario: { name: '<img src=x onerror=alert(1)>' } })], '<script>alert(1)</script>');
  const out = path.join(dir, 'elsewhere.html');
  const result = await runCompare(['--html', out, fast, evil]);
  assert.strictEqual(result.status, 0, result.stderr);
  const html = fs.readFileSync(out, 'utf8');
  assert.ok(!fs.existsSync(path.join(evil, 'compare.html')), 'written where --html said, not in B');
  assert.ok(!/<script|<img/i.test(html), 'unescaped markup from the results');
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  assert.match(html, /run-&lt;evil&gt;/);
  assert.ok(!/(src|href)=["']?https?:|url\(|@import/i.test(html), 'a network reference');
});

test('bad arguments and unreadable results exit 2 with the reason', async (t) => {
  const { dir, fast } = fixtures(t);
  fs.mkdirSync(path.join(dir, 'empty'));
  const broken = writeRun(dir, 'broken', [scenarioResult('wait', steady(3, 1, 1))]);
  fs.writeFileSync(path.join(broken, '02-torn.json'), '{"scenario": ');
  const old = writeRun(dir, 'old', [Object.assign(scenarioResult('wait', steady(3, 1, 1)), { perSecond: undefined })]);
  const cases = [
    [[fast], {}, /expected two runs, A and B, got 1/],
    [[fast, fast, fast], {}, /expected two runs, A and B, got 3/],
    [['--bogus', fast, fast], {}, /Unknown option '--bogus'/],
    [[fast, 'no-such-run'], { RESULTS_DIR: dir }, /run "no-such-run" not found: neither .*no-such-run nor/],
    [[fast, path.join(dir, 'empty')], {}, /holds no scenario results/],
    [[fast, broken], {}, /02-torn\.json: not JSON/],
    [[fast, old], {}, /no perSecond samples/],
    [[fast, fast], { MAX_REGRESSION: '10' }, /MAX_REGRESSION must be a fraction in \[0, 1\) \(0\.1 is 10 %\), got "10"/],
    [[fast, fast], { MAX_REGRESSION: 'lots' }, /MAX_REGRESSION must be a fraction/],
    [['--html', path.join(dir, 'no', 'such', 'dir.html'), fast, fast], {}, /cannot write .*dir\.html: ENOENT/],
  ];
  for (const [args, env, message] of cases) {
    const result = await runCompare(args, env);
    assert.strictEqual(result.status, 2, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
    assert.strictEqual(result.stdout, '', 'no table on bad input');
  }
});
