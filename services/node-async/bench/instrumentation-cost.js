'use strict';
// What the lab's own instrumentation costs a service (issue 39: "instrumentation costs stay known"; target: at most
// 3 % of throughput): node-async started four times, with every metric and the 1 ms loop-delay monitor (as the lab
// runs), with the monitor at prom-client's default 10 ms, with the runtime metrics off (no default metrics, no ELU or
// GC observers: node-kit/metrics.js' instrumentation()), and without the split of runs' blocks into running and
// waiting (issue 59: a read of the thread's clock each 1 ms tick of a run). Each is scraped once a second throughout,
// as Prometheus scrapes the lab, and loaded in turn with the same scenarios (a small stringify many times a second,
// and fast on the 20 MB document), interleaved round by round; every answer is validated. Prints each one's
// throughput against the lab's own, and the probe's p99 and the longest block beside.
//   node bench/instrumentation-cost.js [--rounds 3] [--seconds 10]
const path = require('node:path');
const { runScenario } = require('@lab/load/src/scenario/scenario');
const { option, interleavedRounds, median, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');
const { startService } = require('./start-service');
const { openThreadClock } = require('@lab/node-agent/thread-clock');

const CONFIGS = [
  { name: 'as the lab runs (1 ms monitor)', env: {} },
  { name: 'loop monitor at 10 ms', env: { LAB_EVENT_LOOP_PRECISION_MS: '10' } },
  { name: 'runtime metrics off', env: { LAB_RUNTIME_METRICS: 'off' } },
  { name: 'block attribution off', env: { LAB_BLOCK_ATTRIBUTION: 'off' } },
];
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
  try {
    for (const config of CONFIGS) services.push(Object.assign({ config }, await startService(NODE_OPTIONS, config.env)));
    // A scrape of every service each second, as Prometheus does, loaded or not.
    const scraper = setInterval(() => services.forEach((s) => fetch(`${s.url}/metrics`).then((r) => r.text(), () => null)), SCRAPE_MS);
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
            const outcome = await runScenario({ name: 'cost', target: 'node-async', path: scenario.path, connections: scenario.connections, durationSeconds: seconds, maxRequests: 1000000, timeoutSeconds: 60, expect: 'validated', probe: { path: '/healthz', ratePerSecond: 20 } }, service.url);
            if (!outcome.passed) throw new Error(`${name}: ${outcome.problems.join('; ')}`);
            return { requestsPerSecond: outcome.result.requests.average, probeP99Ms: outcome.probe.latencyMs ? outcome.probe.latencyMs.p99 : null, maxBlockMs: outcome.checks.runs.maxBlockMs };
          },
        });
        results.push({ scenario: scenario.name, path: scenario.path, runs });
      }
    } finally {
      clearInterval(scraper);
    }
    const report = Object.assign(machine(), { rounds, seconds, configs: CONFIGS, results, threadClockReadUs: threadClockReadUs() });
    const failed = results.some((r) => Object.values(r.runs).some((list) => list.some((x) => x.error)));
    finish('instrumentation-cost', report, { failed, printTable: () => print(report) });
  } finally {
    for (const s of services) s.stop();
  }
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
    for (const c of CONFIGS) {
      const rps = figure(c.name, 'requestsPerSecond');
      const errors = r.runs[c.name].filter((x) => x.error).map((x) => x.error);
      rows.push([r.scenario, c.name, errors.length ? `FAILED: ${errors[0]}` : rps.toFixed(1), rps && lab ? `${((rps / lab - 1) * 100).toFixed(1)} %` : '-', figure(c.name, 'probeP99Ms'), figure(c.name, 'maxBlockMs')]);
    }
    const off = figure(CONFIGS[2].name, 'requestsPerSecond');
    if (lab && off) verdicts.push(`${r.scenario}: the lab's instrumentation costs ${((1 - lab / off) * 100).toFixed(1)} % of throughput against none (target ≤ ${TARGET_SHARE * 100} %): ${1 - lab / off <= TARGET_SHARE ? 'met' : 'MISSED'}`);
  }
  const headers = ['scenario', 'instrumentation', 'requests/s (median)', 'vs the lab\'s', 'probe p99 ms', 'longest block ms'];
  console.log(markdownTable(headers, rows, { right: headers.slice(2) }));
  if (report.threadClockReadUs !== null) {
    const share = report.threadClockReadUs / 1000;
    verdicts.push(`block attribution: one read of the thread's clock each 1 ms tick of a run, ${report.threadClockReadUs.toFixed(2)} us: at most ${(share * 100).toFixed(2)} % of a core (target ≤ ${TARGET_SHARE * 100} %): ${share <= TARGET_SHARE ? 'met' : 'MISSED'}`);
  }
  console.log(`\n${verdicts.join('\n')}`);
  console.log(`(started ${path.basename(__filename)} with Node options ${NODE_OPTIONS.join(' ') || 'none'})`);
}

runBenchmark(main);
