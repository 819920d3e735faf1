'use strict';
// What a try run (a user's document through every approach, try-suite.js) tells its user, per service and workload:
// the fastest approach, the one that kept the probe's p99 lowest, the one whose longest block was shortest, and the
// approach to pick: the fastest whose longest block stays under the user's limit (blockMs). The longest block is the
// runs' own (summary.js says why), with the server's worst second of lag max beside it. What is held against the limit
// is the part of it the approach is accountable for: the longest block its own work made, the time its thread waited
// for a CPU left out (loop-kit/event-loop.js' maxOwnBlockMs), where the service can tell them apart; a busy machine's
// part is said beside it. Read from the scenarios' summaries (summary.js), so the driver at the end of the run,
// `make try` and report.html say the same. An approach that failed (an error, a refusal, an answer not validated,
// stopped) is listed as failed and never chosen; nor is one whose longest block is unknown. A runtime without an event
// loop (the JVM: each request on a thread of its own) has no block to report, so the probe's p99 beside its runs
// stands in for it, said so in the row and the reason: it is what the service's other clients felt while the runs
// ran, the thing the limit guards.

const DEFAULT_BLOCK_MS = 10;
// /info runtime names of the services whose runs block no event loop.
const NO_EVENT_LOOP = new Set(['jvm']);
const PROBE_STAND_IN = 'probe p99 (no event loop)';

/** The row of one scenario: its approach and the figures the choice is made on; loopless: its runtime has no event loop. */
function rowOf(summary, loopless) {
  const standIn = loopless && (summary.longestBlockMs === null || summary.longestBlockMs === undefined) && typeof summary.probeP99Ms === 'number';
  const number = (value) => (typeof value === 'number' ? value : null);
  const longestBlockMs = standIn ? summary.probeP99Ms : summary.longestBlockMs;
  const ownBlockMs = standIn ? null : number(summary.longestOwnBlockMs);
  return {
    approach: summary.approach,
    scenario: summary.name,
    passed: summary.passed === true && summary.stopped !== true && summary.runMeanMs !== null && summary.runMeanMs !== undefined,
    runs: summary.runs,
    runMeanMs: summary.runMeanMs,
    requestsPerSecond: summary.requestsPerSecond,
    probeP99Ms: summary.probeP99Ms,
    longestBlockMs,
    longestBlockFrom: standIn ? PROBE_STAND_IN : summary.longestBlockFrom,
    // How long the longest block's thread waited for a CPU, and the longest block of the approach's own work.
    longestBlockWaitMs: standIn ? null : number(summary.longestBlockWaitMs),
    ownBlockMs,
    // Without an event loop: the slowest run's wall time on its thread, its time on a CPU and waiting for one
    // (summary.js' threadFigures). Not held against the limit; said beside the stand-in, so a busy machine shows.
    longestRunWallMs: number(summary.longestRunWallMs),
    longestRunCpuMs: number(summary.longestRunCpuMs),
    longestRunWaitMs: number(summary.longestRunWaitMs),
    // What the limit is held against: the approach's own part where the service says it, else the whole block.
    accountableMs: ownBlockMs !== null ? ownBlockMs : longestBlockMs,
    serverLagMaxMs: summary.serverLagMaxMs === undefined ? null : summary.serverLagMaxMs,
    problems: summary.passed ? [] : summary.problems.length ? summary.problems : ['no validated run'],
  };
}

/** The passed row lowest in field (the first of equals, in run order), or null. */
function lowest(rows, field) {
  return rows.filter((r) => r.passed && typeof r[field] === 'number').reduce((best, r) => (best === null || r[field] < best[field] ? r : best), null);
}

/** A loopless row's slowest run in words ('; its slowest run: ...'), or '' where its service does not say. */
function runWords(row) {
  if (row.longestRunWallMs === null || row.longestRunWaitMs === null) return '';
  const spent = row.longestRunCpuMs === null ? `${row.longestRunWaitMs} ms of it waiting for a CPU` : `${row.longestRunCpuMs} ms of it on a CPU, ${row.longestRunWaitMs} ms waiting for one`;
  return `; its slowest run: ${row.longestRunWallMs} ms on its thread, ${spent}`;
}

/** A row's block in words: the whole of it, and where the machine made it wait, the part held against the limit. */
function blockWords(row) {
  if (row.longestBlockFrom === PROBE_STAND_IN) return `${row.longestBlockMs} ms of probe p99, no event loop${runWords(row)}`;
  if (row.longestBlockMs === null || row.longestBlockMs === undefined) return 'unknown';
  const waited = row.longestBlockWaitMs;
  if (row.ownBlockMs === null || !(waited > 0) || row.ownBlockMs >= row.longestBlockMs) return `${row.longestBlockMs} ms`;
  return `${row.ownBlockMs} ms of its own (the longest block ${row.longestBlockMs} ms, ${waited} ms of it waiting for a CPU)`;
}

/**
 * The limits that would pick something, for a group with no pick: [{approach, blockMs}], the smallest whole limit at
 * which each approach would be the pick, least first. An approach a faster one blocks no longer than is never the
 * pick, and is left out.
 */
function limitsToPick(rows) {
  const ranked = rows.filter((r) => r.passed && typeof r.accountableMs === 'number').sort((a, b) => a.runMeanMs - b.runMeanMs);
  const limits = [];
  ranked.forEach((row, i) => {
    const limit = Math.floor(row.accountableMs) + 1; // the limit is a whole number of ms, and a block must stay under it
    if (ranked.slice(0, i).every((faster) => faster.accountableMs >= limit)) limits.push({ approach: row.approach, blockMs: limit });
  });
  return limits.sort((a, b) => a.blockMs - b.blockMs);
}

/** Why the pick is the pick (or why there is none), in words with the figures. */
function reasonOf(pick, fastest, shortest, blockMs, anyPassed, limits) {
  if (!anyPassed) return 'every approach failed: nothing to pick';
  if (!pick) {
    const would = limits.length ? `; a limit of ${limits.map((l) => `${l.blockMs} ms would pick ${l.approach}`).join(', ')}` : '';
    return `no approach kept its longest block under ${blockMs} ms (the shortest: ${shortest ? `${shortest.approach}, ${blockWords(shortest)}` : 'unknown'})${would}`;
  }
  const block = pick.longestBlockFrom === PROBE_STAND_IN ? `no event loop: the probe's p99 ${pick.longestBlockMs} ms stands in for the longest block` : `longest block ${blockWords(pick)}`;
  const own = `${pick.runMeanMs} ms a run, ${block} < ${blockMs} ms${pick.longestBlockFrom === PROBE_STAND_IN ? runWords(pick) : ''}`;
  if (pick === fastest) return `the fastest, and its longest block stays under ${blockMs} ms (${own})`;
  const over = fastest.longestBlockMs === null ? 'blocked for an unknown time' : fastest.longestBlockFrom === PROBE_STAND_IN ? `its probe p99 was ${fastest.longestBlockMs} ms${runWords(fastest)}` : `blocked for ${blockWords(fastest)}`;
  return `the fastest whose longest block stays under ${blockMs} ms (${own}); ${fastest.approach} is faster (${fastest.runMeanMs} ms) but ${over}`;
}

/**
 * summaries: the run's scenario summaries (only /run scenarios count); blockMs: the longest block the user accepts;
 * infos: the targets' /info by name (a runtime without an event loop gets the probe's stand-in). Returns {blockMs,
 * groups: [{target, workload, rows, fastest, lowestProbe, shortestBlock, pick, reason, limitsToPick}]}, each of
 * fastest.. pick an approach's name or null, limitsToPick limitsToPick's answer where there is no pick.
 */
function chooseApproaches(summaries, blockMs = DEFAULT_BLOCK_MS, infos = {}) {
  const loopless = (target) => Boolean(infos[target] && infos[target].runtime && NO_EVENT_LOOP.has(infos[target].runtime.name));
  const groups = new Map();
  for (const summary of summaries.filter((s) => s.workload && s.approach)) {
    const key = `${summary.target}\u0000${summary.workload}`;
    if (!groups.has(key)) groups.set(key, { target: summary.target, workload: summary.workload, rows: [] });
    groups.get(key).rows.push(rowOf(summary, loopless(summary.target)));
  }
  return {
    blockMs,
    groups: [...groups.values()].map((group) => {
      const fastest = lowest(group.rows, 'runMeanMs');
      const shortest = lowest(group.rows, 'accountableMs');
      const under = group.rows.filter((r) => r.passed && typeof r.accountableMs === 'number' && r.accountableMs < blockMs);
      const pick = lowest(under, 'runMeanMs');
      const name = (row) => (row ? row.approach : null);
      const limits = pick ? [] : limitsToPick(group.rows);
      return Object.assign(group, {
        fastest: name(fastest),
        lowestProbe: name(lowest(group.rows, 'probeP99Ms')),
        shortestBlock: name(shortest),
        pick: name(pick),
        reason: reasonOf(pick, fastest, shortest, blockMs, group.rows.some((r) => r.passed), limits),
        // With no pick: the limits (TRY_BLOCK_MS, blockMs) that would pick one, least first.
        limitsToPick: limits,
      });
    }),
  };
}

/** The choice as lines of text for a terminal: one table per service and workload, the pick and why. */
function describeChoice(choice) {
  const lines = [];
  const cell = (v) => (v === null || v === undefined ? '-' : String(v));
  for (const g of choice.groups) {
    lines.push(`${g.target} · ${g.workload}: pick ${g.pick || 'NONE'} — ${g.reason}`);
    const rows = [['approach', 'ms/run', 'runs', 'probe p99 ms', 'longest block ms', 'waiting ms', 'own block ms', 'server lag max ms', 'verdict']].concat(g.rows.map((r) => {
      const marks = [r.approach === g.pick ? 'PICK' : null, r.approach === g.fastest ? 'fastest' : null, r.approach === g.lowestProbe ? 'lowest probe' : null, r.approach === g.shortestBlock ? 'shortest block' : null].filter(Boolean);
      const verdict = r.passed ? marks.join(', ') || 'ok' : `FAILED: ${r.problems.join('; ')}`;
      return [r.approach, cell(r.runMeanMs), cell(r.runs), cell(r.probeP99Ms), cell(r.longestBlockMs), cell(r.longestBlockWaitMs), cell(r.ownBlockMs), cell(r.serverLagMaxMs), verdict];
    }));
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    const last = rows[0].length - 1;
    for (const r of rows) lines.push(`  ${r.map((c, i) => (i === last ? c : i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`);
  }
  return lines;
}

module.exports = { chooseApproaches, describeChoice, DEFAULT_BLOCK_MS };
