#!/usr/bin/env node
'use strict';
// `make test`: its stages (make targets, given as arguments) one after another, each run even when one before it
// failed (they are independent, and one failure should not hide the others' verdicts and times), then a table of each
// stage's wall time and result, so the stage that made the next run slower is visible; and a check that the run
// left nothing behind (scripts/leftovers.js): every stage gets a temp folder of its own (TMPDIR) that must be empty
// at the end, and the engine's containers, networks, volumes and swarm state, the processes the run started and the
// lab's ports must be as they were. A leftover fails the run, named.
//
// `STAGE&` runs beside the stages after it, its output held and printed in one block when it ends; `wait` waits for
// every such stage before the next one starts. make test builds the images so, beside the CPU-bound tests: on a fresh
// machine most of that build waits on the network and the disk (debootstrap, apt, npm, Maven downloads).
//
//   node scripts/test-stages.js STAGE[&]... [wait] STAGE...      (MAKE: the make to run them with)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { snapshot, leftovers, MARKER } = require('./leftovers');
const { PORT_OFFSETS, publishedPorts, ENGINE_UNAVAILABLE } = require('@lab/docker/compose-lab');
const { INTEGRATION_PORT_OFFSETS } = require('@lab/tests/integration/port-offsets');

// A stage that has just ended may still be reaping what it stopped (a container's docker-proxy, a killed server);
// the check looks again for this long before it calls something left behind. A bound, not a timing.
const SETTLE_MS = 30000;
const SETTLE_POLL_MS = 1000;

/** Runs one make target; its row ({stage, seconds, result}) once it ends. `held`: its output printed at its end. */
function runStage(stage, env, { held = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.env.MAKE || 'make', ['--no-print-directory', stage], { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    const output = [];
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      if (held) process.stdout.write(`\n== ${stage} (beside the other stages), its output:\n${Buffer.concat(output)}== ${stage}: end\n`);
      const result = code === 0 ? 'ok' : `FAILED (exit ${code === null ? `killed by ${signal}` : code})`;
      resolve({ stage: held ? `${stage} (beside)` : stage, started, seconds: (Date.now() - started) / 1000, result });
    });
  });
}

function table(rows, wallSeconds) {
  const width = Math.max(5, ...rows.map((r) => r.stage.length));
  const line = (a, b, c) => `${a.padEnd(width)}  ${b.padStart(8)}  ${c}`;
  return [line('stage', 'seconds', 'result'), ...rows.map((r) => line(r.stage, r.seconds.toFixed(0), r.result)), line('total', wallSeconds.toFixed(0), 'wall time')].join('\n');
}

async function settledLeftovers(before, where) {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const left = leftovers(before, snapshot(where));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/**
 * Starts the Docker engine where the engine stages would (docker/ensure-engine.sh), before the first snapshot: an
 * engine that was stopped keeps its networks and volumes on disk, and only a running engine can show them. Taken
 * where no engine answered, the snapshot assumed a fresh engine and blamed the run for what an earlier one had left
 * (seen on CI: a docker_gwbridge from an earlier swarm, which the swarm check rightly kept as not its own).
 */
function startEngine(stages) {
  if (!stages.some((stage) => stage.endsWith('-if-engine'))) return [];
  const started = Date.now();
  const { status } = spawnSync(path.join(__dirname, '..', 'docker', 'ensure-engine.sh'), [], { stdio: 'inherit' });
  // 3: none here and none can be started; the engine stages say so themselves and skip. A failure is theirs to report.
  const result = status === 0 ? 'ok' : status === ENGINE_UNAVAILABLE ? 'none here' : `failed (exit ${status}); the engine stages say why`;
  return [{ stage: 'engine', seconds: (Date.now() - started) / 1000, result }];
}

async function main(stages) {
  const runStarted = Date.now();
  const runId = `${process.pid}-${Date.now()}`;
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-test-run-'));
  const ports = new Set(Object.values(PORT_OFFSETS).concat(Object.values(INTEGRATION_PORT_OFFSETS)).flatMap(publishedPorts));
  const where = { tmpDir, runId, ports };
  // Its row does not fail the run: the stages that need the engine do, where they cannot do without it.
  const engineRows = startEngine(stages);
  const before = snapshot(where);
  const env = Object.assign({}, process.env, { TMPDIR: tmpDir, [MARKER]: runId });
  const rows = [];
  let beside = [];
  const record = (row) => {
    rows.push(row);
    // After the images are built, the containerized checks use them as they are instead of building their own.
    if (row.stage.startsWith('test-images') && row.result === 'ok') env.LAB_CHECK_IMAGES_BUILT = '1';
  };
  const waitBeside = async () => {
    (await Promise.all(beside)).forEach(record);
    beside = [];
  };
  for (const stage of stages) {
    if (stage === 'wait') await waitBeside();
    else if (stage.endsWith('&')) beside.push(runStage(stage.slice(0, -1), env, { held: true }));
    else record(await runStage(stage, env));
  }
  await waitBeside();
  rows.sort((a, b) => a.started - b.started);
  const failed = rows.some((r) => r.result !== 'ok');
  rows.unshift(...engineRows);
  const left = await settledLeftovers(before, where);
  fs.rmSync(tmpDir, { recursive: true, force: true });
  console.log(`\nmake test: wall time of each stage\n${table(rows, (Date.now() - runStarted) / 1000)}`);
  if (left.length) console.log(`\nmake test: LEFT BEHIND by the run (a test's cleanup is missing):\n  ${left.join('\n  ')}`);
  else console.log('\nmake test: nothing left behind (temp folder, containers, networks, volumes, swarm, processes, lab ports)');
  return failed || left.length ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
  console.error(`test-stages: ${err.stack}`);
  process.exit(1);
});
