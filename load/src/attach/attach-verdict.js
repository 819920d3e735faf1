'use strict';
// What `make attach` tells its user about a service the lab did not write, from the run's scenario files: at each
// load (closed loops by connections, open loops by rate) what its event loop did (the agent's lag, ELU and GC
// figures, scraped by Prometheus) and what a client felt; from which load on the loop blocked longer than blockMs;
// and, in the scenario whose loop blocked longest, what ran then: the heaviest stacks of the longest block in that
// scenario's CPU profile (the agent's POST /profile). A JVM has no event loop: its verdict reads the probe and the
// collector instead, and its profile's heaviest stacks. What the run could not see (no agent: no lag, ELU, GC nor
// profile) is named, never left blank.
const { summarize } = require('../run/summary');
const { targetSeriesOf, peakMs } = require('../scenario/server-series');
// The longest block a responsive service allows itself by default: the try suite's.
const { DEFAULT_BLOCK_MS } = require('../try/try-choice');

// The stacks shown of the longest block, and how many frames of each (leaf-most; the rest is the caller's chain).
const TOP_STACKS = 3;
const FRAMES_SHOWN = 6;

/** The figures an agent gives, by its kind: what is missing without one, or with a JVM's. */
const MISSING = {
  none: ['event-loop lag', 'event-loop utilization', 'GC pauses', 'CPU profiles', "the service's own CPU (the machine's busy share counts it as elsewhere)"],
  jvm: ['event-loop lag (a JVM has none: the probe and the GC pauses stand in)'],
  node: [],
};

/** One load's row: what was asked, what the client got and what the loop did. */
function loadOf(file) {
  const summary = summarize(Object.assign({ flags: [], thresholds: [] }, file));
  const scenario = file.scenario;
  const job = targetSeriesOf(file);
  const profile = file.profile && !file.profile.error ? file.profile : null;
  return {
    name: scenario.name,
    loop: scenario.arrivalRate ? 'open' : 'closed',
    connections: scenario.connections,
    arrivalRate: scenario.arrivalRate || null,
    arrivalFrom: scenario.arrivalFrom || null,
    passed: summary.passed,
    problems: summary.problems,
    requestsPerSecond: summary.requestsPerSecond,
    latencyP99Ms: summary.latencyP99Ms,
    probeP99Ms: summary.probeP99Ms,
    probeMaxMs: summary.probeMaxMs,
    lagP99Ms: job ? peakMs(job.lagP99Seconds) : null,
    lagMaxMs: summary.serverLagMaxMs,
    elu: summary.serverElu,
    gcPauseMaxMs: summary.gcPauseMaxMs,
    machineBusy: summary.machineBusy,
    profileBlock: profile && profile.longestBlock ? profile.longestBlock : null,
    heaviest: profile && profile.heaviest ? profile.heaviest : null,
    profileError: file.profile && file.profile.error ? file.profile.error : null,
  };
}

/** A stack as read in a sentence: its leaf-most frames, the leaf last. */
const stackText = (stack) => (stack.length > FRAMES_SHOWN ? ['…'].concat(stack.slice(-FRAMES_SHOWN)) : stack).join(' > ');

/**
 * The block a load's loop held longest: the lag's worst second less the agent's timer interval (the monitor records
 * whole intervals: an idle loop reads about its resolution), else the profile's block.
 */
function blockMsOf(load, resolutionMs) {
  if (typeof load.lagMaxMs === 'number') return Math.round(Math.max(0, load.lagMaxMs - resolutionMs) * 1000) / 1000;
  return load.profileBlock ? load.profileBlock.ms : null;
}

/**
 * The verdict of an attach run from its scenario files (in run order) and run.json's `attach` ({url, method, agent:
 * 'node' | 'jvm' | null, blockMs, lagResolutionMs, unscraped (optional)}): {url, agent, blockMs, lagResolutionMs, loads, blocksFrom,
 * longest, missing, lines}. A block is the lag's worst second less the agent's timer interval.
 */
function attachVerdict(files, attach) {
  const blockMs = typeof attach.blockMs === 'number' ? attach.blockMs : DEFAULT_BLOCK_MS;
  const resolutionMs = attach.lagResolutionMs || 0;
  const blockOf = (load) => blockMsOf(load, resolutionMs);
  const loads = files.map(loadOf);
  const kind = attach.agent || 'none';
  // By what the service answered a second: the load it was under, whichever loop made it.
  const byRate = loads.filter((l) => typeof l.requestsPerSecond === 'number').sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const blocking = byRate.filter((l) => (blockOf(l) || 0) > blockMs);
  const longest = loads.filter((l) => blockOf(l) !== null).sort((a, b) => blockOf(b) - blockOf(a))[0] || null;
  const verdict = {
    url: attach.url,
    agent: attach.agent || null,
    blockMs,
    lagResolutionMs: resolutionMs,
    loads,
    blocksFrom: kind === 'jvm' || blocking.length === 0 ? null : { name: blocking[0].name, requestsPerSecond: blocking[0].requestsPerSecond, blockMs: blockOf(blocking[0]), atEveryLoad: blocking.length === byRate.length },
    longest: longest && kind !== 'jvm' ? { name: longest.name, ms: blockOf(longest), stacks: longest.profileBlock ? longest.profileBlock.stacks.slice(0, TOP_STACKS) : [] } : null,
    heaviest: kind === 'jvm' ? heaviestOf(loads) : null,
    // An agent whose series Prometheus was not told to scrape (attach-scrape.js) measured nothing of its own either.
    missing: MISSING[kind].concat(attach.unscraped ? [attach.unscraped] : []),
  };
  verdict.lines = verdictLines(verdict);
  return verdict;
}

/** The JVM's: the heaviest stacks of the most loaded scenario's profile. */
function heaviestOf(loads) {
  const busiest = loads.filter((l) => l.heaviest).sort((a, b) => b.requestsPerSecond - a.requestsPerSecond)[0];
  return busiest ? { name: busiest.name, stacks: busiest.heaviest.slice(0, TOP_STACKS) } : null;
}

/** The verdict in sentences, the same for make attach's summary and report.html. */
function verdictLines(v) {
  const lines = [];
  if (v.agent === 'jvm') {
    lines.push('a JVM has no event loop: see each load\'s probe p99 and GC pauses');
  } else if (v.agent === null) {
    lines.push('no agent answered beside the service: only what its clients felt was measured');
  } else if (!v.blocksFrom) {
    lines.push(`its event loop never blocked past ${v.blockMs} ms at any load tried (the worst second: ${v.longest ? v.longest.ms : 'none'} ms)`);
  } else {
    const from = v.blocksFrom;
    lines.push(from.atEveryLoad
      ? `its event loop blocked past ${v.blockMs} ms at every load tried, from the lightest (${from.requestsPerSecond} requests/s in ${from.name}: ${from.blockMs} ms)`
      : `its event loop blocks past ${v.blockMs} ms from ${from.requestsPerSecond} requests/s on (${from.name}: ${from.blockMs} ms); below that load it did not`);
  }
  if (v.longest) {
    lines.push(`the longest block: ${v.longest.ms} ms, in ${v.longest.name}${v.longest.stacks.length ? '; what ran then:' : ' (no profile of it)'}`);
    for (const s of v.longest.stacks) lines.push(`  ${Math.round(s.share * 100)} %  ${stackText(s.stack)}`);
  }
  if (v.heaviest) {
    lines.push(`the heaviest stacks under the most load (${v.heaviest.name}):`);
    for (const s of v.heaviest.stacks) lines.push(`  ${Math.round(s.share * 100)} %  ${stackText(s.stack)}`);
  }
  if (v.longest && v.lagResolutionMs > 0) lines.push(`a block is the lag's worst second less the agent's loop-monitor interval (${v.lagResolutionMs} ms, LAB_AGENT_LAG_RESOLUTION_MS): what an idle loop reads`);
  if (v.missing.length) lines.push(`not measured: ${v.missing.join(', ')}`);
  return lines;
}

module.exports = { attachVerdict, stackText };
