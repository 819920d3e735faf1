'use strict';
// An approach's rounds made one row of the choice (try-choice.js). The try suite runs each approach of a service's
// workload in interleaved rounds (try-suite.js); each round's scenario summary (summary.js) becomes a round here
// (roundOf), and an approach's rounds its row (approachRow), so that no figure the choice is made on comes from one
// round alone:
// - its time a run is the median of its rounds' means: a round that a neighbour's burst slowed moves the median of
//   three by nothing, where it would pull a mean of all runs;
// - its block is its median round's (the rounds ordered by the block held against the limit, an unknown block last;
//   of an even count the worse of the middle two): a block the approach makes in most rounds counts, one in a single
//   round neither makes nor breaks the pick. The worst round's block is kept beside it;
// - its runs' times, pooled over the rounds, are what try-compare.js tests the approaches on;
// - a round that failed fails the approach, said with the round.
// A runtime without an event loop (the JVM: each request on a thread of its own) has no block to report, so the
// probe's p99 beside its runs stands in for it, said so in the row.

const { round } = require('@lab/loop-kit/round');

// /info runtime names of the services whose runs block no event loop.
const NO_EVENT_LOOP = new Set(['jvm']);
const PROBE_STAND_IN = 'probe p99 (no event loop)';

const number = (value) => (typeof value === 'number' ? value : null);

/** One round: the figures of one scenario's summary; loopless: its runtime has no event loop. */
function roundOf(summary, loopless) {
  const standIn = loopless && (summary.longestBlockMs === null || summary.longestBlockMs === undefined) && typeof summary.probeP99Ms === 'number';
  const longestBlockMs = standIn ? summary.probeP99Ms : number(summary.longestBlockMs);
  const ownBlockMs = standIn ? null : number(summary.longestOwnBlockMs);
  return {
    scenario: summary.name,
    passed: summary.passed === true && summary.stopped !== true && typeof summary.runMeanMs === 'number',
    runs: summary.runs,
    runMeanMs: number(summary.runMeanMs),
    requestsPerSecond: summary.requestsPerSecond,
    probeP99Ms: number(summary.probeP99Ms),
    longestBlockMs,
    longestBlockFrom: standIn ? PROBE_STAND_IN : summary.longestBlockFrom,
    // How long the longest block's thread waited for a CPU, and the longest block of the approach's own work.
    longestBlockWaitMs: standIn ? null : number(summary.longestBlockWaitMs),
    ownBlockMs,
    // The collector's pauses inside the block held against the limit (its own, else the whole one), null where unsaid.
    collectorMs: standIn ? null : number(ownBlockMs !== null ? summary.longestOwnBlockGcMs : summary.longestBlockGcMs),
    // The longest block its own work made outside the collector's pauses, over every gap of every run.
    ownLessCollectorMs: standIn ? null : number(summary.longestOwnBlockLessGcMs),
    // Without an event loop: the slowest run's wall time on its thread, its time on a CPU and waiting for one
    // (summary.js' threadFigures). Not held against the limit; said beside the stand-in, so a busy machine shows.
    longestRunWallMs: number(summary.longestRunWallMs),
    longestRunCpuMs: number(summary.longestRunCpuMs),
    longestRunWaitMs: number(summary.longestRunWaitMs),
    // What the limit is held against: the approach's own part where the service says it, else the whole block.
    accountableMs: ownBlockMs !== null ? ownBlockMs : longestBlockMs,
    serverLagMaxMs: number(summary.serverLagMaxMs),
    runMsSamples: Array.isArray(summary.runMsSamples) ? summary.runMsSamples : [],
    problems: summary.passed ? [] : summary.problems && summary.problems.length ? summary.problems : ['no validated run'],
  };
}

/** The median of the numbers among values, or null when there are none. */
function median(values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The round whose block is the median: ordered by accountableMs, unknown last; of an even count, the worse middle. */
function medianRound(rounds) {
  const key = (r) => (typeof r.accountableMs === 'number' ? r.accountableMs : Infinity);
  const sorted = rounds.slice().sort((a, b) => key(a) - key(b));
  return sorted[Math.floor(sorted.length / 2)];
}

const rounded = (value) => (value === null ? null : round(value));

/** The row of an approach from its rounds (roundOf's, in run order). */
function approachRow(approach, rounds) {
  const mid = medianRound(rounds);
  const known = rounds.map((r) => r.accountableMs).filter((v) => typeof v === 'number');
  const several = rounds.length > 1;
  return {
    approach,
    scenarios: rounds.map((r) => r.scenario),
    passed: rounds.every((r) => r.passed),
    runs: rounds.reduce((sum, r) => sum + (r.runs || 0), 0),
    runMeanMs: rounded(median(rounds.map((r) => r.runMeanMs))),
    requestsPerSecond: rounded(median(rounds.map((r) => r.requestsPerSecond))),
    probeP99Ms: rounded(median(rounds.map((r) => r.probeP99Ms))),
    // The median round's block, whole: its figures belong together (blockWords in try-choice.js says them).
    blockRound: rounds.indexOf(mid) + 1,
    longestBlockMs: mid.longestBlockMs,
    longestBlockFrom: mid.longestBlockFrom,
    longestBlockWaitMs: mid.longestBlockWaitMs,
    ownBlockMs: mid.ownBlockMs,
    collectorMs: mid.collectorMs,
    ownLessCollectorMs: mid.ownLessCollectorMs,
    longestRunWallMs: mid.longestRunWallMs,
    longestRunCpuMs: mid.longestRunCpuMs,
    longestRunWaitMs: mid.longestRunWaitMs,
    accountableMs: mid.accountableMs,
    // The worst round's block held against the limit (null when a round's is unknown).
    worstAccountableMs: known.length === rounds.length ? Math.max(...known) : null,
    serverLagMaxMs: mid.serverLagMaxMs,
    // Each round's own figures, in run order.
    rounds: rounds.map((r) => ({ scenario: r.scenario, passed: r.passed, runs: r.runs, runMeanMs: r.runMeanMs, accountableMs: r.accountableMs })),
    runMsSamples: rounds.flatMap((r) => r.runMsSamples),
    problems: rounds.flatMap((r, i) => r.problems.map((p) => (several ? `round ${i + 1}: ${p}` : p))),
  };
}

/**
 * The rows of one service's workload from its scenario summaries in run order (loopless: its runtime has no event
 * loop): one per approach, in the order the approaches first ran (the service's own order), its rounds the approach's
 * summaries in run order.
 */
function approachRows(summaries, loopless) {
  const byApproach = new Map();
  for (const summary of summaries) {
    if (!byApproach.has(summary.approach)) byApproach.set(summary.approach, []);
    byApproach.get(summary.approach).push(roundOf(summary, loopless));
  }
  return [...byApproach].map(([approach, rounds]) => approachRow(approach, rounds));
}

module.exports = { approachRows, NO_EVENT_LOOP, PROBE_STAND_IN };
