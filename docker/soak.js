#!/usr/bin/env node
'use strict';
// `make soak`: the containerized lab under load for a long while, on a real Docker engine. The load driver runs
// SOAK_SUITE (demo: every workload at its large input) pass after pass until SOAK_MINUTES have gone by and SOAK_PASSES
// passes have run, each pass whole (at least three: a warm-up, a baseline and one held to it). Then, from Prometheus:
// no service holds more RSS through a pass (the level it stays at or above 90 % of the time) in the later half of the
// passes after the warm-up than 10 % above the most it held in the earlier half, unless its heap floor and external
// memory show memory kept after use (peaks, heap floor and heap size reported beside it), no service restarted, no run
// was invalid, no 5xx but admission control's 503, and Prometheus' own disk is bounded (a size limit in force and held,
// its series not growing); from each pass's run.json, no connection error at the client (timeouts are reported). Prints
// the figures, writes them to soak-<time>.json beside the passes' run folders, and always ends with `docker compose
// down -v`.
//
//   SOAK_MINUTES=10 SOAK_SUITE=demo node docker/soak.js [--if-engine]    (SOAK_PORT_OFFSET, default in compose-lab.js)
//   SOAK_MINUTES=0 SOAK_PASSES=6 ...     six passes however long they take (make test: a count of passes does not
//                                        depend on the machine's speed or on what runs beside it)
//
// --if-engine: where no Docker engine runs or can be started, say so and exit 0 (make test runs a short soak).
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, readManifests } = require('@lab/lab-topology/manifests');
const { composeLab, exitWith, mustRun, PORT_OFFSETS } = require('./compose-lab');
const { query, queryRange, flags } = require('./prometheus-query');
const { soakChecks, MAX_RSS_GROWTH, MIN_PASSES } = require('./soak-checks');
const { runSuite } = require('./driver');

const PROJECT = 'lab-soak';
const STATE_DIR = path.join(ROOT, '.soak');
const RSS_SERIES_STEP_S = 5;
// The RSS a service holds through a pass (at or above it 90 % of the time: a short dip, when V8 gives memory back,
// does not count) and its peak, per job.
const RSS_FIGURES = {
  held: (w) => `max by (job) (quantile_over_time(0.1, process_resident_memory_bytes[${w}s]))`,
  peaks: (w) => `max by (job) (max_over_time(process_resident_memory_bytes[${w}s]))`,
};
// What the runtimes say of their own memory, per pass: whether RSS that grows is live objects (a leak: the heap's floor
// rises) or memory the process keeps after use (the allocator's or the heap's high-water mark). prom-client's default
// metrics on the Node services and the driver, the Prometheus Java client's on the JVM.
const HEAP_FIGURES = {
  heapUsedFloor: (w) => `min by (job) (min_over_time(nodejs_heap_size_used_bytes[${w}s])) or min by (job) (min_over_time(sum by (job, instance) (jvm_memory_used_bytes{area="heap"})[${w}s:5s]))`,
  heapTotalPeak: (w) => `max by (job) (max_over_time(nodejs_heap_size_total_bytes[${w}s])) or max by (job) (max_over_time(sum by (job, instance) (jvm_memory_committed_bytes{area="heap"})[${w}s:5s]))`,
  externalPeak: (w) => `max by (job) (max_over_time(nodejs_external_memory_bytes[${w}s]))`,
};

const log = (message) => console.log(`soak: ${message}`);

/** SOAK_MINUTES, SOAK_PASSES, SOAK_SUITE and SOAK_MAX_RSS_GROWTH, checked. */
function settings(env = process.env) {
  const given = (name) => env[name] !== undefined && env[name] !== '';
  const minutes = given('SOAK_MINUTES') ? Number(env.SOAK_MINUTES) : 10;
  if (!(Number.isFinite(minutes) && minutes >= 0)) throw new Error(`SOAK_MINUTES must be a number of minutes, 0 or more, got "${env.SOAK_MINUTES}"`);
  const passes = given('SOAK_PASSES') ? Number(env.SOAK_PASSES) : MIN_PASSES;
  if (!(Number.isInteger(passes) && passes >= MIN_PASSES)) throw new Error(`SOAK_PASSES must be a whole number of passes, at least ${MIN_PASSES} (a warm-up, a baseline, one held to it), got "${env.SOAK_PASSES}"`);
  const suite = env.SOAK_SUITE || 'demo';
  if (!fs.existsSync(path.join(ROOT, 'load', 'suites', `${suite}.json`))) throw new Error(`SOAK_SUITE: no suite "${suite}" in load/suites`);
  const maxRssGrowth = given('SOAK_MAX_RSS_GROWTH') ? Number(env.SOAK_MAX_RSS_GROWTH) : MAX_RSS_GROWTH;
  if (!(maxRssGrowth >= 0)) throw new Error(`SOAK_MAX_RSS_GROWTH must be a fraction (0.1 is 10 %), got "${env.SOAK_MAX_RSS_GROWTH}"`);
  return { minutes, passes, suite, maxRssGrowth };
}

/** What the soak keeps of a pass: its window and verdict, and the client's side of its scenarios. */
function passOf(run) {
  const sum = (field) => run.summary.reduce((total, s) => total + (s[field] || 0), 0);
  return {
    id: path.basename(run.dir),
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    verdict: run.verdict,
    scenarios: run.summary.length,
    failedScenarios: run.summary.filter((s) => !s.passed).map((s) => `${s.name} (${s.problems.join('; ')})`),
    requests: sum('requests'),
    invalid: sum('invalid'),
    non2xx: sum('non2xx'),
    clientErrors: sum('errors'),
    clientTimeouts: sum('timeouts'),
    timedOut: run.summary.filter((s) => s.timeouts > 0).map((s) => ({ scenario: s.name, timeouts: s.timeouts })),
  };
}

const seconds = (iso) => Date.parse(iso) / 1000;

/** Prometheus' data folder on disk, in bytes (du in its container: busybox upstream, coreutils in the stand-in). */
async function prometheusDisk(lab) {
  const output = await mustRun('measuring Prometheus\' disk', ...lab.compose(['exec', '-T', 'prometheus', 'du', '-sk', '/prometheus']));
  return Number(output.trim().split(/\s+/)[0]) * 1024;
}

/** {job: value} of a query by job at a time. */
async function byJob(lab, expr, time) {
  return Object.fromEntries((await query(lab.prometheus, expr, time)).map((s) => [s.metric.job, s.value]));
}

/** Counter increases between two times, one per value of key(labels): [{key, metric, count}]. A counter not yet there is 0. */
async function increases(lab, expr, from, to, key) {
  const at = async (time) => new Map((await query(lab.prometheus, expr, time)).map((s) => [key(s.metric), s]));
  const [before, after] = [await at(from), await at(to)];
  return [...after].map(([k, s]) => ({ key: k, metric: s.metric, count: s.value - (before.has(k) ? before.get(k).value : 0) }));
}

/** Every figure the checks need, asked of Prometheus for the passes' windows. */
async function measure(lab, passes, perPass) {
  const jobs = readManifests().map((m) => m.name).concat('prometheus');
  // {figure: {job: [value or null, one per pass]}} for each set of per-pass expressions.
  const emptyFigures = (expressions) => Object.fromEntries(Object.keys(expressions).map((figure) => [figure, Object.fromEntries(jobs.map((job) => [job, []]))]));
  const rss = emptyFigures(RSS_FIGURES);
  const heap = emptyFigures(HEAP_FIGURES);
  for (const pass of passes) {
    const window = Math.ceil(seconds(pass.endedAt) - seconds(pass.startedAt));
    for (const [into, expressions] of [[rss, RSS_FIGURES], [heap, HEAP_FIGURES]]) {
      for (const [figure, expr] of Object.entries(expressions)) {
        const values = await byJob(lab, expr(window), seconds(pass.endedAt));
        for (const job of jobs) into[figure][job].push(job in values ? values[job] : null);
      }
    }
  }
  const from = seconds(passes[0].startedAt) - 1;
  const to = seconds(passes[passes.length - 1].endedAt);
  const whole = `${Math.ceil(to - from)}s`;
  const restarts = await byJob(lab, `max by (job) (changes(process_start_time_seconds[${whole}]))`, to);
  const invalid = await increases(lab, 'sum by (job) (lab_runs_total{outcome="invalid"})', from, to, (m) => m.job);
  const errors = await increases(lab, 'sum by (job, status_code) (http_request_duration_seconds_count{status_code=~"5.."})', from, to, (m) => `${m.job} ${m.status_code}`);
  // Every job's RSS through the soak, kept in the figures so a trend can be read (or drawn) afterwards.
  const rssSeries = Object.fromEntries((await queryRange(lab.prometheus, 'max by (job) (process_resident_memory_bytes)', from, to, RSS_SERIES_STEP_S)).map((s) => [s.metric.job, s.points]));
  const running = await flags(lab.prometheus);
  const [limit] = await query(lab.prometheus, 'prometheus_tsdb_retention_limit_bytes', to);
  return {
    rss,
    heap,
    rssSeries,
    restarts,
    invalidRuns: Object.fromEntries(invalid.map((i) => [i.metric.job, i.count])),
    serverErrors: errors.map((e) => ({ job: e.metric.job, status: e.metric.status_code, count: e.count })),
    prometheus: {
      retentionTime: running['storage.tsdb.retention.time'],
      retentionSeconds: durationSeconds(running['storage.tsdb.retention.time']),
      limitBytes: limit ? limit.value : 0,
      diskBytes: perPass.map((p) => p.diskBytes),
      headSeries: perPass.map((p) => p.headSeries),
    },
  };
}

/** A Prometheus duration ("7d", "1y", "36h", "1w2d") in seconds. */
function durationSeconds(text) {
  const units = { y: 365 * 86400, w: 7 * 86400, d: 86400, h: 3600, m: 60, s: 1 };
  let total = 0;
  const rest = String(text).replace(/(\d+)(y|w|d|h|m|s)/g, (_, n, unit) => {
    total += Number(n) * units[unit];
    return '';
  });
  if (rest !== '' || total === 0) throw new Error(`Prometheus' retention time "${text}" is not a duration this script reads`);
  return total;
}

async function soak(lab, { minutes, passes: minPasses, suite, maxRssGrowth }) {
  const started = Date.now();
  const deadline = started + minutes * 60000;
  log(`suite ${suite}, pass after pass${minutes ? ` for ${minutes} min and` : ','} at least ${minPasses} passes (each pass whole)`);
  const passes = [];
  const perPass = [];
  // Ctrl-C (or SIGTERM) in an hour-long soak: the pass in progress is stopped and the lab taken down; a second one quits.
  let interrupted = null;
  const interrupt = (signal) => {
    interrupted = signal;
    log(`${signal}: stopping the pass in progress, then docker compose down -v (${signal} again quits at once, leaving the lab up)`);
    fetch(`${lab.url('load')}/runs/stop`, { method: 'POST' }).catch(() => {});
    process.once(signal, () => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  while (passes.length < minPasses || Date.now() < deadline) {
    const number = passes.length + 1;
    const onProgress = (status) => log(`pass ${number} of at least ${minPasses}: ${status.completed.length}/${status.scenarios} scenarios; ${((Date.now() - started) / 60000).toFixed(1)} min${minutes ? ` of ${minutes}` : ''}`);
    const pass = passOf(await runSuite(lab.url('load'), suite, { resultsDir: lab.resultsDir, onProgress }));
    if (interrupted) throw new Error(`stopped by ${interrupted} in pass ${number}; no verdict (the passes are in ${path.relative(ROOT, lab.resultsDir)})`);
    passes.push(pass);
    perPass.push({ diskBytes: await prometheusDisk(lab), headSeries: (await query(lab.prometheus, 'prometheus_tsdb_head_series'))[0].value });
    const failed = pass.failedScenarios.length ? `; failed: ${pass.failedScenarios.join(', ')}` : '';
    log(`pass ${passes.length} ${pass.verdict}: ${pass.scenarios} scenarios, ${pass.requests} requests, ${pass.non2xx} non-2xx, ${pass.invalid} not validated${failed}`);
  }
  const measured = await measure(lab, passes, perPass);
  const checks = soakChecks(Object.assign({ passes }, measured), { maxRssGrowth });
  const file = path.join(lab.resultsDir, `soak-${new Date(started).toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ suite, minutes, maxRssGrowth, startedAt: new Date(started).toISOString(), endedAt: new Date().toISOString(), passes, ...measured, checks }, null, 2)}\n`);
  for (const c of checks) log(`${c.passed === null ? 'NOTE' : c.passed ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  log(`figures in ${path.relative(ROOT, file)}`);
  const failed = checks.filter((c) => c.passed === false);
  if (failed.length) throw new Error(`${failed.length} check(s) failed: ${failed.map((c) => c.name).join('; ')}`);
}

async function main(argv) {
  const started = Date.now();
  const wanted = settings();
  const lab = composeLab({ project: PROJECT, stateDir: STATE_DIR, offset: Number(process.env.SOAK_PORT_OFFSET || PORT_OFFSETS.soak), log });
  if (!(await lab.prepare({ ifEngine: argv.includes('--if-engine') }))) return 0;
  return lab.session(started, () => soak(lab, wanted));
}

if (require.main === module) exitWith('soak', main);

module.exports = { settings };
