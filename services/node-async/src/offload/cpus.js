'use strict';
// How many CPUs this process may really use: the affinity mask (os.availableParallelism) or, in a container, the
// cgroup v2 CPU quota (`docker run --cpus`, compose `cpus:`), whichever is smaller. A pool sized past the quota only
// makes its workers take turns.
const fs = require('node:fs');
const os = require('node:os');

function cgroupQuota(read = (file) => fs.readFileSync(file, 'utf8')) {
  let text;
  try {
    text = read('/sys/fs/cgroup/cpu.max');
  } catch {
    return Infinity; // cgroup v1 or no cgroup file system: no quota we can read
  }
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === 'max') return Infinity;
  return Math.max(1, Math.ceil(Number(quota) / Number(period)));
}

function availableCpus(read) {
  return Math.max(1, Math.min(os.availableParallelism(), cgroupQuota(read)));
}

module.exports = { availableCpus, cgroupQuota };
