'use strict';
// What the machine did beside the lab, from Linux's own accounting: the CPU time of every mode since boot (/proc/stat,
// the whole machine even inside a container, since /proc/stat is not namespaced), the load average, the CPU time the
// hypervisor took (steal), the throttling of this process's cgroup (cpu.stat: a container's CPU quota) and the CPUs'
// clock where it is readable. The cgroup's cpu.stat is read by the Node agent's cgroup-cpu.js, which every process the
// agent watches reads too. Read, not sampled: two readings and `machineBetween` give a window's figures; the load
// driver exports the readings for Prometheus (load/src/driver/metrics.js) and `make try` and the matrix read the
// machine before they start. Node 14 syntax: every service's runtime metrics export their cgroup's throttling.
// Anything unreadable (not Linux, a file a sandbox hides) is null, never a guess.
const fs = require('fs');
const { readCgroupThrottling, parseCgroupCpuStat, cpuStatCandidates } = require('@lab/node-agent/cgroup-cpu');

// /proc/stat and /proc/<pid>/stat count in USER_HZ, 100 on every Linux architecture the lab runs on (sysconf(_SC_CLK_TCK) is 100 there).
const CLOCK_TICKS_PER_SECOND = 100;
// /proc/stat's cpu line, in its order. guest and guest_nice follow; they are already counted in user and nice.
const CPU_MODES = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'];
// A CPU in these modes ran nothing: idle, or idle with I/O outstanding.
const IDLE_MODES = new Set(['idle', 'iowait']);

const readText = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    return null;
  }
};

/** /proc/stat's text to {modes: {user: seconds, ...}, cpus}: the machine's CPU time by mode, summed over its CPUs. */
function parseProcStat(text) {
  const lines = text.split('\n');
  const total = lines.find((line) => /^cpu\s/.test(line));
  if (!total) return null;
  const ticks = total.trim().split(/\s+/).slice(1).map(Number);
  const modes = {};
  CPU_MODES.forEach((mode, i) => {
    modes[mode] = (Number.isFinite(ticks[i]) ? ticks[i] : 0) / CLOCK_TICKS_PER_SECOND;
  });
  return { modes, cpus: lines.filter((line) => /^cpu\d+\s/.test(line)).length };
}

/** /proc/loadavg's text to its 1-minute load average (runnable and uninterruptible tasks, averaged). */
function parseLoadAverage(text) {
  const load1 = Number(text.trim().split(/\s+/)[0]);
  return Number.isFinite(load1) ? load1 : null;
}

/** The CPUs' mean clock in MHz: cpufreq's current frequency where the kernel exposes it, else /proc/cpuinfo's; or null. */
function readFrequencyMHz() {
  const fromCpufreq = [];
  for (let cpu = 0; ; cpu++) {
    const text = readText(`/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_cur_freq`);
    if (text === null) break;
    fromCpufreq.push(Number(text) / 1000);
  }
  const cpuinfo = fromCpufreq.length ? null : readText('/proc/cpuinfo');
  const values = fromCpufreq.length ? fromCpufreq : (cpuinfo || '').split('\n').filter((l) => /^cpu MHz/.test(l)).map((l) => Number(l.split(':')[1]));
  const finite = values.filter(Number.isFinite);
  return finite.length ? Math.round(finite.reduce((a, b) => a + b, 0) / finite.length) : null;
}

/**
 * /proc/<pid>/stat's fields after the command name, from the state on (fields[0] is field 3 of proc(5)): the name is
 * in parentheses and may hold spaces and parentheses itself, so the fields start past the last ')'.
 */
function processStatFields(text) {
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/**
 * Seconds of CPU (user and system) process pid has used so far, from /proc/<pid>/stat (utime and stime, proc(5)'s
 * fields 14 and 15): another process's, such as a service a benchmark started; null where there is no /proc.
 */
function processCpuSeconds(pid) {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null) {
    if (readText('/proc/self/stat') === null) return null;
    throw new Error(`no process ${pid} (/proc/${pid}/stat)`);
  }
  const fields = processStatFields(stat);
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** One reading of the machine: {at (ms), cpus, cpuSeconds: {mode: s}, load1, throttling, frequencyMHz}; null fields where unreadable. */
function readMachine() {
  const stat = readText('/proc/stat');
  const parsed = stat && parseProcStat(stat);
  const loadavg = readText('/proc/loadavg');
  return {
    at: Date.now(),
    cpus: parsed ? parsed.cpus : null,
    cpuSeconds: parsed ? parsed.modes : null,
    load1: loadavg ? parseLoadAverage(loadavg) : null,
    throttling: readCgroupThrottling(),
    frequencyMHz: readFrequencyMHz(),
  };
}

/**
 * What the machine did between two readings: {seconds, cpus, busyCores, busyShare, stealShare, load1 (the later
 * reading's), throttledSeconds (this cgroup's), frequencyMHz}. Shares are of all the machine's CPU time in the window,
 * taken from /proc/stat itself, so the clocks of the two readings do not enter them. null without /proc/stat.
 */
function machineBetween(before, after) {
  if (!before.cpuSeconds || !after.cpuSeconds || !after.cpus) return null;
  const delta = {};
  for (const mode of CPU_MODES) delta[mode] = Math.max(0, after.cpuSeconds[mode] - before.cpuSeconds[mode]);
  const total = CPU_MODES.reduce((sum, mode) => sum + delta[mode], 0);
  const busy = CPU_MODES.filter((mode) => !IDLE_MODES.has(mode)).reduce((sum, mode) => sum + delta[mode], 0);
  const seconds = total / after.cpus;
  return {
    seconds,
    cpus: after.cpus,
    busyCores: seconds > 0 ? busy / seconds : null,
    busyShare: total > 0 ? busy / total : null,
    stealShare: total > 0 ? delta.steal / total : null,
    load1: after.load1,
    throttledSeconds: before.throttling && after.throttling ? Math.max(0, after.throttling.throttledSeconds - before.throttling.throttledSeconds) : null,
    frequencyMHz: after.frequencyMHz,
  };
}

module.exports = { readMachine, machineBetween, processStatFields, processCpuSeconds, readCgroupThrottling, parseProcStat, parseLoadAverage, parseCgroupCpuStat, cpuStatCandidates, CPU_MODES, IDLE_MODES };
