'use strict';
// compare.html: the comparison as one self-contained page (inline style, no script, no network), every text from the
// results escaped. Tables only: one row per scenario and metric, marked better (▲, green) or worse (▼, red) in words
// as well as colour.
const { VERDICT } = require('./compare-runs');
const { formatValue, formatChange, formatP, formatVerdict, formatPercent } = require('./text-table');

const { escapeHtml } = require('../report/html-text');

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 10px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.better td.verdict { background: #e3f6e3; color: #145214; font-weight: bold; }
tr.worse td.verdict { background: #fde8e8; color: #8a1111; font-weight: bold; }
tr.regression td { background: #fbd0d0; }
.gate { padding: 0.6em 1em; font-weight: bold; display: inline-block; }
.gate.failed { background: #fbd0d0; color: #8a1111; }
.gate.passed { background: #e3f6e3; color: #145214; }`;

const CLASS = { [VERDICT.better]: 'better', [VERDICT.worse]: 'worse', [VERDICT.same]: 'same', [VERDICT.noData]: 'nodata' };

function runCell(run) {
  const suite = run.suite ? ` (suite ${run.suite}${run.startedAt ? `, started ${run.startedAt}` : ''})` : '';
  return `${escapeHtml(run.id)}${escapeHtml(suite)}`;
}

function metricRow(scenario, row, first, rowspan) {
  const classes = [CLASS[row.verdict]].concat(row.regression ? ['regression'] : []).join(' ');
  const name = first ? `<td rowspan="${rowspan}">${escapeHtml(scenario.name)}${scenario.notes.map((n) => `<br><small>${escapeHtml(n)}</small>`).join('')}</td>` : '';
  const cells = [formatValue(row.a), formatValue(row.b), formatChange(row.change), formatP(row.p)].map((v) => `<td class="num">${escapeHtml(v)}</td>`).join('');
  return `<tr class="${classes}">${name}<td>${escapeHtml(row.label)}</td>${cells}<td>${escapeHtml(row.samplesA)} / ${escapeHtml(row.samplesB)}</td><td class="verdict">${escapeHtml(formatVerdict(row))}</td></tr>`;
}

function list(title, names) {
  if (names.length === 0) return '';
  return `<h2>${escapeHtml(title)}</h2><ul>${names.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`;
}

/** The page for compareRuns' report. */
function renderHtml(report) {
  const failed = report.regressions.length > 0;
  const gate = failed
    ? `FAILED: ${report.regressions.map((r) => `${r.scenario} ${r.metric} ${formatChange(r.change)}`).join('; ')}`
    : `passed: no significant regression beyond ${formatPercent(report.maxRegression)}`;
  const rows = report.scenarios.flatMap((s) => s.metrics.map((m, i) => metricRow(s, m, i === 0, s.metrics.length)));
  const table = rows.length
    ? `<table><thead><tr><th>scenario</th><th>metric</th><th>A</th><th>B</th><th>change B vs A</th><th>p-value</th><th>seconds A / B</th><th>verdict</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
    : '<p>No scenario in common.</p>';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>compare ${escapeHtml(report.a.id)} → ${escapeHtml(report.b.id)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>${STYLE}</style></head><body>
<h1>Run comparison</h1>
<table><tr><th>A</th><td>${runCell(report.a)}</td></tr><tr><th>B</th><td>${runCell(report.b)}</td></tr></table>
<p>Per scenario, B against A: autocannon's totals, and a two-sided Mann-Whitney U test on the per-second samples
(throughput: each second's answers; p50: each second's median; p90: each second's mean; p99: each second's p99; the server's lag: each second's longest delay). A change is significant
below p = ${escapeHtml(report.alpha)}; the gate fails on a significant change for the worse of more than ${escapeHtml(formatPercent(report.maxRegression))}.</p>
<p class="gate ${failed ? 'failed' : 'passed'}">${escapeHtml(gate)}</p>
${table}
${list('Only in A', report.onlyInA)}${list('Only in B', report.onlyInB)}
</body></html>
`;
}

module.exports = { renderHtml, escapeHtml };
