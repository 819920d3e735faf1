'use strict';
// The wasm-transfer experiment's figures over a run's per-op times: avg, median, min and p95 (nearest rank), in ms.

const { round: roundTo } = require('@lab/node-kit');

// One op can take well under a microsecond: its figures keep 6 digits.
const round = (ms) => roundTo(ms, 6);

/** times: a Float64Array of per-op ms, of which the first n count. Returns {avgMs, medianMs, minMs, p95Ms} (null if n is 0). */
function summarize(times, n) {
  if (n === 0) return { avgMs: null, medianMs: null, minMs: null, p95Ms: null };
  const sorted = times.slice(0, n).sort(); // a typed array sorts numerically
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  const middle = n >> 1;
  return {
    avgMs: round(sum / n),
    medianMs: round(n % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2),
    minMs: round(sorted[0]),
    p95Ms: round(sorted[Math.ceil(0.95 * n) - 1]),
  };
}

module.exports = { summarize };
