'use strict';
// How long `fast` blocks node-async's event loop over HTTP, and what ran in each block (issue 39's target: at most
// 10 ms for fast stringify and parse of the 20 MB document, median of 5 runs after a warm-up). node-async started as
// the lab starts it (NODE24_OPTIONS), one connection; per approach, warm-up runs, then --runs runs one after another
// while the service profiles itself (POST /profile, every 200 µs), each run's own longest block (`eventLoop.maxBlockMs`
// and when it was) read against the profile: the stacks sampled in it, the collector's share among them. native is
// measured beside fast: its block is its whole run. Every answer is validated. --file runs a document of the user's
// instead (stored with PUT /documents, as make try stores it), where make try's figures want explaining.
//   node bench/http-blocks.js [--runs 5] [--warmups 3] [--file doc.json]
const crypto = require('node:crypto');
const fs = require('node:fs');
const { samplesOf, stacksBetween } = require('@lab/load/src/profile/cpu-profile');
const { option, textOption, median, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');
const { startService } = require('./start-service');

const CASES = [
  { workload: 'stringify', approach: 'fast' },
  { workload: 'stringify', approach: 'native' },
  { workload: 'parse', approach: 'fast' },
  { workload: 'parse', approach: 'native' },
];
const SIZE = 10000; // the 20 MB document
const TARGET_MS = 10;
const PROFILE_INTERVAL_US = 200;
// The profile lasts the runs at this many times the warm-up's pace (it cannot be stopped early and still answer), and
// at least MIN_PROFILE_SECONDS.
const PROFILE_MARGIN = 3;
const MIN_PROFILE_SECONDS = 2;
const COLLECTOR = '(garbage collector)';
const STACKS_KEPT = 4; // a block's heaviest stacks kept in the results
const NODE_OPTIONS = (process.env.NODE24_OPTIONS || '').split(/\s+/).filter(Boolean);

async function run(url, c, input) {
  const res = await fetch(`${url}/run/${c.workload}?approach=${c.approach}&${input}`);
  const body = await res.json();
  if (res.status !== 200 || body.validated !== true) throw new Error(`${c.workload} ${c.approach}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body;
}

/** Warm-up, then `runs` runs under a profile; each run's block and the stacks the profile saw in it. */
async function measure(url, token, c, runs, warmups, input) {
  const started = Date.now();
  for (let i = 0; i < warmups; i++) await run(url, c, input);
  const paceMs = (Date.now() - started) / Math.max(1, warmups);
  const seconds = Math.max(MIN_PROFILE_SECONDS, Math.ceil((paceMs * runs * PROFILE_MARGIN) / 1000));
  const profiling = fetch(`${url}/profile?seconds=${seconds}&intervalUs=${PROFILE_INTERVAL_US}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
  const answers = [];
  for (let i = 0; i < runs; i++) answers.push(await run(url, c, input));
  const profile = await profiling;
  if (profile.error) throw new Error(`no profile: ${profile.error}`);
  const samples = samplesOf(profile.profile);
  return answers.map((a) => {
    const at = a.eventLoop.maxBlockAt;
    // Every stack of the block, so that the collector's share is counted wherever it ranks; the first few are kept.
    const inside = at ? stacksBetween(samples, at.fromMs - profile.startedAtMs, at.toMs - profile.startedAtMs, Infinity) : null;
    const collector = inside ? inside.stacks.filter((s) => s.stack[s.stack.length - 1] === COLLECTOR).reduce((sum, s) => sum + s.share, 0) : null;
    return { ms: a.ms, maxBlockMs: a.eventLoop.maxBlockMs, yields: a.yields, samplesInBlock: inside && inside.samples, collectorShare: collector, stacks: inside ? inside.stacks.slice(0, STACKS_KEPT) : [] };
  });
}

async function main() {
  const args = process.argv.slice(2);
  const runs = option(args, '--runs', 5);
  const warmups = option(args, '--warmups', 3);
  const file = textOption(args, '--file', '');
  const token = crypto.randomBytes(16).toString('hex');
  const service = await startService(NODE_OPTIONS, { LAB_PROFILE_TOKEN: token });
  try {
    const input = file === '' ? `size=${SIZE}` : await storedDocument(service.url, file);
    const results = [];
    for (const c of CASES) {
      process.stderr.write(`${c.workload} ${c.approach}\n`);
      results.push(Object.assign({}, c, { runs: await measure(service.url, token, c, runs, warmups, input) }));
    }
    const document = file === '' ? `the ${SIZE}-record document (20 MB)` : file;
    const report = Object.assign(machine(), { nodeOptions: NODE_OPTIONS, document, input, runs, warmups, profileIntervalUs: PROFILE_INTERVAL_US, targetMs: TARGET_MS, results });
    finish('http-blocks', report, { printTable: () => print(report) });
  } finally {
    service.stop();
  }
}

/** PUT /documents of file's text into the service: the query that runs it (`document=<sha256>`). */
async function storedDocument(url, file) {
  const res = await fetch(`${url}/documents`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: fs.readFileSync(file) });
  const body = await res.json();
  if (res.status !== 200 && res.status !== 201) throw new Error(`PUT /documents of ${file}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.run;
}

function print(report) {
  console.log(`# node-async's longest block over HTTP, ${report.document}, one connection: ${report.runs} runs after ${report.warmups} warm-up runs, profiled every ${report.profileIntervalUs} µs`);
  console.log(machineLine(report));
  const round1 = (x) => Math.round(x * 10) / 10;
  const rows = report.results.map((r) => {
    const blocks = r.runs.map((x) => x.maxBlockMs);
    const worst = r.runs.reduce((a, b) => (b.maxBlockMs > a.maxBlockMs ? b : a));
    const top = worst.stacks[0];
    const what = top ? `${Math.round(top.share * 100)} % ${top.stack.slice(-2).join(' > ')}` : '-';
    const collector = r.runs.map((x) => x.collectorShare).filter((v) => v !== null);
    return [`${r.workload} ${r.approach}`, round1(median(r.runs.map((x) => x.ms))), round1(median(blocks)), `${round1(Math.min(...blocks))}-${round1(Math.max(...blocks))}`,
      collector.length ? `${Math.round(median(collector) * 100)} %` : '-', what];
  });
  const headers = ['approach', 'run ms (median)', 'longest block ms (median)', 'blocks ms (min-max)', 'collector in the block (median)', 'the worst block: its heaviest stack'];
  console.log(markdownTable(headers, rows, { right: headers.slice(1, 5) }));
  for (const r of report.results.filter((x) => x.approach === 'fast')) {
    const m = median(r.runs.map((x) => x.maxBlockMs));
    console.log(`fast ${r.workload}: longest block ${round1(m)} ms, median of ${r.runs.length} (target ≤ ${report.targetMs} ms): ${m <= report.targetMs ? 'met' : 'MISSED'}`);
  }
}

runBenchmark(main);
