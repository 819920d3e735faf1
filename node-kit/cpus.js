'use strict';
// The CPUs this process may really use, for sizing pools and for recording what a run ran on: the affinity mask
// (taskset, compose `cpuset:`; /proc/self/status) and, in a container, the cgroup v2 CPU quota (`docker run --cpus`,
// compose `cpus:`), whichever is smaller. A pool sized past the quota only makes its workers take turns. Node 14 syntax.
const fs = require('fs');
const os = require('os');

const readFile = (file) => fs.readFileSync(file, 'utf8');

/** The cgroup v2 quota in whole CPUs (rounded up), or Infinity without one we can read. */
function cgroupQuota(read = readFile) {
  let text;
  try {
    text = read('/sys/fs/cgroup/cpu.max');
  } catch (err) {
    return Infinity; // cgroup v1 or no cgroup file system: no quota we can read
  }
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === 'max') return Infinity;
  return Math.max(1, Math.ceil(Number(quota) / Number(period)));
}

/** The affinity mask as Linux lists it ("0-3,6"), or null where /proc says nothing. */
function cpusAllowed(read = readFile) {
  try {
    const match = /^Cpus_allowed_list:\s*(\S+)$/m.exec(read('/proc/self/status'));
    return match ? match[1] : null;
  } catch (err) {
    return null;
  }
}

/** How many CPUs a list like "0-3,6" names. */
function countList(list) {
  return list.split(',').reduce((sum, part) => {
    const [from, to] = part.split('-').map(Number);
    return sum + (to === undefined ? 1 : to - from + 1);
  }, 0);
}

function availableCpus(read = readFile) {
  const allowed = cpusAllowed(read);
  const affinity = allowed ? countList(allowed) : os.cpus().length;
  return Math.max(1, Math.min(affinity, cgroupQuota(read)));
}

/** What /info and the results record: {availableProcessors, cpusAllowed, cgroupCpuQuota (null: none)}. */
function cpuLayout(read = readFile) {
  const quota = cgroupQuota(read);
  return { availableProcessors: availableCpus(read), cpusAllowed: cpusAllowed(read), cgroupCpuQuota: quota === Infinity ? null : quota };
}

module.exports = { availableCpus, cgroupQuota, cpusAllowed, cpuLayout };
