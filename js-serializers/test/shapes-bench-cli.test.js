'use strict';
// The shape benchmark's command line: a bad one is refused with its reason and the usage before anything runs (a
// misspelt option used to be ignored, and the whole half-hour run started), --help prints the usage, and a run
// filtered down to one small tree family member prints that family's summary line and saves its raw results.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { checkPeersInstalled } = require('../bench/shape-approaches');

const SCRIPT = path.join(__dirname, '../bench/shapes-bench.js');
// Options that keep a run to seconds: should a bad command line ever be taken, the test fails on what ran, not
// after the whole benchmark.
const SMALL = { '--scale': '0.001', '--passes': '1', '--warm-ms': '10', '--rounds': '1', '--warmups': '1', '--workload': 'stringify' };

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
  [['--warm-ms', '0'], '--warm-ms needs a positive integer'],
  [['--scale', '-1'], '--scale needs a positive number'],
  [['--shape', 'plain', '--shape', 'deep'], '--shape given twice'],
  [['--file', path.join(__dirname, 'no-such-file.json')], 'no-such-file.json: ENOENT'],
  [['--family', 'no such family'], 'no tree family member\'s name contains "no such family"'],
  [['--family'], '--family needs a value'],
  [['--corpus', 'no such document'], 'no corpus document\'s name or group contains "no such document"'],
  [['--file', path.join(__dirname, '../bench/corpus/package.json'), '--family', 'objects'], '--file measures that file alone: not with --family'],
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

/** Whether the peer libraries the benchmark runs beside fast are installed (`make bench-shapes` installs them). */
function peersMissing() {
  try {
    checkPeersInstalled();
    return false;
  } catch (error) {
    return error.message;
  }
}

test('a run filtered to one tree family member prints its family\'s summary line, in seconds', { skip: peersMissing() }, () => {
  const member = 'arrays, small leaves, branching 600, depth 1';
  const { status, stdout, stderr } = run(['--family', member]);
  assert.strictEqual(status, 0, stderr);
  const saved = /^raw results: (.+\.json) /m.exec(stderr);
  assert.ok(saved, stderr);
  try {
    const report = JSON.parse(fs.readFileSync(saved[1], 'utf8'));
    assert.deepStrictEqual(Array.from(new Set(report.results.map((r) => `${r.family} · ${r.shape}`))), [`arrays, small leaves · ${member}`]);
    assert.ok(report.results.every((r) => r.runs.length === 1 && r.runs.every((one) => one.verified)), 'every run verified');
    // Each process called its approach, untimed, before its timed runs.
    assert.ok(report.results.every((r) => r.warmCalls.length === 1 && r.warmCalls[0] >= 1), 'every process warmed up');
    // A document this small is timed over a run of calls, the lone call's time kept beside it.
    assert.ok(report.results.every((r) => r.repeats[0] > 1 && r.runs.every((one) => one.singleMs > 0)), 'every round a run of calls');
    assert.strictEqual(report.results.find((r) => r.approach === 'fast.pipeTo').comparedWith, 'native.write');
    // Every approach but the references had its reference timed beside it in each round: a ratio per round.
    const references = new Set(['native', 'reference']);
    for (const r of report.results) {
      const paired = r.runs.every((one) => one.pairedMs > 0 && one.pairedRatio > 0);
      assert.strictEqual(paired, !references.has(r.kind), `${r.approach}: ${JSON.stringify(r.runs)}`);
    }
  } finally {
    fs.unlinkSync(saved[1]);
  }
  // The family's line: a ratio and a block for each approach but native (native's text written among them), on its
  // small document, then native's block.
  assert.match(stdout, /^## stringify, per family: /m);
  // One space at least between cells: a slow run's three-digit ratio (101.32x on a loaded machine) fills its column.
  assert.match(stdout, /^arrays, small leaves +(- +\d+\.\d\dx +\d+\.\dms +){6}\d+\.\dms$/m);
  assert.doesNotMatch(stdout, /^## parse/m);
});
