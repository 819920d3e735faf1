#!/usr/bin/env node
'use strict';
// `make matrix-report DIR=results/matrix-<time>`: the matrix across versions from its recorded runs, written beside
// them (matrix-report.json, the aggregate; matrix.html, the page) and printed as a table. docker/matrix.js calls
// report() at its end; this reruns it on a matrix folder, with nothing built or run.
//   node load/src/matrix/matrix-report.js <matrix folder>
const fs = require('node:fs');
const path = require('node:path');
const { readMatrix } = require('./read-matrix');
const { aggregate } = require('./aggregate');
const { renderMatrixHtml, chartFigure } = require('./html');
const { markdownTable } = require('@lab/bench-kit/table');
const { formatChange, formatP } = require('../compare/text-table');

const fmt = (s) => (s ? (s.median >= 100 ? s.median.toFixed(0) : s.median.toFixed(2)) : '—');

/** The table a terminal shows: per scenario, each version's ms per run (or requests/s) and the verdicts. */
function textOf(report) {
  const out = [`${report.comparisons} comparisons against the pinned versions, ${report.correction}-corrected at α = ${report.alpha} (about ${report.expectedFalsePositives.toFixed(1)} false positives expected without a correction)`];
  for (const r of report.runtimes) {
    out.push('', `## ${r.runtime}: ${r.lines.join(', ')} (pinned ${r.pinned})`);
    for (const f of r.failedSteps) out.push(`could not run ${f.id}: ${f.error}`);
    const rows = r.scenarios.map((s) => {
      const { key } = chartFigure([s]);
      const verdicts = r.lines.filter((l) => l !== r.pinned).map((l) => `${l}: ${s.changes[l].map((c) => `${c.label} ${c.change === null ? '—' : formatChange(c.change)} p ${formatP(c.pAdjusted === undefined ? null : c.pAdjusted)} ${c.verdict}`).join(', ')}`);
      return [s.name, key === 'runMeanMs' ? 'ms/run' : 'req/s'].concat(r.lines.map((l) => fmt(s.byLine[l][key]))).concat([verdicts.join(' | ')]);
    });
    const headers = ['scenario', 'figure'].concat(r.lines.map((l) => `${r.runtime} ${l}`)).concat(['against the pinned version']);
    out.push(markdownTable(headers, rows, { right: r.lines.map((l) => `${r.runtime} ${l}`) }));
    // A scenario a version could not run (a runtime without a function it calls, say): its dash in the table, and why.
    for (const s of r.scenarios) {
      for (const l of r.lines) {
        const cell = s.byLine[l];
        const stepsFailed = cell.problems.every((p) => r.failedSteps.some((f) => p.startsWith(`${f.id}: `))); // said above
        if (cell.passedRepeats === 0 && cell.problems.length > 0 && !stepsFailed) out.push(`could not run ${s.name} on ${r.runtime} ${l}: ${cell.problems[0]}`);
      }
    }
  }
  return out.join('\n');
}

/** Reads the matrix folder, writes matrix-report.json and matrix.html into it; returns {report, text, html}. */
function report(dir) {
  const matrix = readMatrix(dir);
  const aggregated = aggregate(matrix);
  const html = path.join(dir, 'matrix.html');
  fs.writeFileSync(path.join(dir, 'matrix-report.json'), `${JSON.stringify(aggregated, null, 2)}\n`);
  fs.writeFileSync(html, renderMatrixHtml(matrix, aggregated));
  return { report: aggregated, text: textOf(aggregated), html };
}

if (require.main === module) {
  const [dir] = process.argv.slice(2);
  try {
    if (!dir) throw new Error('usage: matrix-report.js <matrix folder> (results/matrix-<time>)');
    const { text, html } = report(path.resolve(dir));
    console.log(text);
    console.log(`\nmatrix.html: ${html}`);
  } catch (err) {
    console.error(`matrix-report: ${err.message}`);
    process.exit(2);
  }
}

module.exports = { report, textOf };
