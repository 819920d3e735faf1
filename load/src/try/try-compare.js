'use strict';
// Whether the pick's lead is real (try-choice.js): the candidates (the approaches whose block stays under the limit)
// compared with the lab's Mann-Whitney U test (compare/mann-whitney.js) on their runs' own times, pooled over the rounds
// (try-rounds.js). When the fastest candidate cannot be told apart from another (p >= ALPHA), speed decides nothing
// between them and the simpler one is the pick: native, one call of the runtime's own, before any other; the others in
// the order the service lists them, a stated tie-break rather than a judgement of their code.
//
// The runs of one round are not independent draws (they share the round's machine), so with hundreds of them a
// difference of a few percent already reads as significant: p < ALPHA says "faster in this run", not "faster
// everywhere". What the test guards against is the opposite mistake, picking on a lead the noise could have made.
const { mannWhitney } = require('../compare/mann-whitney');

// Below this p-value two approaches' run times are told apart.
const ALPHA = 0.05;
const SIMPLEST = 'native';

/** The two-sided p-value of a's runs against b's, and whether b's tend to be slower; null where either has none. */
function compareRuns(a, b) {
  if (a.runMsSamples.length === 0 || b.runMsSamples.length === 0) return null;
  const { p, direction } = mannWhitney(a.runMsSamples, b.runMsSamples);
  return { p, slower: direction > 0 };
}

/** The simplest of some of rows: native, else the first of them in the service's order (rows' own). */
const simplest = (some, rows) => some.find((r) => r.approach === SIMPLEST) || rows.find((r) => some.includes(r));

/**
 * Settles the pick among candidates (the passed rows under the limit) of a group's rows. Returns {fastest (the fastest
 * candidate's row, or null), pick (a row, or null), tied (the candidates' rows the fastest cannot be told from, itself
 * first, by time), comparedWith (the comparison the reason leans on: {approach, p, tied}, or null), comparisons
 * ([{approach, p, slower}]: every other passed row against the pick, where both have run times)}.
 */
function settle(candidates, rows) {
  const byTime = candidates.slice().sort((a, b) => a.runMeanMs - b.runMeanMs);
  const fastest = byTime[0] || null;
  if (!fastest) return { fastest: null, pick: null, tied: [], comparedWith: null, comparisons: [] };
  const tied = byTime.filter((r) => {
    if (r === fastest) return true;
    const c = compareRuns(fastest, r);
    return c !== null && c.p >= ALPHA;
  });
  const pick = simplest(tied, rows);
  const comparisons = rows.filter((r) => r !== pick && r.passed).map((r) => Object.assign({ approach: r.approach }, compareRuns(pick, r))).filter((c) => typeof c.p === 'number');
  const pOf = (row) => (comparisons.find((c) => c.approach === row.approach) || { p: null }).p;
  // What the reason leans on: the fastest a simpler one was preferred to; else the next indistinguishable one; else
  // the next candidate by time, which the pick beat.
  const other = pick !== fastest ? fastest : tied.length > 1 ? tied[1] : byTime[1];
  const comparedWith = other && typeof pOf(other) === 'number' ? { approach: other.approach, p: pOf(other), tied: tied.includes(other) } : null;
  return { fastest, pick, tied, comparedWith, comparisons };
}

/** A p-value as shown: two significant digits, and below 0.001 as such ('<0.001'). */
const pFigure = (p) => (p < 0.001 ? '<0.001' : String(Number(p.toPrecision(2))));
/** A p-value in words: 'p = 0.41', 'p < 0.001'. */
const pWords = (p) => (p < 0.001 ? 'p < 0.001' : `p = ${pFigure(p)}`);

module.exports = { settle, compareRuns, pFigure, pWords, ALPHA, SIMPLEST };
