'use strict';
// The tables and the verdict on the issue's targets, read from bench/shapes-bench.js's raw results (the JSON it saves
// under results/bench/), so that a saved run can be printed again:
//
//   node js-serializers/bench/shapes-table.js results/bench/shapes-<time>.json
//
// Per (workload, shape, approach): the median time of the rounds (of every pass), its ratio to native's median in the
// same benchmark run (fast's pipeTo(): to native's text written to the same sink, its approach's comparedWith; for a
// document under 1 MB, the median of its rounds' ratios to that reference timed beside it in its process), the
// lowest and highest of the passes' own medians (its spread), and the worst of the rounds for the loop figures
// (longest 1 ms timer gap, event-loop delay max, lateness p99 and max of the 1 ms probe task). A row with any run
// unverified (or a child that failed) shows FAIL, never a time.
// Those tables and the verdict cover the shapes (or the user's file); every family of documents the run measured
// (the shapes, each generated tree family, each group of the real-world corpus) then gets one summary line per
// workload (bench/family-summary.js): per approach, the worst ratio of its median to native's, and its worst block.
// Node 14 syntax (the lint's rule for js-serializers/).
const fs = require('fs');
const { summaryLines } = require('./family-summary');
const { median, markdownTable } = require('@lab/bench-kit');

// The issue's targets for each function of fast on each shape.
const TARGETS = { maxRatioToNative: 1.5, maxBlockMs: 10 };
// Work besides native's that adds less than this fraction of native's time is no floor worth naming (the 4 keys of a
// tree's root, inserted from JavaScript, take 0.01 ms).
const NEGLIGIBLE_FLOOR = 0.01;

const worst = (runs, key) => Math.max(...runs.map((run) => run[key]));
const f1 = (n) => n.toFixed(1);
// A time to three significant digits or more: the sub-10 ms runs of a small --scale still compare.
const fms = (n) => n.toFixed(n < 10 ? 2 : 1);

/** A result's figures, or {verified: false, why} when a run was not verified or the child failed. */
function summarize(result) {
  const all = result.warmups.concat(result.runs);
  if (result.error) return { verified: false, why: result.error };
  const failed = all.find((run) => !run.verified);
  if (failed) return { verified: false, why: failed.error || 'output differs from native' };
  const yields = result.runs.map((run) => run.stats.yields).filter((y) => typeof y === 'number');
  const gapMs = worst(result.runs, 'timerGapMs');
  const eldMs = worst(result.runs, 'eldMaxMs');
  // The collector's pauses inside the longest gap of the round that had it (reports from before they were recorded
  // have none).
  const gc = result.runs.find((run) => run.timerGapMs === gapMs).gc || null;
  // The collector's pauses inside each round's own clock (reports from before they were recorded have none).
  const inRun = result.runs.every((run) => run.gc && typeof run.gc.inRunMs === 'number');
  return {
    verified: true,
    ms: median(result.runs.map((run) => run.ms)),
    // Reports from before the passes have none: one pass, its median the row's.
    passMs: result.passMedians && result.passMedians.length > 1 ? result.passMedians : null,
    gapMs,
    eldMs,
    blockMs: Math.max(gapMs, eldMs),
    probeP99Ms: worst(result.runs, 'probeP99Ms'),
    probeMaxMs: worst(result.runs, 'probeMaxMs'),
    yields: yields.length === result.runs.length ? median(yields) : null,
    gc,
    gcInRunMs: inRun ? median(result.runs.map((run) => run.gc.inRunMs)) : null,
    // The round's time less those pauses: the approach's own work, wherever V8 happened to collect.
    collectorFreeMs: inRun ? median(result.runs.map((run) => run.ms - run.gc.inRunMs)) : null,
    // A small document's rounds each timed the reference beside the approach (bench/shape-run.js): the median of
    // those ratios. Null for a large document, a reference, a report from before, or a reference's output wrong.
    pairedRatio: result.runs.length > 0 && result.runs.every((run) => typeof run.pairedRatio === 'number') ? median(result.runs.map((run) => run.pairedRatio)) : null,
  };
}

/** The results grouped by workload, then shape, in the order they ran: [{workload, shape, bytes, rows}]. */
function groups(results) {
  const out = [];
  for (const result of results) {
    let group = out.find((g) => g.workload === result.workload && g.shape === result.shape);
    if (!group) {
      group = { workload: result.workload, shape: result.shape, family: result.family, bytes: result.bytes, rows: [] };
      out.push(group);
    }
    if (group.bytes === undefined) group.bytes = result.bytes;
    group.rows.push(Object.assign({ result }, summarize(result)));
  }
  return out;
}

/**
 * The row a row's ratio is taken against: its approach's comparedWith (fast's pipeTo(): native's text written to the
 * same sink) when the report has that row, native's otherwise (reports from before the reference have none).
 */
function referenceOf(group, row) {
  const named = row.result.comparedWith && group.rows.find((r) => r.result.approach === row.result.comparedWith);
  return named || group.rows.find((r) => r.result.kind === 'native');
}

/**
 * A verified row's ratio to its reference (referenceOf): for a small document, the median of its rounds' ratios to
 * the reference timed beside it in the same process; otherwise its median over the reference's (each from processes
 * of their own). Null when the reference is missing or failed.
 */
function ratioOf(row, reference) {
  if (!reference || !reference.verified) return null;
  return row.pairedRatio !== null ? row.pairedRatio : row.ms / reference.ms;
}

/** What a ratio's reference is called in a verdict: native, or the reference's label. */
const referenceName = (reference) => (reference.result.kind === 'native' ? 'native' : reference.result.label);

/** The longest of the one-piece steps V8 takes for this approach on this document (bench/v8-steps.js), or null. */
function longestStep(result) {
  const steps = (result.steps || []).filter((step) => !step.spread);
  return steps.length === 0 ? null : steps.reduce((a, b) => (b.ms > a.ms ? b : a));
}

/** The work the approach must do beside native's own (bench/v8-steps.js): a floor under its time. */
const extraSteps = (result) => (result.steps || []).filter((step) => step.extra);

/**
 * For each function of fast on each shape, which targets it missed: slower than TARGETS.maxRatioToNative × native,
 * slower than the fastest verified peer, a block longer than TARGETS.maxBlockMs (timer gap or delay max), or a FAIL.
 * A block miss names V8's floor when a step V8 takes in one piece on that document is itself longer than the target
 * (atFloor): no slicing in JavaScript can bring that block under it. Otherwise it names the collector when its pauses
 * inside the block are all the block has over the target (byCollector): without them, the slices would have met it.
 * A ratio miss is put down to V8's floor (ratioAtFloor) when the approach must do work besides native's own (steps
 * marked extra, such as inserting a wide object's keys from JavaScript) and fast stays within the target's allowance
 * above native's time plus that work: the 0.5× of native's time the target grants over native, granted over the
 * floor. So the bound moves with the floor, with no jump where the floor crosses the target: a floor explains the
 * part of a time it covers, not a time far above it. A ratio miss is put down to V8's collector (ratioByCollector)
 * when, with the collector's pauses inside each round's clock taken out of both times, fast is within the target:
 * where a collection falls is V8's (native's burst of allocation often ends before the scavenge it brings, which then
 * falls after its clock, while fast's turns let V8 run that scavenge inside fast's), the rest is the work of each.
 * Those pauses include collecting what fast allocates beyond native's values (its frames and batch texts), which
 * the verdict cannot part from the rest: the line names both approaches' pauses, so that a reader can weigh them.
 * `own` counts the misses with no such reason: fast's own.
 */
function verdicts(report) {
  const out = [];
  for (const group of groups(report.results)) {
    const peers = group.rows.filter((row) => row.result.kind === 'peer' && row.verified);
    const bestPeer = peers.length === 0 ? null : peers.reduce((best, row) => (row.ms < best.ms ? row : best));
    for (const row of group.rows.filter((r) => r.result.kind === 'fast')) {
      const native = referenceOf(group, row);
      const misses = [];
      let atFloor = false;
      let byCollector = false;
      let ratioAtFloor = false;
      let ratioByCollector = false;
      let own = 0;
      if (!row.verified) {
        misses.push(`FAILED: ${row.why}`);
        own++;
      } else {
        const ratio = ratioOf(row, native);
        if (ratio !== null && ratio > TARGETS.maxRatioToNative) {
          const extra = extraSteps(row.result);
          const extraMs = extra.reduce((sum, step) => sum + step.ms, 0);
          const floorMs = native.ms + extraMs;
          const hasFloor = extraMs >= NEGLIGIBLE_FLOOR * native.ms;
          const allowedMs = floorMs + (TARGETS.maxRatioToNative - 1) * native.ms;
          ratioAtFloor = hasFloor && row.ms <= allowedMs;
          ratioByCollector = !ratioAtFloor && row.collectorFreeMs !== null && native.collectorFreeMs !== null &&
            row.collectorFreeMs <= TARGETS.maxRatioToNative * native.collectorFreeMs;
          const floor = `native's ${fms(native.ms)} ms and ${extra.map((step) => `${step.step} (${fms(step.ms)} ms)`).join(', ')} ` +
            `make ${(floorMs / native.ms).toFixed(2)}×, the target's allowance above it ${(allowedMs / native.ms).toFixed(2)}×`;
          let why = '';
          if (ratioAtFloor) why = `; V8's floor: ${floor}`;
          else if (ratioByCollector) {
            why = `; V8's collector paused ${fms(row.gcInRunMs)} ms inside its rounds (median), native's ${fms(native.gcInRunMs)} ms ` +
              `inside its own: without those pauses ${fms(row.collectorFreeMs)} against ${fms(native.collectorFreeMs)} ms, ` +
              `${(row.collectorFreeMs / native.collectorFreeMs).toFixed(2)}×`;
          } else if (hasFloor) why = `; over V8's floor by more than the target allows: ${floor}`;
          misses.push(`${ratio.toFixed(2)}× ${referenceName(native)} (target ${TARGETS.maxRatioToNative}×)${why}`);
          if (!ratioAtFloor && !ratioByCollector) own++;
        }
        if (bestPeer && row.ms > bestPeer.ms) {
          misses.push(`slower than ${bestPeer.result.label} (${fms(row.ms)} vs ${fms(bestPeer.ms)} ms)`);
          own++;
        }
        if (row.blockMs > TARGETS.maxBlockMs) {
          const floor = longestStep(row.result);
          atFloor = floor !== null && floor.ms > TARGETS.maxBlockMs;
          byCollector = !atFloor && row.gc !== null && row.gc.inBlockMs > 0 && row.blockMs - row.gc.inBlockMs <= TARGETS.maxBlockMs;
          let why = '';
          if (atFloor) why = `; V8's floor: ${floor.step} takes ${f1(floor.ms)} ms in one piece`;
          else if (byCollector) why = `; V8's collector paused ${f1(row.gc.inBlockMs)} ms inside it (${row.gc.inBlockKind})`;
          misses.push(`a ${f1(row.blockMs)} ms block (target ${TARGETS.maxBlockMs} ms)${why}`);
          if (!atFloor && !byCollector) own++;
        }
      }
      out.push({ workload: group.workload, shape: group.shape, approach: row.result.label, misses, atFloor, byCollector, ratioAtFloor, ratioByCollector, own });
    }
  }
  return out;
}

// Columns of text (shape, approach, verified) are aligned left, figures right.
const LEFT = new Set(['shape', 'approach', 'verified']);
/** A table with LEFT's columns aligned left and the figures right. */
const leftTable = (header, rows) => markdownTable(header, rows, { right: header.filter((h) => !LEFT.has(h)) });

function workloadTable(workload, report) {
  const header = ['shape', 'MB', 'approach', 'ms', 'passes ms', '× native', 'gc in run ms', 'block ms (gap / eld)', 'gc in gap ms', 'probe ms (p99 / max)', 'yields', 'verified'];
  const rows = [];
  for (const group of groups(report.results).filter((g) => g.workload === workload)) {
    const mb = group.bytes === undefined ? '-' : (group.bytes / 1e6).toFixed(1);
    for (const row of group.rows) {
      const native = referenceOf(group, row);
      const ratio = ratioOf(row, native);
      if (!row.verified) {
        rows.push([group.shape, mb, row.result.label, 'FAIL', '-', '-', '-', '-', '-', '-', '-', `FAIL: ${row.why}`.slice(0, 70)]);
        continue;
      }
      rows.push([
        group.shape,
        mb,
        row.result.label,
        fms(row.ms),
        row.passMs === null ? '-' : `${fms(Math.min(...row.passMs))}-${fms(Math.max(...row.passMs))}`,
        ratio === null ? '-' : `${ratio.toFixed(2)}×`,
        row.gcInRunMs === null ? '-' : f1(row.gcInRunMs),
        `${f1(row.gapMs)} / ${f1(row.eldMs)}`,
        row.gc === null ? '-' : f1(row.gc.inBlockMs),
        `${f1(row.probeP99Ms)} / ${f1(row.probeMaxMs)}`,
        row.yields === null ? '-' : String(row.yields),
        'yes',
      ]);
    }
  }
  return rows.length === 0 ? '' : `\n## ${workload}\n${leftTable(header, rows)}`;
}

/**
 * The shapes (or the user's file), which the tables and the verdict cover one by one; reports from before the tree
 * families and the corpus ran have no family on their results, and only shapes or a file.
 */
const detailed = (result) => result.family === undefined || result.family === 'shapes' || result.family === 'file';

/**
 * One summary line per family for a workload (bench/family-summary.js): per approach but native, the ratio of its
 * median to native's and its block (the worst round's), worst over the family's documents; a FAIL where its output
 * differed or its child failed, and where native's did, since nothing then has a ratio.
 */
function familyTable(workload, report) {
  const rows = groups(report.results).filter((g) => g.workload === workload).map((group) => {
    const native = group.rows.find((row) => row.result.kind === 'native');
    const approaches = {};
    for (const row of group.rows.filter((r) => r !== native)) {
      const reference = referenceOf(group, row);
      const ratio = row.verified ? ratioOf(row, reference) : null;
      approaches[row.result.label] = { ratio, blockMs: row.verified ? row.blockMs : null, failed: ratio === null };
    }
    const family = group.family === undefined ? 'shapes' : group.family;
    return { family, bytes: group.bytes, nativeBlockMs: native && native.verified ? native.blockMs : null, approaches };
  });
  return rows.length === 0 ? '' : `\n## ${workload}, per family: worst ratio to native (medians) and worst block\n${summaryLines(rows).join('\n')}`;
}

/** How the report timed its small documents: each round a run of calls (bench/shape-run.js), or, before, one call. */
function repeatedWords(report) {
  const repeated = report.results.some((result) => (result.repeats || []).some((n) => n > 1));
  return repeated ? ' (a document under 1 MB: each a run of calls lasting about 2 ms of native\'s time, a call\'s mean)' : '';
}

/** How the ratios of small documents were taken: paired in each process (bench/shape-run.js), or, before, apart. */
function pairedWords(report) {
  const paired = report.results.some((result) => result.runs.some((run) => typeof run.pairedRatio === 'number'));
  return paired ? ' A document under 1 MB: the median of its rounds\' ratios to that reference timed beside it in the same process.' : '';
}

/** How the rounds met the heap (bench/shapes-bench.js's --heap); reports from before the option were cold. */
function heapWords(heap) {
  return heap === 'steady' ? 'rounds back to back (steady heap)' : 'a full collection before each round (cold heap)';
}

/**
 * The whole printout of a report: its machine, a table per workload, then for each function of fast on each shape
 * whether it met the targets, and each target it missed, plainly; then, when the run measured tree families or the
 * corpus, one summary line per family and workload.
 */
function render(report) {
  const shapesOnly = Object.assign({}, report, { results: report.results.filter(detailed) });
  const all = verdicts(shapesOnly);
  const peers = Object.entries(report.peers).map(([name, version]) => `${name} ${version}`).join(', ');
  const lines = [
    `# Shapes: fast against native and its peers, ${report.file ? `file ${report.file}` : `scale ${report.scale}`}`,
    `Node ${report.node} (V8 ${report.v8}), ${report.cpus} × ${report.cpuModel}, load average ` +
      `${report.loadAverage.map(f1).join(' ')} at the start; median of ${report.rounds} rounds${repeatedWords(report)} after ` +
      `${report.warmups} warm-up(s) in each of ${report.passes || 1} process(es) per row, ${heapWords(report.heap)}, yieldMs ${report.yieldMs}, Node options ` +
      `${report.nodeOptions && report.nodeOptions.length > 0 ? report.nodeOptions.join(' ') : '(V8\'s defaults)'}; peers: ${peers}`,
  ];
  for (const workload of ['stringify', 'parse']) if (shapesOnly.results.some((r) => r.workload === workload)) lines.push(workloadTable(workload, shapesOnly));
  if (shapesOnly.results.length > 0) lines.push('',
    'passes ms: the lowest and the highest of the medians of the passes (one process each), when there were several.',
    '× native: fast pipeTo() against native JSON.stringify, written (native\'s text written to the same sink and the sink ended), ' +
      `when the report has it; every other row against native JSON.stringify or JSON.parse.${pairedWords(report)}`,
    'gc in run: the garbage collector\'s pauses inside a round\'s own clock (median of the rounds).',
    'block: the worst round\'s longest gap between ticks of a 1 ms interval timer / max of monitorEventLoopDelay({resolution: 1}).',
    'gc in gap: the garbage collector\'s pauses inside that longest gap.',
    'probe: the worst round\'s lateness of a 1 ms-period task against its schedule, every tick that fell due counted (p99 / max).');
  const missed = all.filter((v) => v.misses.length > 0);
  if (all.length > 0) lines.push('', `## Targets for fast: within ${TARGETS.maxRatioToNative}× native, at least as fast as the best peer, ` +
    `no block over ${TARGETS.maxBlockMs} ms`);
  for (const v of all) {
    const pair = `${v.workload} · ${v.shape} · ${v.approach}`;
    lines.push(v.misses.length === 0 ? `met     ${pair}` : `MISSED  ${pair}: ${v.misses.join('; ')}`);
  }
  const onlyV8 = missed.filter((v) => v.own === 0).length;
  if (all.length > 0) lines.push(`${all.length - missed.length} of ${all.length} (shape, function) pairs met every target; ${onlyV8} missed only ` +
    `where V8 sets the floor (a step it takes in one piece, its collector's pauses, or the time a sliced build must add); ` +
    `${missed.length - onlyV8} missed a target of fast's own.`);
  // The summary, when the run measured more than the shapes alone (with them only, the verdict says it all).
  if (report.results.some((result) => !detailed(result))) {
    for (const workload of ['stringify', 'parse']) if (report.results.some((r) => r.workload === workload)) lines.push(familyTable(workload, report));
    lines.push('', '>=1MB, small: the worst ratio over the family\'s documents of 1 MB and more, and over the smaller ones; ' +
      `block: the worst round's longest timer gap or delay max; FAILED: documents where the output differed from native's or the child failed.${pairedWords(report)}`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  if (!process.argv[2]) {
    console.error('usage: node js-serializers/bench/shapes-table.js results/bench/shapes-<time>.json');
    process.exit(2);
  }
  console.log(render(JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))));
}

module.exports = { render, verdicts, summarize, TARGETS };
