'use strict';
// What every benchmark records beside its figures (STYLE.md: versions, CPU count and time with the raw results) and
// prints above its table, so a table copied into a README says where it was measured.
const os = require('os');

/** The runtime and machine now. */
function machine() {
  const cpus = os.cpus();
  return {
    node: process.versions.node,
    v8: process.versions.v8,
    cpus: cpus.length,
    cpuModel: cpus[0] ? cpus[0].model : null,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    gcBetweenRuns: typeof global.gc === 'function',
    at: new Date().toISOString(),
  };
}

/** machine()'s facts in one line. */
function machineLine(m) {
  return `Node ${m.node} (V8 ${m.v8}), ${m.cpus} × ${m.cpuModel}, ${m.platform}, load average ${m.loadAverage.join(' ')}, GC between runs: ${m.gcBetweenRuns ? 'yes' : 'no'}`;
}

module.exports = { machine, machineLine };
