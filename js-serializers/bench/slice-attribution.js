'use strict';
// What fast-stringify's longest slices on the record families (bench/record-families.js) were made of: the quick
// benchmark's block is a slice's wall time (stats.maxSliceMs, the walker's step), and on a shared machine part of it
// can be time the thread waited for a CPU or the collector's pause. For every step of the walk, this splits its wall
// time into the thread's time runnable but waiting for a CPU (/proc/thread-self/schedstat: @lab/node-agent/thread-clock)
// and the rest, its time on one (a step never sleeps; schedstat's own count of that time moves at the scheduler's
// ticks, 4 ms here, and the process' CPU time, process.cpuUsage(), counts the collector's helper threads too), with the
// collector's pauses inside it (perf_hooks 'gc' entries). A step whose time on a CPU stays under 10 ms was not made
// long by fast's work or the collector's.
// Three consumers, since a scavenge copies what the consumer keeps: chunks() collected (the quick benchmark's
// chunks()), pipeTo() into the benchmark's keeping sink (bench/keeping-sink.js), and pipeTo() into a sink that hashes
// each chunk and drops it, as a service does that streams its output.
//
//   node --expose-gc js-serializers/bench/slice-attribution.js [--rounds N] [--family text]
//
// FAST_STRINGIFY names another copy of fast-stringify.js (an older revision's, as test/work-counts.test.js takes it).
// Raw results go to results/bench/slice-attribution-<time>.json. Node 14 syntax.
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { Writable } = require('stream');
const { PerformanceObserver, performance, constants } = require('perf_hooks');
const { option, textOption, saveBenchResults } = require('@lab/bench-kit');
const { threadClock } = require('@lab/node-agent/thread-clock');
const { keepingSink } = require('./keeping-sink');
const recordFamilies = require('./record-families');

const FAST_STRINGIFY = require.resolve(process.env.FAST_STRINGIFY ? path.resolve(process.env.FAST_STRINGIFY) : '../fast-stringify');
const fast = require(FAST_STRINGIFY);
const { Walker } = require(path.join(path.dirname(FAST_STRINGIFY), 'fast-stringify', 'walker'));
const YIELD_MS = 5;
const BLOCK_MS = 10;

// Every step of the walk, timed by the wall clock and the thread's clock: the same span as the block the quick
// benchmark reports (fast-stringify.js' slices() times walker.step()).
let steps = [];
const step = Walker.prototype.step;
Walker.prototype.step = function timedStep(deadline) {
  const clock = threadClock();
  const before = clock.read();
  const cpu = process.cpuUsage();
  const from = performance.now();
  const done = step.call(this, deadline);
  const to = performance.now();
  const used = process.cpuUsage(cpu);
  const after = clock.read();
  const processCpuMs = (used.user + used.system) / 1000;
  steps.push({ from, to, runMs: after.runMs - before.runMs, waitMs: after.waitMs - before.waitMs, processCpuMs, gcMs: 0, gcKinds: [] });
  return done;
};

const pauses = [];
new PerformanceObserver((list) => pauses.push(...list.getEntries())).observe({ entryTypes: ['gc'] });
const minor = (entry) => (entry.detail ? entry.detail.kind : entry.kind) === constants.NODE_PERFORMANCE_GC_MINOR;

function hashingSink() {
  const hash = crypto.createHash('sha256');
  const sink = new Writable({
    decodeStrings: false,
    write(chunk, encoding, callback) {
      hash.update(chunk);
      callback();
    },
  });
  return { sink, kept: null };
}

const CONSUMERS = {
  'chunks() collected': async (value) => {
    const kept = [];
    for await (const chunk of fast.chunks(value, { yieldMs: YIELD_MS })) kept.push(chunk);
    return kept.length;
  },
  'pipeTo() keeping sink': async (value) => {
    const { sink, kept } = keepingSink();
    await fast.pipeTo(value, sink, { yieldMs: YIELD_MS });
    return kept.length;
  },
  'pipeTo() hashing sink': async (value) => (await fast.pipeTo(value, hashingSink().sink, { yieldMs: YIELD_MS })).chunks,
};

// The observer's entries arrive after a turn.
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** The steps of one run with the collector's pauses that fell in each. */
async function attributedRun(consumer, value) {
  global.gc();
  await settle(); // gc()'s own entry arrives now, before the run's
  steps = [];
  pauses.length = 0;
  await consumer(value);
  await settle();
  for (const s of steps) {
    for (const e of pauses) {
      const ms = Math.max(0, Math.min(s.to, e.startTime + e.duration) - Math.max(s.from, e.startTime));
      if (ms <= 0) continue;
      s.gcMs += ms;
      s.gcKinds.push(minor(e) ? 'scavenge' : 'other');
    }
  }
  const scavenges = pauses.filter(minor);
  return {
    steps: steps.map((s) => ({ wallMs: s.to - s.from, cpuMs: s.to - s.from - s.waitMs, processCpuMs: s.processCpuMs, waitMs: s.waitMs, gcMs: s.gcMs, scavenges: s.gcKinds.filter((k) => k === 'scavenge').length })),
    scavenges: scavenges.length,
    longestScavengeMs: scavenges.reduce((most, e) => Math.max(most, e.duration), 0),
  };
}

const fixed = (ms) => ms.toFixed(1);

async function main() {
  const args = process.argv.slice(2);
  const rounds = option(args, '--rounds', 8);
  const family = textOption(args, '--family', 'arrays of number records');
  const members = recordFamilies.members(1).filter((m) => m.name.includes(family));
  if (members.length === 0) throw new Error(`--family ${family} picks no member of bench/record-families.js`);
  const report = { node: process.version, cpus: os.cpus().length, loadavg: os.loadavg(), started: new Date().toISOString(), fastStringify: FAST_STRINGIFY, yieldMs: YIELD_MS, members: [] };
  for (const member of members) {
    const value = member.make();
    const entry = { name: member.name, consumers: {} };
    for (const name of Object.keys(CONSUMERS)) entry.consumers[name] = [];
    for (let round = 0; round < rounds; round++) {
      for (const name of Object.keys(CONSUMERS)) entry.consumers[name].push(await attributedRun(CONSUMERS[name], value));
    }
    report.members.push(entry);
    for (const name of Object.keys(entry.consumers)) {
      const runs = entry.consumers[name];
      const all = [].concat(...runs.map((run) => run.steps));
      const long = all.filter((s) => s.wallMs > BLOCK_MS);
      const longest = all.reduce((a, b) => (b.wallMs > a.wallMs ? b : a));
      const busiest = all.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
      const withScavenge = all.filter((s) => s.scavenges > 0);
      console.log(
        `${member.name}, ${name}: ${all.length} steps in ${rounds} runs; over ${BLOCK_MS} ms of wall time ${long.length}` +
          ` (on a CPU over ${BLOCK_MS} ms: ${long.filter((s) => s.cpuMs > BLOCK_MS).length}); longest ${fixed(longest.wallMs)} ms` +
          ` (on a CPU ${fixed(longest.cpuMs)}, waiting ${fixed(longest.waitMs)}, collector ${fixed(longest.gcMs)}); most on a CPU ${fixed(busiest.cpuMs)} ms` +
          ` (wall ${fixed(busiest.wallMs)}, the process' CPU ${fixed(busiest.processCpuMs)}, collector ${fixed(busiest.gcMs)}); scavenges ${runs.reduce((n, run) => n + run.scavenges, 0)}` +
          ` (longest ${fixed(runs.reduce((most, run) => Math.max(most, run.longestScavengeMs), 0))} ms), ${withScavenge.length} in a step`,
      );
    }
  }
  report.loadavgAfter = os.loadavg();
  console.log(`load ${report.loadavg.map(fixed).join(' ')} -> ${report.loadavgAfter.map(fixed).join(' ')}; raw results: ${saveBenchResults('slice-attribution', report)}`);
}

if (threadClock() === null) {
  console.error('slice-attribution: no /proc/thread-self/schedstat here, so a step cannot be split into CPU and waiting');
  process.exit(1);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
