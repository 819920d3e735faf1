'use strict';
// The matrix's one page (matrix.html beside matrix.json): per runtime, a chart per workload with the versions on one
// axis, then the table of every scenario: each version's median and spread over its repeats, and its change against
// the pinned version with the corrected p-value and verdict. The count of comparisons and of false positives expected
// without the correction is printed above the tables. Offline: no script, no request.
const { escapeHtml } = require('../report/html-text');
const { lineChart, fmt } = require('./chart-svg');
const { formatChange, formatP } = require('../compare/text-table');

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const RUNTIME_NAMES = { node: 'Node', java: 'Java' };
const spread = (s) => (s ? `${fmt(s.median)} <small>(${fmt(s.min)}–${fmt(s.max)})</small>` : '—');

/** The figure a workload's chart draws: the service's time of one run where its answers report one, else throughput. */
function chartFigure(scenarios) {
  return scenarios.some((s) => Object.values(s.byLine).some((c) => c.runMeanMs)) ? { key: 'runMeanMs', label: 'ms per run (median)' } : { key: 'requestsPerSecond', label: 'requests/s (median)' };
}

/** A scenario's line in its workload's chart: its name without the target and workload it shares with the others. */
function seriesLabel(s) {
  const prefix = `${s.target}-${s.workload ? `${s.workload}-` : ''}`;
  return s.name.startsWith(prefix) ? s.name.slice(prefix.length) : s.name;
}

function charts(runtime) {
  const byWorkload = new Map();
  for (const s of runtime.scenarios) {
    const workload = s.workload || 'other';
    if (!byWorkload.has(workload)) byWorkload.set(workload, []);
    byWorkload.get(workload).push(s);
  }
  const xs = runtime.lines.map((line) => `${RUNTIME_NAMES[runtime.runtime]} ${line}`);
  return [...byWorkload].map(([workload, scenarios]) => {
    const figure = chartFigure(scenarios);
    const series = scenarios.map((s) => ({ label: seriesLabel(s), points: runtime.lines.map((line) => s.byLine[line][figure.key] || null) }));
    const title = `${runtime.runtime} · ${workload}: ${figure.label}`;
    return `<figure data-workload="${escapeHtml(workload)}"><figcaption>${escapeHtml(title)}</figcaption>${lineChart({ title, xs, series, yLabel: figure.label, pinnedIndex: runtime.lines.indexOf(runtime.pinned) })}</figure>`;
  }).join('\n');
}

function table(runtime) {
  const others = runtime.lines.filter((l) => l !== runtime.pinned);
  const head = `<tr><th>scenario</th><th>figure</th>${runtime.lines.map((l) => `<th>${RUNTIME_NAMES[runtime.runtime]} ${escapeHtml(l)}${l === runtime.pinned ? ' (pinned)' : ''}<br><small>${escapeHtml(runtime.versions[l] || '')}</small></th>`).join('')}</tr>`;
  const rows = [];
  for (const s of runtime.scenarios) {
    const figures = [['runMeanMs', 'ms per run'], ['requestsPerSecond', 'requests/s'], ['longestBlockMs', 'longest block ms'], ['probeP99Ms', 'probe p99 ms']];
    figures.forEach(([key, label], i) => {
      const cells = runtime.lines.map((l) => {
        const cell = s.byLine[l];
        const missing = !cell[key] && cell.problems.length ? ` title="${escapeHtml(cell.problems.join('; '))}"` : '';
        return `<td${missing}>${cell.passedRepeats === 0 && cell.problems.length ? `<span class="cannot">could not run: ${escapeHtml(cell.problems[0])}</span>` : spread(cell[key])}</td>`;
      });
      rows.push(`<tr data-scenario="${escapeHtml(s.name)}" data-figure="${key}">${i === 0 ? `<th rowspan="${figures.length + others.length}">${escapeHtml(s.name)}</th>` : ''}<td>${label}</td>${cells.join('')}</tr>`);
    });
    for (const line of others) {
      const tested = s.changes[line].map((c) => `${escapeHtml(c.label)} ${c.change === null ? '—' : formatChange(c.change)} (p ${formatP(c.pAdjusted === undefined ? null : c.pAdjusted)}): <b class="${c.verdict.replace(/ /g, '-')}">${escapeHtml(c.verdict)}</b>`).join('; ');
      rows.push(`<tr data-scenario="${escapeHtml(s.name)}" data-change="${escapeHtml(line)}"><td>${RUNTIME_NAMES[runtime.runtime]} ${escapeHtml(line)} against ${escapeHtml(runtime.pinned)}</td><td colspan="${runtime.lines.length}">${tested}</td></tr>`);
    }
  }
  return `<table>${head}${rows.join('\n')}</table>`;
}

/** The page for an aggregate (aggregate.js) of a matrix (readMatrix's). */
function renderMatrixHtml(matrix, report) {
  const s = matrix.settings;
  const sections = report.runtimes.map((r) => {
    const failed = r.failedSteps.length ? `<ul class="failed">${r.failedSteps.map((f) => `<li>${escapeHtml(f.id)}: ${escapeHtml(f.error)}</li>`).join('')}</ul>` : '';
    return `<section data-runtime="${r.runtime}"><h2>${RUNTIME_NAMES[r.runtime]}: ${r.lines.map(escapeHtml).join(', ')} (against ${escapeHtml(r.pinned)})</h2>${failed}<div class="charts">${charts(r)}</div>${table(r)}</section>`;
  });
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${POLICY}"><title>Runtime-version matrix</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5em;max-width:90em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:0.2em 0.5em;text-align:left;vertical-align:top}small{color:#555}.charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}figcaption{font-weight:bold}.worse{color:#b00020}.better{color:#0a7d28}.cannot{color:#b00020}.failed{color:#b00020}</style>
</head><body>
<h1>Runtime-version matrix: suite ${escapeHtml(s.suite)}, ${s.repeats} repeat${s.repeats === 1 ? '' : 's'}</h1>
<p id="matrix-facts">Steps ran interleaved (every version once, then again), ${escapeHtml(matrix.startedAt || '')} to ${escapeHtml(matrix.endedAt || '')}. Each figure is the median of the repeats that passed, with the fastest and slowest repeat. Changes are tested against the pinned version with the Mann-Whitney U test on every second of every repeat pooled: <span id="comparisons">${report.comparisons}</span> comparisons, corrected together (${report.correction}, family-wise α = ${report.alpha}); without a correction about <span id="expected-false">${report.expectedFalsePositives.toFixed(1)}</span> of them would be "significant" by chance alone.</p>
${sections.join('\n')}
</body></html>
`;
}

module.exports = { renderMatrixHtml, chartFigure };
