'use strict';
// This process's cgroup throttling, from Linux's own accounting (cpu.stat: a container's CPU quota held it back):
// what the agent exports as lab_cgroup_cpu_throttled_seconds_total, and what node-kit/machine.js reads for every
// service and the load driver. Here, in the package that depends on nothing, so both read the one definition.
// Node 14 syntax. Anything unreadable (not Linux, a file a sandbox hides) is null, never a guess.
const fs = require('fs');
const path = require('path');

const CGROUP_ROOT = '/sys/fs/cgroup';

const readText = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    return null;
  }
};

/**
 * A cgroup's cpu.stat to {periods, throttledPeriods, throttledSeconds}: cgroup v2 (nr_periods, nr_throttled,
 * throttled_usec) or v1 (throttled_time, in ns). null without a throttling count.
 */
function parseCgroupCpuStat(text) {
  const fields = {};
  for (const line of text.split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (key) fields[key] = Number(value);
  }
  if (!Number.isFinite(fields.nr_throttled)) return null;
  const throttledSeconds = Number.isFinite(fields.throttled_usec) ? fields.throttled_usec / 1e6 : Number.isFinite(fields.throttled_time) ? fields.throttled_time / 1e9 : 0;
  return { periods: fields.nr_periods || 0, throttledPeriods: fields.nr_throttled, throttledSeconds };
}

/**
 * Where this process's cgroup keeps its cpu.stat, most specific first, from /proc/self/cgroup's text: v2's "0::/path"
 * and v1's "N:cpu,cpuacct:/path". In a container the cgroup's own folder is mounted at the root, so the root's file is
 * the fallback.
 */
function cpuStatCandidates(procSelfCgroup, root = CGROUP_ROOT) {
  const candidates = [];
  for (const line of (procSelfCgroup || '').split('\n')) {
    const [, controllers, where] = line.split(':');
    if (where === undefined) continue;
    if (controllers === '') candidates.push(path.join(root, where, 'cpu.stat'));
    else if (controllers.split(',').includes('cpu')) {
      candidates.push(path.join(root, controllers, where, 'cpu.stat'), path.join(root, 'cpu', where, 'cpu.stat'), path.join(root, 'cpu,cpuacct', where, 'cpu.stat'));
    }
  }
  candidates.push(path.join(root, 'cpu.stat'), path.join(root, 'cpu', 'cpu.stat'));
  return [...new Set(candidates)];
}

/** This process's cgroup throttling (parseCgroupCpuStat's), or null where no cpu.stat counts it. */
function readCgroupThrottling() {
  for (const file of cpuStatCandidates(readText('/proc/self/cgroup'))) {
    const text = readText(file);
    const parsed = text && parseCgroupCpuStat(text);
    if (parsed) return parsed;
  }
  return null;
}

module.exports = { parseCgroupCpuStat, cpuStatCandidates, readCgroupThrottling };
