#!/usr/bin/env node
'use strict';
// `make test`: its stages (make targets, given as arguments) one after another, each run even when one before it
// failed (they are independent, and one failure should not hide the others' verdicts and times), then a table of each
// stage's wall time and result, so the stage that made the next run slower is visible; and a check that the run
// left nothing behind (scripts/leftovers.js): every stage gets a temp folder of its own (TMPDIR) that must be empty
// at the end, and the engine's containers, networks, volumes and swarm state, the processes the run started and the
// lab's ports must be as they were. A leftover fails the run, named.
//
//   node scripts/test-stages.js STAGE...      (MAKE: the make to run them with)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { snapshot, leftovers, MARKER } = require('./leftovers');
const { PORT_OFFSETS, publishedPorts } = require('../docker/compose-lab');

// The native lab tests' offsets (tests/integration; 16000: make try's) beside the containerized checks'.
const NATIVE_TEST_OFFSETS = [16000, 20000, 22000];
// A stage that has just ended may still be reaping what it stopped (a container's docker-proxy, a killed server);
// the check looks again for this long before it calls something left behind. A bound, not a timing.
const SETTLE_MS = 30000;
const SETTLE_POLL_MS = 1000;

function runStage(stage, env) {
  return new Promise((resolve) => {
    const child = spawn(process.env.MAKE || 'make', ['--no-print-directory', stage], { stdio: 'inherit', env });
    child.on('close', (code, signal) => resolve(code === null ? `killed (${signal})` : code));
  });
}

function table(rows) {
  const width = Math.max(5, ...rows.map((r) => r.stage.length));
  const line = (a, b, c) => `${a.padEnd(width)}  ${b.padStart(8)}  ${c}`;
  const total = rows.reduce((sum, r) => sum + r.seconds, 0);
  return [line('stage', 'seconds', 'result'), ...rows.map((r) => line(r.stage, r.seconds.toFixed(0), r.result)), line('total', total.toFixed(0), '')].join('\n');
}

async function settledLeftovers(before, where) {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const left = leftovers(before, snapshot(where));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

async function main(stages) {
  const runId = `${process.pid}-${Date.now()}`;
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-test-run-'));
  const ports = new Set(Object.values(PORT_OFFSETS).concat(NATIVE_TEST_OFFSETS).flatMap(publishedPorts));
  const where = { tmpDir, runId, ports };
  const before = snapshot(where);
  const env = Object.assign({}, process.env, { TMPDIR: tmpDir, [MARKER]: runId });
  const rows = [];
  for (const stage of stages) {
    const started = Date.now();
    const code = await runStage(stage, env);
    rows.push({ stage, seconds: (Date.now() - started) / 1000, result: code === 0 ? 'ok' : `FAILED (exit ${code})` });
    // After the images are built, the containerized checks use them as they are instead of building their own.
    if (stage === 'test-images' && code === 0) env.LAB_CHECK_IMAGES_BUILT = '1';
  }
  const failed = rows.some((r) => r.result !== 'ok');
  const left = await settledLeftovers(before, where);
  fs.rmSync(tmpDir, { recursive: true, force: true });
  console.log(`\nmake test: wall time of each stage\n${table(rows)}`);
  if (left.length) console.log(`\nmake test: LEFT BEHIND by the run (a test's cleanup is missing):\n  ${left.join('\n  ')}`);
  else console.log('\nmake test: nothing left behind (temp folder, containers, networks, volumes, swarm, processes, lab ports)');
  return failed || left.length ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
  console.error(`test-stages: ${err.stack}`);
  process.exit(1);
});
