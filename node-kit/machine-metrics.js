'use strict';
// The machine's figures (machine.js) as Prometheus metrics, read at each scrape. The load driver registers the
// machine's (one process is enough: /proc/stat is the whole machine's, and the busy share outside the lab is its busy
// CPU less the lab's jobs' own, load/src/machine/); every Node service and the driver register their cgroup's
// throttling, since each runs in a container (a cgroup) of its own. Node 14 syntax.
const { readMachine, readCgroupThrottling, CPU_MODES } = require('./machine');
const { counterReadAtScrape } = require('./runtime-metrics');

/** Registers names.cgroupThrottled in registry where this process's cgroup counts throttling (cpu.stat); else nothing. */
function registerCgroupThrottling(promClient, registry, names) {
  const first = readCgroupThrottling();
  if (!first) return;
  counterReadAtScrape(promClient, registry, names.cgroupThrottled, "Seconds this process's cgroup was throttled by its CPU quota (cpu.stat); its rate is the share of each second the quota held it back", () => {
    const now = readCgroupThrottling();
    return now ? Math.max(0, now.throttledSeconds - first.throttledSeconds) : 0;
  });
}

/**
 * Registers the machine's CPU time by mode (names.machineCpu, labelled mode, as node_exporter's node_cpu_seconds_total
 * summed over CPUs), its CPU count, 1-minute load average and CPU clock (where readable), all from one reading per scrape.
 */
function registerMachineMetrics(promClient, registry, names) {
  let reading = readMachine();
  if (!reading.cpuSeconds) return;
  const base = reading.cpuSeconds;
  new promClient.Counter({
    name: names.machineCpu,
    help: 'Seconds the machine\'s CPUs spent in each mode since the lab\'s driver started (/proc/stat, summed over CPUs); every mode but idle and iowait is busy',
    labelNames: ['mode'],
    registers: [registry],
    collect() {
      reading = readMachine();
      this.reset();
      // Whole ticks: the difference of two sums of hundredths is not one in binary floating point.
      for (const mode of CPU_MODES) this.inc({ mode }, Math.max(0, Math.round((reading.cpuSeconds[mode] - base[mode]) * 100) / 100));
    },
  });
  const gauge = (name, help, read) => new promClient.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value !== null) this.set(value);
    },
  });
  // Each reads the reading the counter above took in the same scrape (prom-client collects in registration order; were
  // it not to, a gauge would show the previous scrape's, a second old).
  gauge(names.machineCpus, "The machine's CPUs (/proc/stat's)", () => reading.cpus);
  gauge(names.machineLoad1, "The machine's 1-minute load average (/proc/loadavg)", () => reading.load1);
  if (reading.frequencyMHz !== null) gauge(names.machineCpuFrequency, "The machine's CPUs' mean clock (cpufreq's current, else /proc/cpuinfo's)", () => (reading.frequencyMHz === null ? null : reading.frequencyMHz * 1e6));
}

module.exports = { registerMachineMetrics, registerCgroupThrottling };
