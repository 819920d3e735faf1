'use strict';
// The figures a benchmark reports of its repeated runs: the median (the middle run, the upper one of an even count,
// so it is always a run that happened) and the spread from the fastest to the slowest.

const median = (list) => list.slice().sort((a, b) => a - b)[list.length >> 1];
const spread = (list) => [Math.min(...list), Math.max(...list)];

/**
 * The figures of timed runs ({ms, maxGapMs} and the stats an approach adds: maxSliceMs, yields, nativeCalls): the
 * median time and its spread, the longest gap of any run, the longest slice, the median counts; null for no runs.
 */
function summarizeRuns(list) {
  if (list.length === 0) return null;
  const has = (field) => list[0][field] !== undefined;
  return {
    ms: median(list.map((r) => r.ms)),
    maxGapMs: Math.max(...list.map((r) => r.maxGapMs)),
    maxSliceMs: has('maxSliceMs') ? Math.max(...list.map((r) => r.maxSliceMs)) : undefined,
    yields: has('yields') ? median(list.map((r) => r.yields)) : undefined,
    nativeCalls: has('nativeCalls') ? median(list.map((r) => r.nativeCalls)) : undefined,
    spreadMs: spread(list.map((r) => r.ms)),
  };
}

module.exports = { median, spread, summarizeRuns };
