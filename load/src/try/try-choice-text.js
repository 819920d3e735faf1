'use strict';
// The choice of approaches (try-choice.js) as lines of text for a terminal (`make try`, scripts/try.js): how the
// approaches were run and compared, then per service and workload the pick and why, and a table of every approach with
// its figures over the rounds.
const { pFigure } = require('./try-compare');

const cell = (v) => (v === null || v === undefined ? '-' : String(v));

/** The lines of choice ({blockMs, rounds, alpha, groups}). */
function describeChoice(choice) {
  const rounds = choice.rounds || 1;
  const lines = [
    `each approach ran in ${rounds} interleaved round${rounds === 1 ? '' : 's'}; its figures are its median round's block and the median of its rounds' times a run; ` +
      `p: Mann-Whitney on the runs' times pooled over the rounds, against the pick (at p >= ${choice.alpha} two approaches are indistinguishable)`,
  ];
  for (const g of choice.groups) {
    lines.push(`${g.target} · ${g.workload}: pick ${g.pick || 'NONE'} — ${g.reason}`);
    const p = (approach) => (g.comparisons || []).find((c) => c.approach === approach);
    const header = ['approach', 'ms/run', 'ms/run by round', 'runs', 'probe p99 ms', 'longest block ms', 'waiting ms', 'own block ms', 'collector ms', 'held ms by round', 'server lag max ms', 'p vs pick', 'verdict'];
    const rows = [header].concat(g.rows.map((r) => {
      const marks = [r.approach === g.pick ? 'PICK' : null, r.approach === g.fastest ? 'fastest' : null, r.approach === g.lowestProbe ? 'lowest probe' : null, r.approach === g.shortestBlock ? 'shortest block' : null].filter(Boolean);
      const verdict = r.passed ? marks.join(', ') || 'ok' : `FAILED: ${r.problems.join('; ')}`;
      const byRound = (field) => (r.rounds || []).map((x) => cell(x[field])).join(' / ');
      const compared = p(r.approach);
      return [r.approach, cell(r.runMeanMs), byRound('runMeanMs'), cell(r.runs), cell(r.probeP99Ms), cell(r.longestBlockMs), cell(r.longestBlockWaitMs), cell(r.ownBlockMs), cell(r.collectorMs), byRound('accountableMs'), cell(r.serverLagMaxMs), compared ? pFigure(compared.p) : '-', verdict];
    }));
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    const last = rows[0].length - 1;
    for (const r of rows) lines.push(`  ${r.map((c, i) => (i === last ? c : i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`);
  }
  return lines;
}

module.exports = { describeChoice };
