'use strict';
// The two-sided Mann-Whitney U test (Wilcoxon rank-sum) that `make compare` runs on two runs' per-second samples.
//
// Why this test and not a bootstrap CI of the median difference: per-second samples are few (a 6 s scenario gives 6),
// skewed and spiky (a GC pause or a blocked second), and often tied (whole request counts). The U test assumes no
// distribution, is not pulled by one wild second, is exact for the sample sizes a scenario has, and is deterministic:
// the same two runs always get the same p-value, so a gate in CI cannot flip on a resampling seed, and with 6 seconds
// a bootstrap would only resample the same handful of values.
//
// Small samples (EXACT_MAX_SAMPLES or fewer in all) get the exact permutation distribution of the rank sum, computed
// with mid-ranks so ties are exact too (conditional on the tie pattern, as StatXact and R's coin do); larger ones the
// normal approximation with the tie correction of the variance and a continuity correction (R's wilcox.test, exact =
// FALSE, correct = TRUE). Two-sided p: twice the smaller tail, at most 1.

// Up to 60 samples in all (two 30 s scenarios) the exact distribution costs a few million additions; beyond, the normal
// approximation is already within a few thousandths of it.
const EXACT_MAX_SAMPLES = 60;

/** Complementary error function, Numerical Recipes' erfcc (Chebyshev fit, fractional error below 1.2e-7). */
function erfc(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const r = t * Math.exp(-z * z + poly);
  return x >= 0 ? r : 2 - r;
}

/** The standard normal distribution function. */
const normalCdf = (z) => 0.5 * erfc(-z / Math.SQRT2);

/** Mid-ranks (1-based) of values, in their order, and the sizes of the groups of ties. */
function midRanks(values) {
  const order = values.map((v, i) => i).sort((i, j) => values[i] - values[j]);
  const ranks = new Array(values.length);
  const ties = [];
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1]] === values[order[start]]) end++;
    const rank = (start + end + 2) / 2; // mean of the 1-based ranks start+1 .. end+1
    for (let k = start; k <= end; k++) ranks[order[k]] = rank;
    ties.push(end - start + 1);
    start = end + 1;
  }
  return { ranks, ties };
}

/**
 * Exact two-sided p-value of rank sum `sum` of n1 samples among the given mid-ranks: the share of the C(N, n1) ways to
 * pick n1 ranks whose sum is as far out in either tail, doubled. Mid-ranks are whole or halves, so the sums are counted
 * doubled, as integers.
 */
function exactP(ranks, n1, sum) {
  const doubled = ranks.map((r) => Math.round(2 * r));
  const maxSum = doubled.reduce((s, r) => s + r, 0);
  // counts[k * (maxSum + 1) + s]: ways to pick k of the ranks seen so far with doubled sum s
  const width = maxSum + 1;
  const counts = new Float64Array((n1 + 1) * width);
  counts[0] = 1;
  for (const r of doubled) {
    for (let k = n1; k >= 1; k--) {
      const to = k * width;
      const from = (k - 1) * width;
      for (let s = maxSum; s >= r; s--) counts[to + s] += counts[from + s - r];
    }
  }
  const observed = Math.round(2 * sum);
  let total = 0;
  let lower = 0;
  let upper = 0;
  for (let s = 0; s <= maxSum; s++) {
    const c = counts[n1 * width + s];
    total += c;
    if (s <= observed) lower += c;
    if (s >= observed) upper += c;
  }
  return Math.min(1, (2 * Math.min(lower, upper)) / total);
}

/** Normal approximation of the two-sided p-value, with the tie correction and a continuity correction. */
function normalP(n1, n2, sum, ties) {
  const n = n1 + n2;
  const mean = (n1 * (n + 1)) / 2;
  const tieTerm = ties.reduce((s, t) => s + (t * t * t - t), 0) / (n * (n - 1));
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm));
  const distance = Math.max(0, Math.abs(sum - mean) - 0.5);
  return Math.min(1, erfc(distance / sd / Math.SQRT2));
}

function checkSample(values, name) {
  if (!Array.isArray(values) || values.length === 0) throw new TypeError(`${name} must be a non-empty array of numbers`);
  const bad = values.find((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad !== undefined) throw new TypeError(`${name} holds ${bad}: every sample must be a finite number`);
}

/**
 * Two-sided Mann-Whitney U test of samples a and b (arrays of finite numbers, at least one each).
 * Returns {uA, uB, p, method ("exact" | "normal"), direction}: uB counts the pairs where b's value is the larger (ties
 * half), uA the others; direction is 1 when b tends to be larger, -1 smaller, 0 neither.
 */
function mannWhitney(a, b) {
  checkSample(a, 'a');
  checkSample(b, 'b');
  const n1 = a.length;
  const n2 = b.length;
  const { ranks, ties } = midRanks(a.concat(b));
  let sum = 0; // rank sum of a
  for (let i = 0; i < n1; i++) sum += ranks[i];
  const uA = sum - (n1 * (n1 + 1)) / 2;
  const uB = n1 * n2 - uA;
  const direction = Math.sign(uB - uA);
  if (ties.length === 1) return { uA, uB, p: 1, method: 'exact', direction }; // every sample the same value
  const exact = n1 + n2 <= EXACT_MAX_SAMPLES;
  const p = exact ? exactP(ranks, n1, sum) : normalP(n1, n2, sum, ties);
  return { uA, uB, p, method: exact ? 'exact' : 'normal', direction };
}

module.exports = { mannWhitney, normalCdf, erfc, midRanks, EXACT_MAX_SAMPLES };
