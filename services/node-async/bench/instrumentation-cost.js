'use strict';
// What the lab's own instrumentation costs a service (issue 39: "instrumentation costs stay known"; target: at most
// 3 % of throughput): node-async started six times, with every metric and the 1 ms loop-delay monitor (as the lab
// runs), with the monitor at prom-client's default 10 ms, with the runtime metrics off (no default metrics, no ELU or
// GC observers: node-kit/metrics.js' instrumentation()), without the split of runs' blocks into running and waiting
// (issue 59: a read of the thread's clock each 1 ms tick of a run), and twice with its runtime metrics off and the
// lab's preload agent attached instead (agents/node-agent, NODE_OPTIONS=--require, its own side port): at the agent's
// default loop-monitor resolution and at 1 ms. Each is scraped once a second throughout (an agent's side port too),
// as Prometheus scrapes the lab, and loaded in turn with the same scenarios (a small stringify many times a second,
// and fast on the 20 MB document), interleaved round by round; every answer is validated. Prints each one's
// throughput and its CPU time a request against the lab's own, and the probe's p99 and the longest block beside; the
// agent's cost is judged against the runtime metrics off, what the agent replaces, by the CPU time a request: the
// service's CPU (user and system, scrapes and probes included) over the requests it answered, which the load generator
// and any neighbour on the same cores move far less than they move throughput (on the lab's 2 cores the generator
// shares them with the service: rounds of the same configuration differed by up to 30 % in requests/s).
//   node bench/instrumentation-cost.js [--rounds 3] [--seconds 10]
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runScenario } = require('@lab/load/src/scenario/scenario');
const { option, interleavedRounds, median, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');
const { processCpuSeconds } = require('@lab/node-kit/machine');
const { startService } = require('./start-service');
const { openThreadClock } = require('@lab/node-agent/thread-clock');
const { DEFAULT_LAG_RESOLUTION_MS } = require('@lab/node-agent/settings');
const { agentShareOfProfile, agentProfile } = require('./agent-share');

const AGENT = require.resolve('@lab/node-agent/agent');
// The agents' profile token (the bench's own; the agent would otherwise write a token file).
const PROFILE_TOKEN = crypto.randomBytes(32).toString('hex');
// The agent beside metrics off: the service's own runtime metrics give way to the agent's (agent: true, started with
// it on a side port of its own, found through its port file).
const agentConfig = (name, resolutionMs) => ({ name, agent: true, env: { LAB_RUNTIME_METRICS: 'off', LAB_AGENT_LAG_RESOLUTION_MS: String(resolutionMs), LAB_PROFILE_TOKEN: PROFILE_TOKEN } });

const CONFIGS = [
  { name: 'as the lab runs (1 ms monitor)', env: {} },
  { name: 'loop monitor at 10 ms', env: { LAB_EVENT_LOOP_PRECISION_MS: '10' } },
  { name: 'runtime metrics off', env: { LAB_RUNTIME_METRICS: 'off' } },
  { name: 'block attribution off', env: { LAB_BLOCK_ATTRIBUTION: 'off' } },
  agentConfig(`metrics off + agent (${DEFAULT_LAG_RESOLUTION_MS} ms monitor, its default)`, DEFAULT_LAG_RESOLUTION_MS),
  agentConfig('metrics off + agent (1 ms monitor)', 1),
];
const METRICS_OFF = 'runtime metrics off';
const SCENARIOS = [
  // At most the service's run slots (MAX_CONCURRENT_RUNS, 4): more would be refused with 503.
  { name: 'small stringify', path: '/run/stringify?approach=native&size=20', connections: 4 },
  { name: '20 MB fast stringify', path: '/run/stringify?approach=fast&size=10000', connections: 2 },
];
const TARGET_SHARE = 0.03;
const SCRAPE_MS = 1000;
const NODE_OPTIONS = (process.env.NODE24_OPTIONS || '').split(/\s+/).filter(Boolean);

async function main() {
  const args = process.argv.slice(2);
  const rounds = option(args, '--rounds', 3);
  const seconds = option(args, '--seconds', 10);
  const services = [];
  const portFiles = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-instrumentation-'));
  try {
    for (const [i, config] of CONFIGS.entries()) services.push(Object.assign({ config }, await startWithAgent(config, path.join(portFiles, String(i)))));
    // A scrape of every service each second, as Prometheus does, loaded or not; of an agent's side port too.
    const scrape = (url) => fetch(`${url}/metrics`).then((r) => r.text(), () => null);
    const scraper = setInterval(() => services.forEach((s) => [s.url].concat(s.agentUrl || []).forEach(scrape)), SCRAPE_MS);
    const results = [];
    try {
      for (const scenario of SCENARIOS) {
        process.stderr.write(`${scenario.name}\n`);
        const runs = await interleavedRounds({
          approaches: CONFIGS.map((c) => c.name),
          rounds,
          warmups: 1,
          run: async (name) => {
            const service = services.find((s) => s.config.name === name);
            const cpuBefore = processCpuSeconds(service.pid);
            const outcome = await loadOnce(scenario, service, seconds);
            const cpuSeconds = processCpuSeconds(service.pid) - cpuBefore;
            return { requestsPerSecond: outcome.result.requests.average, cpuUsPerRequest: (cpuSeconds * 1e6) / outcome.result.requests.total, probeP99Ms: outcome.probe.latencyMs ? outcome.probe.latencyMs.p99 : null, maxBlockMs: outcome.checks.runs.maxBlockMs };
          },
        });
        results.push({ scenario: scenario.name, path: scenario.path, runs, agentShares: await agentShares(services, scenario, seconds) });
      }
    } finally {
      clearInterval(scraper);
    }
    const report = Object.assign(machine(), { rounds, seconds, configs: CONFIGS, agentDefaultResolutionMs: DEFAULT_LAG_RESOLUTION_MS, results, threadClockReadUs: threadClockReadUs() });
    const failed = results.some((r) => Object.values(r.runs).some((list) => list.some((x) => x.error)));
    finish('instrumentation-cost', report, { failed, printTable: () => print(report) });
  } finally {
    for (const s of services) s.stop();
    fs.rmSync(portFiles, { recursive: true, force: true });
  }
}

/** The scenario's load on the service for seconds, every answer validated, the probe beside; its outcome. */
async function loadOnce(scenario, service, seconds) {
  const outcome = await runScenario({ name: 'cost', target: 'node-async', path: scenario.path, connections: scenario.connections, durationSeconds: seconds, maxRequests: 1000000, timeoutSeconds: 60, expect: 'validated', probe: { path: '/healthz', ratePerSecond: 20 } }, service.url);
  if (!outcome.passed) throw new Error(`${service.config.name}: ${outcome.problems.join('; ')}`);
  return outcome;
}

/** Each agent config's own share of its service's CPU, from a profile taken while the scenario loads it once more. */
async function agentShares(services, scenario, seconds) {
  const shares = {};
  for (const service of services.filter((s) => s.config.agent)) {
    const [profile] = await Promise.all([agentProfile(service.agentUrl, PROFILE_TOKEN, seconds), loadOnce(scenario, service, seconds)]);
    shares[service.config.name] = agentShareOfProfile(profile);
  }
  return shares;
}

/** startService for a config; with the agent attached where config.agent, resolving once its side port is known too. */
async function startWithAgent(config, portFile) {
  if (!config.agent) return startService(NODE_OPTIONS, config.env);
  const nodeOptions = `${process.env.NODE_OPTIONS || ''} --require ${AGENT}`.trim();
  const service = await startService(NODE_OPTIONS, Object.assign({}, config.env, { NODE_OPTIONS: nodeOptions, LAB_AGENT_PORT: '0', LAB_AGENT_PORT_FILE: portFile }));
  // The agent listens from the preload, before the service does; its file is written aside and renamed, so whole.
  while (!fs.existsSync(portFile)) await new Promise((resolve) => setTimeout(resolve, 50));
  return Object.assign(service, { agentUrl: `http://127.0.0.1:${fs.readFileSync(portFile, 'utf8')}` });
}

/**
 * What the split of blocks costs, bounded by its own work: the microseconds of one read of the thread's clock (the
 * median of five batches), which a run makes once per 1 ms tick. Its share of a core is that over 1000 us, whatever
 * the noise of the throughput rounds (a few per cent here) lets them resolve. null where there is no clock.
 */
function threadClockReadUs() {
  const clock = openThreadClock();
  if (!clock) return null;
  const batch = 100000;
  const batches = [];
  for (let i = 0; i < 6; i++) {
    const from = process.hrtime.bigint();
    for (let n = 0; n < batch; n++) clock.read();
    if (i > 0) batches.push(Number(process.hrtime.bigint() - from) / batch / 1000); // the first warms up
  }
  clock.close();
  return median(batches);
}

function print(report) {
  console.log(`# what the lab's instrumentation costs node-async: median of ${report.rounds} rounds of ${report.seconds} s, interleaved, scraped every second`);
  console.log(machineLine(report));
  const rows = [];
  const verdicts = [];
  for (const r of report.results) {
    const figure = (name, key) => {
      const values = r.runs[name].filter((x) => !x.error).map((x) => x[key]).filter((v) => typeof v === 'number');
      return values.length ? median(values) : null;
    };
    const lab = figure(CONFIGS[0].name, 'requestsPerSecond');
    const labCpu = figure(CONFIGS[0].name, 'cpuUsPerRequest');
    for (const c of CONFIGS) {
      const rps = figure(c.name, 'requestsPerSecond');
      const errors = r.runs[c.name].filter((x) => x.error).map((x) => x.error);
      const cpu = figure(c.name, 'cpuUsPerRequest');
      rows.push([r.scenario, c.name, errors.length ? `FAILED: ${errors[0]}` : rps.toFixed(1), rps && lab ? `${((rps / lab - 1) * 100).toFixed(1)} %` : '-', cpu === null ? '-' : cpu.toFixed(0), cpu !== null && labCpu ? `${((cpu / labCpu - 1) * 100).toFixed(1)} %` : '-', figure(c.name, 'probeP99Ms'), figure(c.name, 'maxBlockMs')]);
    }
    const off = figure(METRICS_OFF, 'requestsPerSecond');
    if (lab && off) verdicts.push(`${r.scenario}: the lab's instrumentation costs ${((1 - lab / off) * 100).toFixed(1)} % of throughput against none (target ≤ ${TARGET_SHARE * 100} %): ${1 - lab / off <= TARGET_SHARE ? 'met' : 'MISSED'}`);
    const offCpu = figure(METRICS_OFF, 'cpuUsPerRequest');
    for (const c of CONFIGS.filter((config) => config.agent)) {
      const agent = figure(c.name, 'requestsPerSecond');
      const agentCpu = figure(c.name, 'cpuUsPerRequest');
      const monitor = `${c.env.LAB_AGENT_LAG_RESOLUTION_MS} ms monitor`;
      const own = r.agentShares && r.agentShares[c.name];
      if (own) verdicts.push(`${r.scenario}: the agent's own code (${monitor}) took ${(own.share * 100).toFixed(2)} % of its service's busy CPU in a profile of ${report.seconds} s (${own.samples} samples; target ≤ ${TARGET_SHARE * 100} %): ${own.share <= TARGET_SHARE ? 'met' : 'MISSED'}`);
      if (agentCpu && offCpu) verdicts.push(`${r.scenario}: the agent (${monitor}) costs ${((agentCpu / offCpu - 1) * 100).toFixed(1)} % more CPU a request than metrics off (target ≤ ${TARGET_SHARE * 100} %): ${agentCpu / offCpu - 1 <= TARGET_SHARE ? 'met' : 'MISSED'}; in throughput ${((1 - agent / off) * 100).toFixed(1)} %`);
    }
  }
  const headers = ['scenario', 'instrumentation', 'requests/s (median)', 'vs the lab\'s', 'CPU µs a request (median)', 'CPU vs the lab\'s', 'probe p99 ms', 'longest block ms'];
  console.log(markdownTable(headers, rows, { right: headers.slice(2) }));
  if (report.threadClockReadUs !== null) {
    const share = report.threadClockReadUs / 1000;
    verdicts.push(`block attribution: one read of the thread's clock each 1 ms tick of a run, ${report.threadClockReadUs.toFixed(2)} us: at most ${(share * 100).toFixed(2)} % of a core (target ≤ ${TARGET_SHARE * 100} %): ${share <= TARGET_SHARE ? 'met' : 'MISSED'}`);
  }
  console.log(`\n${verdicts.join('\n')}`);
  console.log(`(started ${path.basename(__filename)} with Node options ${NODE_OPTIONS.join(' ') || 'none'})`);
}

runBenchmark(main);
