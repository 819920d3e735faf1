'use strict';
// The process as prom-client's default metrics describe it (CPU, resident memory, start time, heap, Node's version),
// V8's heap spaces as OpenTelemetry names them, the agent's own version, and two readings of Linux's accounting where
// they can be read: the event loop's thread waiting for a CPU (thread-clock.js) and the cgroup's throttling
// (cgroup-cpu.js); where they cannot, their metrics are left out, never written as 0. Node 14 syntax.
const v8 = require('v8');
const { LAB, OTEL, LABEL } = require('./names');
const { family } = require('./exposition');
const { threadClock } = require('./thread-clock');
const { readCgroupThrottling } = require('./cgroup-cpu');
const { version: AGENT_VERSION } = require('./package.json');

// process.memoryUsage.rss() reads the RSS alone (Node 14.18+); memoryUsage() walks the heap as well.
const rssBytes = () => (process.memoryUsage.rss ? process.memoryUsage.rss() : process.memoryUsage().rss);

function processMetrics() {
  // Read on the thread that loads the agent, the main thread, whose event loop serves the scrapes.
  const clock = threadClock();
  const startedWaitMs = clock ? clock.read().waitMs : 0;
  const firstThrottling = readCgroupThrottling();
  // Whole seconds, as prom-client writes it.
  const startTime = Math.round(Date.now() / 1000 - process.uptime());
  const [major, minor, patch] = process.versions.node.split('.');
  const names = [LAB.cpu, LAB.cpuUser, LAB.cpuSystem, LAB.rss, LAB.startTime, LAB.heapUsed, LAB.heapTotal, LAB.nodeVersion, LAB.agentInfo, OTEL.heapUsed, OTEL.heapLimit];
  if (clock) names.push(LAB.loopCpuWait);
  if (firstThrottling) names.push(LAB.cgroupThrottled);
  return {
    names,
    text() {
      const cpu = process.cpuUsage();
      const heap = v8.getHeapStatistics();
      const spaces = v8.getHeapSpaceStatistics();
      const bySpace = (key) => spaces.map((s) => ({ labels: { [LABEL.otelHeapSpace]: s.space_name }, value: s[key] }));
      let text = family(LAB.cpu, 'counter', 'Total user and system CPU time spent in seconds', [{ value: (cpu.user + cpu.system) / 1e6 }])
        + family(LAB.cpuUser, 'counter', 'Total user CPU time spent in seconds', [{ value: cpu.user / 1e6 }])
        + family(LAB.cpuSystem, 'counter', 'Total system CPU time spent in seconds', [{ value: cpu.system / 1e6 }])
        + family(LAB.rss, 'gauge', 'Resident memory size in bytes', [{ value: rssBytes() }])
        + family(LAB.startTime, 'gauge', 'Start time of the process since unix epoch in seconds', [{ value: startTime }])
        + family(LAB.heapUsed, 'gauge', 'Process heap size used from Node.js in bytes', [{ value: heap.used_heap_size }])
        + family(LAB.heapTotal, 'gauge', 'Process heap size from Node.js in bytes', [{ value: heap.total_heap_size }])
        + family(LAB.nodeVersion, 'gauge', 'Node.js version info', [{ labels: { version: process.version, major, minor, patch }, value: 1 }])
        + family(LAB.agentInfo, 'gauge', "The lab's preload agent watching this process, and its version", [{ labels: { agent: 'node', version: AGENT_VERSION }, value: 1 }])
        + family(OTEL.heapUsed, 'gauge', 'Heap memory used, by heap space (OpenTelemetry v8js.memory.heap.used: v8.getHeapSpaceStatistics space_used_size)', bySpace('space_used_size'))
        + family(OTEL.heapLimit, 'gauge', 'Heap space size, by heap space (OpenTelemetry v8js.memory.heap.limit: v8.getHeapSpaceStatistics space_size)', bySpace('space_size'));
      if (clock) {
        text += family(LAB.loopCpuWait, 'counter', "Seconds the event loop's thread was ready to run but waited for a CPU (its schedstat run-queue time); its rate is the share the machine held the loop up", [{ value: Math.max(0, clock.read().waitMs - startedWaitMs) / 1000 }]);
      }
      if (firstThrottling) {
        const now = readCgroupThrottling();
        text += family(LAB.cgroupThrottled, 'counter', "Seconds this process's cgroup was throttled by its CPU quota (cpu.stat); its rate is the share of each second the quota held it back", [{ value: now ? Math.max(0, now.throttledSeconds - firstThrottling.throttledSeconds) : 0 }]);
      }
      return text;
    },
  };
}

module.exports = { processMetrics, AGENT_VERSION };
