'use strict';
// What a try run (a user's document through every approach, try-suite.js) tells its user, per service and workload:
// the fastest approach, the one that kept the probe's p99 lowest, the one whose longest block was shortest, and the
// approach to pick: the fastest whose longest block stays under the user's limit (blockMs). Each approach ran in
// interleaved rounds; its figures are over its rounds (try-rounds.js: the median round's block, the median of the
// rounds' times), and the pick is compared with the other candidates on their runs' times (try-compare.js): one the
// fastest cannot be told apart from and that is simpler is the pick instead, said with the p-value. The longest block
// is the runs' own (summary.js says why), with the server's worst second of lag max beside it. What is held against
// the limit is the part of it the approach is accountable for: the longest block its own work made, the time its
// thread waited for a CPU left out (loop-kit/event-loop.js' maxOwnBlockMs), where the service can tell them apart; a
// busy machine's part is said beside it. Read from the scenarios' summaries (summary.js), so the driver at the end of
// the run, `make try` and report.html say the same. An approach that failed in any round (an error, a refusal, an
// answer not validated, stopped) is listed as failed and never chosen; nor is one whose longest block is unknown. A
// runtime without an event loop (the JVM) is judged by the probe's p99 beside its runs, said so in the row and the
// reason: it is what the service's other clients felt while the runs ran, the thing the limit guards. With no pick,
// the reason says which limit would pick which approach and what would move each one's block (try-knobs.js). A group
// whose scenarios ran while the machine was busy (busy-machine.js) says so in its reason: not a verdict.
const { approachRows, NO_EVENT_LOOP, PROBE_STAND_IN } = require('./try-rounds');
const { settle, pWords, ALPHA, SIMPLEST } = require('./try-compare');
const { knobsOf, knobWords } = require('./try-knobs');
const { machineBusyOfRun, notAVerdictWords } = require('../machine/busy-machine');

const DEFAULT_BLOCK_MS = 10;

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

/** The collector's part of the block held against the limit, in words ('' where there was none or it is unknown). */
const collectorWords = (row) => (row.collectorMs > 0 ? `, ${row.collectorMs} ms of it the collector's pauses` : '');

/**
 * A row's block in words: the whole of it, and where the machine made it wait, the part held against the limit; and
 * how much of that the collector's pauses were.
 */
function blockWords(row) {
  if (row.longestBlockFrom === PROBE_STAND_IN) return `${row.longestBlockMs} ms of probe p99, no event loop${runWords(row)}`;
  if (row.longestBlockMs === null || row.longestBlockMs === undefined) return 'unknown';
  const waited = row.longestBlockWaitMs;
  if (row.ownBlockMs === null || !(waited > 0) || row.ownBlockMs >= row.longestBlockMs) return `${row.longestBlockMs} ms${collectorWords(row)}`;
  return `${row.ownBlockMs} ms of its own${collectorWords(row)} (the longest block ${row.longestBlockMs} ms, ${waited} ms of it waiting for a CPU)`;
}

/**
 * The limits that would pick something, for a group with no pick: [{approach, blockMs}], the smallest whole limit at
 * which each approach would be the fastest under it, least first. An approach a faster one blocks no longer than is
 * never the pick, and is left out.
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

/**
 * Where the collector's pauses are what put approaches over the limit: the longest block each one's own work made
 * outside them, fastest first, and what moves the pauses instead ('' where none). A pause is V8's, in one piece; no
 * slicing of the approach's splits it.
 */
function collectorReason(rows, blockMs) {
  const overByPauses = rows
    .filter((r) => r.passed && typeof r.accountableMs === 'number' && r.accountableMs >= blockMs && typeof r.ownLessCollectorMs === 'number' && r.ownLessCollectorMs < blockMs)
    .sort((a, b) => a.runMeanMs - b.runMeanMs);
  if (overByPauses.length === 0) return '';
  const blocks = overByPauses.map((r, i) => `${r.approach}'s ${i === 0 ? 'longest was ' : ''}${r.ownLessCollectorMs} ms`).join(', ');
  return `; outside the collector's pauses, ${blocks}: the pauses follow what the process allocates and keeps and the runtime's heap settings, which no parameter of an approach moves`;
}

/** Why there is no pick: the closest approach, the limits that would pick one, what would move each block. */
function noPickReason(rows, closest, blockMs, rounds, limits, knobs, target) {
  if (!rows.some((r) => r.passed)) return 'every approach failed: nothing to pick';
  const where = rounds > 1 ? ' in its median round' : '';
  const would = limits.length ? `; a limit of ${limits.map((l) => `${l.blockMs} ms would pick ${l.approach}`).join(', ')}` : '';
  const moves = knobs.length ? `; what moves each block: ${knobWords(knobs, target)}` : '';
  return `no approach kept its longest block under ${blockMs} ms${where} (the closest: ${closest ? `${closest.approach}, ${blockWords(closest)}` : 'unknown'})${would}${moves}${collectorReason(rows, blockMs)}`;
}

/** Why the pick (settle's) is the pick, in words with the figures. */
function pickReason({ pick, fastest, comparedWith, comparisons }, overall, blockMs, rounds, target) {
  const block = pick.longestBlockFrom === PROBE_STAND_IN ? `no event loop: the probe's p99 ${pick.longestBlockMs} ms stands in for the longest block` : `longest block ${blockWords(pick)}`;
  const ran = pick.longestBlockFrom === PROBE_STAND_IN ? runWords(pick) : '';
  const timed = rounds > 1 ? `${pick.runMeanMs} ms a run, the median of ${rounds} rounds; ${block} < ${blockMs} ms in its median round${ran}` : `${pick.runMeanMs} ms a run, ${block} < ${blockMs} ms${ran}`;
  let head;
  if (comparedWith && comparedWith.tied) {
    const [a, b] = pick === fastest ? [pick.approach, comparedWith.approach] : [comparedWith.approach, pick.approach];
    const simpler = pick.approach === SIMPLEST ? `${pick.approach} is simpler` : `${pick.approach} comes first in ${target}'s list`;
    head = `${a} and ${b} are indistinguishable on this document (${pWords(comparedWith.p)}): both keep the loop under ${blockMs} ms; ${simpler} (${timed})`;
  } else {
    head = `${pick === overall ? 'the fastest, and its longest block stays' : 'the fastest whose longest block stays'} under ${blockMs} ms (${timed})`;
    if (comparedWith) head += `; faster than ${comparedWith.approach}, the next under the limit (${pWords(comparedWith.p)})`;
  }
  if (!overall || overall === pick || (typeof overall.accountableMs === 'number' && overall.accountableMs < blockMs)) return head;
  // The fastest of all is over the limit (or its block unknown): said with how it blocked, and whether its lead is real.
  const over = overall.longestBlockMs === null ? 'blocked for an unknown time' : overall.longestBlockFrom === PROBE_STAND_IN ? `its probe p99 was ${overall.longestBlockMs} ms${runWords(overall)}` : `blocked for ${blockWords(overall)}`;
  const c = comparisons.find((x) => x.approach === overall.approach);
  if (c && c.p >= ALPHA) return `${head}; ${overall.approach} is no faster by its runs' times (${overall.runMeanMs} ms, ${pWords(c.p)}) and ${over}`;
  return `${head}; ${overall.approach} is faster (${overall.runMeanMs} ms${c ? `, ${pWords(c.p)}` : ''}) but ${over}`;
}

/**
 * summaries: the run's scenario summaries in run order (only /run scenarios count; an approach's summaries are its
 * rounds); blockMs: the longest block the user accepts; infos: the targets' /info by name (a runtime without an event
 * loop gets the probe's stand-in; a workload's parameters name the knobs). Returns {blockMs, rounds, alpha, groups:
 * [{target, workload, rounds, rows, fastest, lowestProbe, shortestBlock, pick, comparedWith, comparisons, reason,
 * limitsToPick, knobs, machineBusy}]}: fastest.. pick an approach's name or null; comparedWith {approach, p, tied} the comparison the
 * reason leans on and comparisons [{approach, p, slower}] every other passed approach against the pick (try-compare.js);
 * limitsToPick and knobs (try-knobs.js) where there is no pick, else [].
 */
function chooseApproaches(summaries, blockMs = DEFAULT_BLOCK_MS, infos = {}) {
  const loopless = (target) => Boolean(infos[target] && infos[target].runtime && NO_EVENT_LOOP.has(infos[target].runtime.name));
  const groups = new Map();
  for (const summary of summaries.filter((s) => s.workload && s.approach)) {
    const key = `${summary.target}\u0000${summary.workload}`;
    if (!groups.has(key)) groups.set(key, { target: summary.target, workload: summary.workload, summaries: [] });
    groups.get(key).summaries.push(summary);
  }
  const made = [...groups.values()].map(({ target, workload, summaries: own }) => {
    const rows = approachRows(own, loopless(target));
    const rounds = Math.max(...rows.map((r) => r.rounds.length));
    const overall = lowest(rows, 'runMeanMs');
    const closest = lowest(rows, 'accountableMs');
    const settled = settle(rows.filter((r) => r.passed && typeof r.accountableMs === 'number' && r.accountableMs < blockMs), rows);
    const { pick } = settled;
    const limits = pick ? [] : limitsToPick(rows);
    const knobs = pick ? [] : knobsOf(infos[target], workload, rows.filter((r) => r.passed).map((r) => r.approach));
    const name = (row) => (row ? row.approach : null);
    // A group any of whose scenarios ran on a busy machine says so: its figures explain, they do not decide.
    const machineBusy = machineBusyOfRun(own);
    const reason = (pick ? pickReason(settled, overall, blockMs, rounds, target) : noPickReason(rows, closest, blockMs, rounds, limits, knobs, target)) + notAVerdictWords(machineBusy);
    // The pooled run times served the comparison; run.json keeps each scenario's own (checks.runs.msSamples).
    for (const row of rows) delete row.runMsSamples;
    return {
      target,
      workload,
      rounds,
      rows,
      fastest: name(overall),
      lowestProbe: name(lowest(rows, 'probeP99Ms')),
      shortestBlock: name(closest),
      pick: name(pick),
      comparedWith: settled.comparedWith,
      comparisons: settled.comparisons,
      reason,
      // With no pick: the limits (TRY_BLOCK_MS, blockMs) that would pick one, least first, and what moves each block.
      limitsToPick: limits,
      knobs,
      // What the machine did beside the group's scenarios (busy-machine.js), null where it was not watched.
      machineBusy,
    };
  });
  return { blockMs, rounds: Math.max(0, ...made.map((g) => g.rounds)), alpha: ALPHA, groups: made };
}

module.exports = { chooseApproaches, DEFAULT_BLOCK_MS };
