#!/usr/bin/env node
'use strict';
// `make chaos`: what happens to real labs, on the containerized lab and a real Docker engine. The `chaos` suite runs
// (load/suites/chaos.json); during its first, long scenario node-async's container is killed the way a crash kills it
// (SIGKILL to its process from the host: `docker kill` would count as a manual stop, which no restart policy undoes);
// compose restarts it; the next scenario waits for it and passes; during the last one the driver itself is stopped
// (`docker compose stop load`: SIGTERM). Then the files and verdicts are checked: the killed scenario failed with the
// reason, the one after the restart passed, run.json says stopped, in which scenario, and the verdict so far; the
// stopped scenario's partial result is there; Prometheus saw node-async restart. Always ends with `docker compose down -v`.
//
//   node docker/chaos.js [--if-engine]    (as root: it signals a container's process; CHAOS_PORT_OFFSET,
//   default in compose-lab.js)
//
// --if-engine: where no Docker engine runs or can be started, or not as root, say so and exit 0 (make test uses it).
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { until } = require('@lab/test-kit');
const { composeLab, exitWith, mustRun, PORT_OFFSETS } = require('./compose-lab');
const { query } = require('./prometheus-query');

const PROJECT = 'lab-chaos';
const STATE_DIR = path.join(ROOT, '.chaos');
const KILLED = 'node-async';
// Bounds on a hung step, not timings: each of these states is reached in seconds on a healthy engine.
const STEP_TIMEOUT_MS = 180000;

const log = (message) => console.log(`chaos: ${message}`);

async function latest(load) {
  return (await fetch(`${load}/runs/latest`)).json();
}

function waitFor(what, load, done) {
  return until(what, STEP_TIMEOUT_MS, async () => {
    const status = await latest(load);
    return { done: done(status), value: status, why: `${status.state}, current ${status.current}, ${status.completed.length} completed` };
  });
}

/** SIGKILL to the main process of a compose service's container, from the host: a crash, which compose restarts. */
async function crash(lab, service) {
  const id = (await mustRun(`finding ${service}'s container`, ...lab.compose(['ps', '-q', service]))).trim();
  const pid = Number((await mustRun(`finding ${service}'s process`, 'docker', ['inspect', '-f', '{{.State.Pid}}', id])).trim());
  if (!(pid > 0)) throw new Error(`${service}'s container has no running process (${pid})`);
  process.kill(pid, 'SIGKILL');
  log(`${service}: its process (host pid ${pid}) killed with SIGKILL`);
  return id;
}

function check(problems, condition, message) {
  if (!condition) problems.push(message);
}

/** The files and verdicts the run left (its folder under the lab's results). */
function checkRun(dir, containerRestarts) {
  const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));
  const problems = [];
  check(problems, run.state === 'stopped' && run.verdict === 'stopped', `run.json state/verdict ${run.state}/${run.verdict}, not stopped`);
  check(problems, run.stoppedIn === 'chaos-stopped-driver', `run.json stoppedIn ${run.stoppedIn}`);
  check(problems, run.verdictSoFar === 'failed', `run.json verdictSoFar ${run.verdictSoFar}: the killed scenario failed`);
  check(problems, typeof run.endedAt === 'string' && Date.parse(run.endedAt) >= Date.parse(run.startedAt), `run.json endedAt ${run.endedAt}`);
  const byName = Object.fromEntries(run.summary.map((s) => [s.name, s]));
  const killed = byName['chaos-killed-target'];
  check(problems, killed && !killed.passed && /node-async stopped answering during the scenario/.test(killed.problems.join()), `the killed scenario: ${JSON.stringify(killed)}`);
  const after = byName['chaos-after-restart'];
  check(problems, after && after.passed, `the scenario after the restart: ${JSON.stringify(after)}`);
  const stopped = byName['chaos-stopped-driver'];
  check(problems, stopped && stopped.stopped, `the scenario the driver was stopped in: ${JSON.stringify(stopped)}`);
  check(problems, fs.existsSync(path.join(dir, '03-chaos-stopped-driver.json')), 'no partial result of the stopped scenario');
  check(problems, containerRestarts >= 1, `${KILLED} was not restarted (RestartCount ${containerRestarts})`);
  if (problems.length > 0) throw new Error(`the chaos run in ${dir}:\n  ${problems.join('\n  ')}`);
  log(`files checked (${dir}): killed scenario failed with the reason, the next passed after the restart, run.json stopped in chaos-stopped-driver, verdict so far failed`);
}

async function main(argv) {
  const started = Date.now();
  const ifEngine = argv.includes('--if-engine');
  if (process.getuid() !== 0) {
    if (!ifEngine) throw new Error('make chaos signals a container\'s process from the host: run it as root');
    log('SKIPPED: not root, and make chaos signals a container\'s process from the host');
    return 0;
  }
  const lab = composeLab({ project: PROJECT, stateDir: STATE_DIR, offset: Number(process.env.CHAOS_PORT_OFFSET || PORT_OFFSETS.chaos), log });
  if (!(await lab.prepare({ ifEngine }))) return 0;
  return lab.session(started, async () => {
    const load = lab.url('load');
    const startedRun = await fetch(`${load}/runs?suite=chaos`, { method: 'POST' });
    if (startedRun.status !== 202) throw new Error(`could not start the chaos suite: ${await startedRun.text()}`);
    await waitFor('the first scenario under way', load, (s) => s.current === 'chaos-killed-target');
    const container = await crash(lab, KILLED);
    const afterKill = await waitFor('the killed scenario ended', load, (s) => s.completed.length >= 1);
    log(`chaos-killed-target: ${afterKill.completed[0].passed ? 'passed (!)' : `failed: ${afterKill.completed[0].problems.join('; ')}`}`);
    const last = await waitFor('the last scenario under way', load, (s) => s.current === 'chaos-stopped-driver' || !['waiting', 'running'].includes(s.state));
    if (last.current !== 'chaos-stopped-driver') throw new Error(`the run ended before its last scenario: ${JSON.stringify(last)}`);
    log('stopping the load driver (docker compose stop load: SIGTERM)');
    await mustRun('docker compose stop load', ...lab.compose(['stop', 'load']));
    const restarts = Number((await mustRun('reading the restart count', 'docker', ['inspect', '-f', '{{.RestartCount}}', container])).trim());
    checkRun(last.resultsDir.replace(/^\/results/, lab.resultsDir), restarts);
    // The restart in Prometheus: a new process start time. A failed scrape (up == 0) shows too when the restart takes
    // longer than a scrape interval, which a quick one does not.
    const restarted = await query(lab.prometheus, `changes(process_start_time_seconds{job="${KILLED}"}[15m])`);
    if (!restarted.length || !(restarted[0].value >= 1)) throw new Error(`Prometheus saw no restart of ${KILLED}: ${JSON.stringify(restarted)}`);
    const down = await query(lab.prometheus, `min_over_time(up{job="${KILLED}"}[15m])`);
    log(`Prometheus saw ${KILLED} restart (a new process start time)${down.length && down[0].value === 0 ? ' and down meanwhile (up == 0)' : '; no scrape fell in the gap'}`);
  });
}

exitWith('chaos', main);
