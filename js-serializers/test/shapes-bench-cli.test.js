'use strict';
// The shape benchmark's command line: a bad one is refused with its reason and the usage before anything runs (a
// misspelt option used to be ignored, and the whole half-hour run started), and --help prints the usage.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const SCRIPT = path.join(__dirname, '../bench/shapes-bench.js');
// Options that keep a run to seconds: should a bad command line ever be taken, the test fails on what ran, not
// after the whole benchmark.
const SMALL = { '--scale': '0.001', '--passes': '1', '--rounds': '1', '--warmups': '1', '--workload': 'stringify' };

/** The script run with args, and SMALL's options that args does not give. */
function run(args) {
  const env = { ...process.env };
  delete env.FILE; // the script reads the environment's FILE as --file
  const small = Object.entries(SMALL).filter(([name]) => !args.includes(name)).flat();
  return spawnSync(process.execPath, [SCRIPT, ...small, ...args], { encoding: 'utf8', env });
}

for (const [args, reason] of [
  [['--shape', 'plain', '--peers', 'none'], 'unknown argument "--peers"'],
  [['--shape', 'plain', '--round', '1'], 'unknown argument "--round"'],
  [['--shape'], '--shape needs a value'],
  [['--shape', 'no such shape'], 'no shape\'s name contains "no such shape"'],
  [['--heap', 'warm'], '--heap is one of steady, cold'],
  [['--scale', '-1'], '--scale needs a positive number'],
  [['--shape', 'plain', '--shape', 'deep'], '--shape given twice'],
  [['--file', path.join(__dirname, 'no-such-file.json')], 'no-such-file.json: ENOENT'],
]) {
  test(`refused before anything runs: ${args.join(' ')}`, () => {
    const { status, stdout, stderr } = run(args);
    assert.strictEqual(status, 2, stderr);
    assert.ok(stderr.includes(reason), stderr);
    assert.match(stderr, /^usage: /m);
    assert.doesNotMatch(stderr, /raw results|pass 1 of/);
    assert.strictEqual(stdout, '');
  });
}

test('--help prints the usage and runs nothing', () => {
  const { status, stdout, stderr } = run(['--shape', 'plain', '--help']);
  assert.strictEqual(status, 0, stderr);
  assert.match(stdout, /^usage: .*shapes-bench\.js/);
  assert.strictEqual(stderr, '');
});
