'use strict';
// The comparison as text, for the terminal: one line per scenario and metric, then the scenarios only one run has and
// the gate's verdict. The figures are formatted here once; compare.html uses the same functions.
const { VERDICT } = require('./compare-runs');

const formatValue = (v) => (v === null ? '-' : Number.isInteger(v) ? String(v) : v.toFixed(2));

function formatChange(change) {
  if (change === null) return '-';
  if (change === Infinity) return '+inf %';
  if (change === -Infinity) return '-inf %';
  return `${change > 0 ? '+' : ''}${(change * 100).toFixed(1)} %`;
}

function formatP(p) {
  if (p === null) return '-';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** The verdict as shown, with a mark a reader cannot miss: "▼ worse", "▲ better", and the regression that gates. */
function formatVerdict(row) {
  if (row.verdict === VERDICT.worse) return row.regression ? '▼ WORSE (regression)' : '▼ worse';
  if (row.verdict === VERDICT.better) return '▲ better';
  if (row.verdict === VERDICT.noData) return `no data (${row.samplesA}/${row.samplesB} samples)`;
  return row.verdict;
}

const formatPercent = (fraction) => `${+(fraction * 100).toFixed(2)} %`;

/** The table's rows as strings: header first. */
function tableRows(report) {
  const rows = [['scenario', 'metric', 'A', 'B', 'change', 'p-value', 'verdict']];
  for (const s of report.scenarios) {
    for (const [i, m] of s.metrics.entries()) {
      rows.push([i === 0 ? s.name : '', m.label, formatValue(m.a), formatValue(m.b), formatChange(m.change), formatP(m.p), formatVerdict(m)]);
    }
  }
  return rows;
}

function renderText(report) {
  const rows = tableRows(report);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const numeric = [false, false, true, true, true, true, false];
  const line = (r) => r.map((cell, c) => (numeric[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd();
  const out = [`A: ${report.a.id}`, `B: ${report.b.id}`, `Mann-Whitney U on per-second samples, two-sided, significant below p = ${report.alpha}; gate: significantly worse by more than ${formatPercent(report.maxRegression)}`, ''];
  out.push(line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) out.push(line(r));
  if (report.scenarios.length === 0) out.push('(no scenario in common)');
  for (const s of report.scenarios) for (const note of s.notes) out.push(`note: ${s.name}: ${note}`);
  if (report.onlyInA.length) out.push(`only in A: ${report.onlyInA.join(', ')}`);
  if (report.onlyInB.length) out.push(`only in B: ${report.onlyInB.join(', ')}`);
  out.push('');
  if (report.regressions.length === 0) out.push(`no significant regression beyond ${formatPercent(report.maxRegression)}`);
  for (const r of report.regressions) out.push(`REGRESSION: ${r.scenario} ${r.metric} ${formatChange(r.change)} (significant, beyond ${formatPercent(report.maxRegression)})`);
  return out.join('\n') + '\n';
}

module.exports = { renderText, formatValue, formatChange, formatP, formatVerdict, formatPercent };
