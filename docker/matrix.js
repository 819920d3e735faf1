#!/usr/bin/env node
'use strict';
// `make matrix`: one suite across runtime versions (NODE="18 20 22 24 26", JAVA="17 21 25", SUITE=matrix, REPEATS=3),
// repeated and interleaved, on a real Docker engine, compared with significance (docker/README.md, "The runtime-version
// matrix"). The lab is built once (the pinned versions), each other version's services are rebuilt on its base image
// (matrix/images.js), and each step (matrix/plan.js) points the lab at one version's images, starts those services
// beside the same load driver and Prometheus, runs the suite's scenarios of them (POST /runs' targets) and keeps the
// run folder as results/matrix-<time>/<step>/. The report across versions (load/src/matrix/) is written at the end and
// whenever a step ends, so an interrupted matrix still has one. Always ends with `docker compose down -v`.
// LAB_BASE_IMAGES chooses upstream or offline base images, as for make smoke.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { composeLab, exitWith, run, mustRun, PORT_OFFSETS } = require('./compose-lab');
const { settingsOf, stepsOf } = require('./matrix/plan');
const { SERVICES } = require('./matrix/versions');
const { versionImages, useVersion, removeVersionTags } = require('./matrix/images');
const { report } = require('@lab/load/src/matrix/matrix-report');
const { busyPercentSetting } = require('@lab/load/src/machine/busy-machine');
const { machineBeforeStart } = require('@lab/load/src/machine/before-start');
const { round } = require('@lab/loop-kit/round');

const STEP_TIMEOUT_MS = 30 * 60 * 1000;
// Held constant across the steps: what measures and what records.
const CONSTANT = ['topology', 'prometheus', 'load'];

const log = (message) => console.log(`matrix: ${message}`);
const minutes = (ms) => `${Math.round(ms / 60000)} min`;

/** The runtime's version text as the step's services reported it (run.json's targets' /info): "node 22.23.3". */
function runtimeVersionOf(runDir, runtime) {
  const header = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8'));
  const info = header.targets && header.targets[SERVICES[runtime][0]];
  return info && info.runtime ? `${info.runtime.name} ${info.runtime.version}` : null;
}

/** Runs one step; resolves to the step's record ({runDir, runtimeVersion, state} or {error}). */
async function runStep(lab, step, made, settings, matrixDir) {
  const version = made[`${step.runtime}-${step.line}`];
  if (version.error) return { error: version.error };
  await useVersion(step.runtime, version.tag, lab);
  const services = SERVICES[step.runtime];
  await mustRun(`starting ${services.join(', ')}`, ...lab.compose(['up', '-d', '--wait', '--wait-timeout', '300', '--no-deps', '--force-recreate', ...services]));
  const suite = await run(...lab.compose(['exec', '-T', 'load', 'node', 'src/run-suite.js', settings.suite, `http://127.0.0.1:3005`, '--targets', services.join(',')], { show: true, timeoutMs: STEP_TIMEOUT_MS }));
  await run(...lab.compose(['stop', ...services]));
  const found = /results in \/results\/([^\s,]+)/.exec(suite.output);
  if (!found) return { error: `the suite did not run (exit ${suite.code}): ${suite.output.trim().split('\n').slice(-2).join(' / ')}` };
  const runDir = step.id;
  fs.cpSync(path.join(lab.resultsDir, found[1]), path.join(matrixDir, runDir), { recursive: true });
  fs.rmSync(path.join(lab.resultsDir, found[1]), { recursive: true, force: true });
  return { runDir, state: suite.code === 0 ? 'passed' : 'failed', runtimeVersion: runtimeVersionOf(path.join(matrixDir, runDir), step.runtime) };
}

async function main() {
  const started = Date.now();
  const settings = settingsOf(process.env);
  const steps = stepsOf(settings);
  const matrixDir = path.join(ROOT, 'results', `matrix-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  log(`Node ${settings.node.join(', ') || 'none'}; Java ${settings.java.join(', ') || 'none'}; suite ${settings.suite}; ${settings.repeats} repeat${settings.repeats === 1 ? '' : 's'}: ${steps.length} steps, interleaved`);
  const lab = composeLab({ project: 'lab-matrix', stateDir: path.join(ROOT, '.matrix'), offset: Number(process.env.MATRIX_PORT_OFFSET || PORT_OFFSETS.matrix), log, imageTag: 'matrix' });
  await lab.prepare();
  fs.mkdirSync(matrixDir, { recursive: true });
  const record = { settings, startedAt: new Date(started).toISOString(), endedAt: null, images: {}, steps: [] };
  const save = () => fs.writeFileSync(path.join(matrixDir, 'matrix.json'), `${JSON.stringify(record, null, 2)}\n`);
  let made = {};
  const code = await lab.session(started, async () => {
    made = await versionImages(settings, lab, log);
    record.images = made;
    log(`images ready after ${minutes(Date.now() - started)}; starting Prometheus and the load driver`);
    await mustRun('starting the load driver and Prometheus', ...lab.compose(['up', '-d', '--wait', '--wait-timeout', '300', ...CONSTANT]));
    // The machine before the steps, the lab's driver and Prometheus already running: a busy one is named now.
    const before = await machineBeforeStart(busyPercentSetting(), 'Prometheus and the load driver');
    if (before) log(before.line);
    record.machineBeforeSteps = before ? { busy: before.busy, line: before.line, busyPercent: round(before.window.busyShare * 100, 1), cpus: before.window.cpus, load1: before.window.load1 } : null;
    const stepsStarted = Date.now();
    for (const [i, step] of steps.entries()) {
      const elapsed = Date.now() - stepsStarted;
      const left = i === 0 ? '' : `, about ${minutes((elapsed / i) * (steps.length - i))} left`;
      log(`step ${i + 1}/${steps.length}: ${step.runtime} ${step.line}, repeat ${step.repeat} of ${settings.repeats}${left}`);
      let outcome;
      try {
        outcome = await runStep(lab, step, made, settings, matrixDir);
      } catch (err) {
        outcome = { error: err.message };
      }
      if (outcome.error) log(`step ${step.id}: ${outcome.error}`);
      record.steps.push(Object.assign({}, step, outcome));
      record.endedAt = new Date().toISOString();
      save();
      if (record.steps.some((s) => s.runDir)) report(matrixDir);
    }
    const { text, html } = report(matrixDir);
    console.log(`\n${text}\n`);
    log(`the report: ${html} (matrix-report.json beside it; make compare A=<step folder> B=<step folder> compares any two runs)`);
  }, {
    up: async () => lab.build(),
    down: [async () => lab.down(), async () => removeVersionTags(made)],
  });
  log(`${steps.length} steps in ${minutes(Date.now() - started)}; ${record.steps.filter((s) => s.error).length} could not run`);
  return code;
}

exitWith('matrix', main);
