'use strict';
// Was the machine busy with something else while the lab measured? The load driver exports the machine's CPU time by
// mode (node-kit/machine-metrics.js, from /proc/stat); every job Prometheus scrapes exports its own process's CPU
// (process_cpu_seconds_total). What the machine's CPUs did that no lab job did went elsewhere: another program, a CPU
// hog, the hypervisor (steal), and the few percent of what the lab runs but does not scrape (Prometheus, Grafana,
// Docker's daemon). A scenario whose mean share elsewhere passes the limit (LAB_BUSY_PERCENT) says its figures are not
// a verdict: a block the scheduler made, or a run it slowed, is not the approach's.
const { METRIC } = require('@lab/node-kit/metrics');
const { round } = require('@lab/loop-kit/round');

// The driver's job: one process exports the machine's figures for all.
const DRIVER_JOB = 'load';
const IDLE_MODES = 'idle|iowait';
// Asked of Prometheus over a scenario's window and by the live page, one point a second, as JOB_QUERIES are; but as
// rate() over 5 s, not irate(): the driver's reading of the machine and each job's of its own CPU are scraped at
// different moments of each second, so a second's busy and lab figures cover different instants, and their difference
// swung from +0.6 to -0.5 cores second by second on a quiet machine (a try run, 2026-11-29); over 5 s the two cover
// nearly the same time.
const MACHINE_QUERIES = {
  busyCores: `sum(rate(${METRIC.machineCpu}{job="${DRIVER_JOB}",mode!~"${IDLE_MODES}"}[5s]))`,
  stealCores: `sum(rate(${METRIC.machineCpu}{job="${DRIVER_JOB}",mode="steal"}[5s]))`,
  cpus: `max(${METRIC.machineCpus}{job="${DRIVER_JOB}"})`,
  load1: `max(${METRIC.machineLoad1}{job="${DRIVER_JOB}"})`,
  frequencyHertz: `avg(${METRIC.machineCpuFrequency}{job="${DRIVER_JOB}"})`,
  // Every scraped job's CPU: the lab's own.
  labCores: 'sum(rate(process_cpu_seconds_total[5s]))',
};

const DEFAULT_BUSY_PERCENT = 25;

/** LAB_BUSY_PERCENT: the share (0-100) of the machine's CPU going elsewhere past which a scenario's figures are not a verdict. */
function busyPercentSetting(env = process.env) {
  const raw = env.LAB_BUSY_PERCENT;
  if (raw === undefined || raw === '') return DEFAULT_BUSY_PERCENT;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 100) throw new TypeError(`LAB_BUSY_PERCENT must be a number in [0, 100], got ${raw}`);
  return value;
}

const byTime = (points) => new Map((points || []).map(([t, v]) => [t, v]));

/**
 * The per-second shares of the machine's CPU from a machine section (MACHINE_QUERIES' series: {busyCores, ...: [[t,
 * v]]}): [[t, share]] of the CPU that went elsewhere, as measured (busy less the lab's, of all CPUs: below 0 in a
 * second whose lab figure ran ahead, the two rates being taken from different scrapes) and as a second's figure to
 * show (never below 0), and of steal. Seconds without both figures are left out.
 */
function machineShares(machine) {
  const cpus = byTime(machine.cpus);
  const lab = byTime(machine.labCores);
  const steal = byTime(machine.stealCores);
  const difference = [];
  const stolen = [];
  for (const [t, busy] of machine.busyCores || []) {
    const n = cpus.get(t);
    if (!(n > 0)) continue;
    if (lab.has(t)) difference.push([t, (busy - lab.get(t)) / n]);
    if (steal.has(t)) stolen.push([t, steal.get(t) / n]);
  }
  return { elsewhereDifference: difference, elsewhereShare: difference.map(([t, v]) => [t, Math.max(0, v)]), stealShare: stolen };
}

const mean = (points) => (points.length ? points.reduce((sum, [, v]) => sum + v, 0) / points.length : null);
const peak = (points) => (points && points.length ? Math.max(...points.map(([, v]) => v)) : null);
const percent = (share) => (share === null ? null : round(share * 100, 1));

/**
 * A scenario's machine figures from its server section's machine series, held to busyPercent: {cpus, elsewherePercent
 * (mean over the scenario), elsewherePeakPercent (its worst second), stealPercent, load1Max, frequencyMHz,
 * targetThrottledSeconds (the target's cgroup held back by its CPU quota, from its job's throttledRatio; null where it
 * exports none), busy}; null without them (no Prometheus, or a driver that exports no machine figures).
 */
function machineFigures(machine, busyPercent, targetJob) {
  if (!machine || !machine.busyCores || !machine.busyCores.length) return null;
  const { elsewhereDifference, elsewhereShare, stealShare } = machineShares(machine);
  if (!elsewhereShare.length) return null;
  // The mean of the differences, clamped once: clamping each second first would count every second the lab's figure
  // ran ahead of the machine's as zero and every one it lagged as CPU gone elsewhere.
  const elsewherePercent = percent(Math.max(0, mean(elsewhereDifference)));
  const frequency = peak(machine.frequencyHertz);
  return {
    cpus: peak(machine.cpus),
    elsewherePercent,
    elsewherePeakPercent: percent(peak(elsewhereShare)),
    stealPercent: percent(mean(stealShare)),
    load1Max: peak(machine.load1),
    frequencyMHz: frequency === null ? null : Math.round(frequency / 1e6),
    // Each point is a second's share, so their sum is seconds.
    targetThrottledSeconds: targetJob && targetJob.throttledRatio ? round(targetJob.throttledRatio.reduce((sum, [, v]) => sum + v, 0), 3) : null,
    busyLimitPercent: busyPercent,
    busy: elsewherePercent > busyPercent,
  };
}

/** "the machine was busy: 48 % of its CPU went elsewhere (worst second 97 %, load 3.1); these figures are not a verdict" */
function busyWords(figures) {
  const details = [`worst second ${figures.elsewherePeakPercent} %`];
  if (figures.load1Max !== null) details.push(`load ${figures.load1Max} on ${figures.cpus} CPUs`);
  if (figures.stealPercent > 0) details.push(`${figures.stealPercent} % stolen by the hypervisor`);
  if (figures.targetThrottledSeconds > 0) details.push(`the target's CPU quota held it back ${figures.targetThrottledSeconds} s`);
  return `the machine was busy: ${figures.elsewherePercent} % of its CPU went to processes outside the lab (${details.join(', ')}); these figures are not a verdict`;
}

/**
 * A run's machine in one object, from its scenarios' summaries (each `machineBusy`, machineFigures' or null): {watched
 * (scenarios with figures), busyScenarios: [names], worst: the summary's figures with the most elsewhere, busy,
 * busyLimitPercent}; null when no scenario was watched.
 */
function machineBusyOfRun(summaries) {
  const watched = summaries.filter((s) => s.machineBusy);
  if (!watched.length) return null;
  const worst = watched.reduce((a, b) => (b.machineBusy.elsewherePercent > a.machineBusy.elsewherePercent ? b : a));
  const busyScenarios = watched.filter((s) => s.machineBusy.busy).map((s) => s.name);
  return { watched: watched.length, scenarios: summaries.length, busyScenarios, worst: Object.assign({ scenario: worst.name }, worst.machineBusy), busy: busyScenarios.length > 0, busyLimitPercent: worst.machineBusy.busyLimitPercent };
}

/**
 * A run's machine in one line for its summary (machineBusyOfRun's): busy, quiet, or not watched.
 */
function describeRunMachine(m) {
  if (!m) return 'the machine beside the lab was not watched (Prometheus holds no machine figures from the driver)';
  if (m.busy) return `${busyWords(m.worst)}, in the busiest scenario (${m.worst.scenario}); ${m.busyScenarios.length} of ${m.scenarios} scenarios passed LAB_BUSY_PERCENT=${m.busyLimitPercent} %`;
  return `the machine stayed quiet: at most ${m.worst.elsewherePercent} % of its CPU went to processes outside the lab in a scenario (${m.worst.scenario}; LAB_BUSY_PERCENT=${m.busyLimitPercent} %)`;
}

/** A choice's caveat for a group of scenarios (machineBusyOfRun's over them): '' when none was busy. */
function notAVerdictWords(m) {
  if (!m || !m.busy) return '';
  return `; but the machine was busy in ${m.busyScenarios.length} of its ${m.scenarios} scenarios (up to ${m.worst.elsewherePercent} % of its CPU went to processes outside the lab): not a verdict`;
}

module.exports = {
  MACHINE_QUERIES,
  DEFAULT_BUSY_PERCENT,
  busyPercentSetting,
  machineShares,
  machineFigures,
  busyWords,
  machineBusyOfRun,
  describeRunMachine,
  notAVerdictWords,
};
