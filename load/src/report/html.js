'use strict';
// The report's HTML from its model (model.js): one self-contained page, tables written here, charts drawn in the
// browser by uPlot from the chart data embedded as JSON (browser.js). Every string from a run goes through escapeHtml
// (or safeJson inside <script>, html-text.js): suite files, /info answers and error messages are data, never markup.

const { escapeHtml, safeJson, num } = require('./html-text');
const { RANKING_HEADERS, stallCells, stallParagraph } = require('./stall-html');
const { profileSection } = require('./profile-html');
const { documentChoice } = require('./choice-html');
const { attachSection } = require('./attach-html');
const { busyWords, describeRunMachine } = require('../machine/busy-machine');

const text = (value) => (value === null || value === undefined || value === '' ? '—' : escapeHtml(value));
const verdict = (v) => `<span class="verdict ${escapeHtml(v)}">${escapeHtml(v)}</span>`;
const cell = (field, value) => `<td class="num" data-field="${field}">${num(value)}</td>`;
// A JVM row's lag is its stand-in, the wait for a handler thread: marked, and named in the cell's title.
const lagCell = (field, s, value) => (s.stall && s.stall.lagKind === 'threadWait'
  ? `<td class="num" data-field="${field}" data-lag-kind="threadWait" title="${escapeHtml(s.stall.lagFrom)}">${num(value)} <small>thread wait</small></td>`
  : cell(field, value));
const row = (label, value) => `<tr><th>${escapeHtml(label)}</th><td>${value}</td></tr>`;

const capitalized = (words) => words[0].toUpperCase() + words.slice(1);

/** The header's line on what else ran on the machine (busy-machine.js' machineBusyOfRun). */
function besideTheLab(m) {
  if (!m) return 'not watched (no Prometheus, or a driver that exports no machine figures)';
  return `${num(m.worst.elsewherePercent)} % of the machine's CPU went to processes outside the lab in the busiest scenario (${escapeHtml(m.worst.scenario)}); a scenario past ${num(m.busyLimitPercent)} % is not a verdict`;
}

/** A scenario's line on the machine beside it, and the notice when it was busy. */
function machineLine(m) {
  if (!m) return '';
  const line = `<p class="small" data-field="machineElsewherePercent" data-value="${num(m.elsewherePercent)}">Beside the lab: ${num(m.elsewherePercent)} % of the machine's ${num(m.cpus)} CPUs went elsewhere (worst second ${num(m.elsewherePeakPercent)} %), ${num(m.stealPercent)} % stolen by the hypervisor, load average up to ${num(m.load1Max)}${m.frequencyMHz ? `, CPUs at ${num(m.frequencyMHz)} MHz` : ''}.</p>`;
  return m.busy ? `${line}<p class="notice busy" data-notice="machine-busy">${escapeHtml(capitalized(busyWords(m)))}.</p>` : line;
}

function header(h) {
  const targets = h.targets.map((t) => `<tr><td>${text(t.name)}</td><td>${text(t.runtime)}${t.runtimeDetail ? `<br><small>${escapeHtml(t.runtimeDetail)}</small>` : ''}</td>
<td>${t.libraries.map(([name, version]) => `${escapeHtml(name)} ${escapeHtml(version)}`).join(', ') || (t.error ? `/info failed: ${escapeHtml(t.error)}` : '—')}</td><td>${text(t.image)}</td></tr>`).join('\n');
  const gib = h.memoryBytes === null ? '' : `, ${num(Math.round(h.memoryBytes / 2 ** 30 * 10) / 10)} GiB`;
  return `<header>
<h1>Load run <code>${escapeHtml(h.runId)}</code>: suite ${escapeHtml(h.suite)} ${verdict(h.verdict)}</h1>
${h.description ? `<p class="description">${escapeHtml(h.description)}</p>` : ''}
<table class="facts">
${row('suite', text(h.suite))}
${row('run id', text(h.runId))}
${row('started', text(h.startedAt))}
${row('ended', text(h.endedAt))}
${row('verdict', verdict(h.verdict))}
${row('machine', `${text(h.machine)}${gib}`)}
${row('CPUs', num(h.cpus))}
${row('load driver Node', text(h.loadDriverNode))}
${row('load driver CPUs', text(h.loadDriverCpus))}
${row('git commit', h.commit ? `<code>${escapeHtml(h.commit)}</code>` : '—')}
${row('Prometheus', h.prometheus ? escapeHtml(h.prometheus) : 'none (no server series)')}
${row('beside the lab', besideTheLab(h.machineBusy))}
${row('images', h.images.length ? h.images.map(([name, image]) => `${escapeHtml(name)}: <code>${escapeHtml(image)}</code>`).join(', ') : 'none recorded (a native run)')}
</table>
${h.machineBusy && h.machineBusy.busy ? `<p class="notice busy" data-notice="machine-busy">${escapeHtml(`${capitalized(describeRunMachine(h.machineBusy))}.`)}</p>` : ''}
<h2>Targets</h2>
<table><thead><tr><th>target</th><th>runtime</th><th>libraries (from /info)</th><th>image</th></tr></thead>
<tbody>
${targets}
</tbody></table>
</header>`;
}

/**
 * The ranking tables (and the scenarios not ranked); href(section) is where a scenario's name links: its section of
 * the report, or (the live page, before any report exists) its result file.
 */
function ranking(groups, unranked, href = (s) => `#${s.id}`) {
  const tables = groups.map((g) => `<h3>${escapeHtml(g.target)} · ${escapeHtml(g.workload)}</h3>
<table class="ranking" data-target="${escapeHtml(g.target)}" data-workload="${escapeHtml(g.workload)}">
<thead><tr><th>#</th><th>approach</th><th>scenario</th><th>requests/s</th><th>p50 ms</th><th>p99 ms</th><th>server lag p99 peak ms</th><th>server lag max peak ms</th>${RANKING_HEADERS}<th>verdict</th></tr></thead>
<tbody>
${g.rows.map((s, i) => `<tr data-scenario="${escapeHtml(s.name)}"><td>${i + 1}</td><td>${text(s.approach)}</td><td><a href="${escapeHtml(href(s))}">${escapeHtml(s.name)}</a></td>
${cell('requestsPerSecond', s.numbers.requestsPerSecond)}${cell('latencyP50Ms', s.numbers.latencyP50Ms)}${cell('latencyP99Ms', s.numbers.latencyP99Ms)}${lagCell('serverLagP99PeakMs', s, s.serverLagP99PeakMs)}${lagCell('serverLagMaxPeakMs', s, s.serverLagMaxPeakMs)}${s.stall ? stallCells(s.stall) : '<td>—</td><td>—</td><td>—</td>'}
<td>${verdict(s.verdict)}${s.flags.length ? ' <span class="flag-mark" title="flagged">⚑ flagged</span>' : ''}</td></tr>`).join('\n')}
</tbody></table>`).join('\n');
  const others = unranked.length ? `<p>Not ranked (not a <code>/run</code> workload): ${unranked.map((s) => `<a href="${escapeHtml(href(s))}">${escapeHtml(s.name)}</a>`).join(', ')}.</p>` : '';
  return `<section id="summary"><h2>Approaches ranked by requests/s, per target and workload</h2>
${tables || '<p>No /run scenarios in this run.</p>'}
${others}</section>`;
}

function thresholds(list) {
  if (list.length === 0) return '<p>No thresholds.</p>';
  const status = (t) => (t.passed === true ? '<span class="ok">passed</span>' : t.passed === false ? '<span class="bad">FAILED</span>' : `<span class="na">not evaluated: ${escapeHtml(t.why || 'no value')}</span>`);
  return `<table class="thresholds"><thead><tr><th>threshold</th><th>limits</th><th>limit</th><th>actual</th><th>result</th></tr></thead><tbody>
${list.map((t) => `<tr data-threshold="${escapeHtml(t.name)}"><td><code>${escapeHtml(t.name)}</code></td><td>${escapeHtml(t.description)}</td><td class="num">${t.bound === 'min' ? '≥' : '≤'} ${num(t.limit)}</td><td class="num">${num(t.actual)}</td><td>${status(t)}</td></tr>`).join('\n')}
</tbody></table>`;
}

function checksOfClient(s) {
  const d = s.driver;
  const l = s.littlesLaw;
  const flags = s.flags.length ? `<ul class="flags">${s.flags.map((f) => `<li>⚑ ${escapeHtml(f)}</li>`).join('')}</ul>` : '<p class="ok">Not flagged: the driver kept up and Little\'s law holds (or could not be checked).</p>';
  const driver = d ? `driver event-loop lag p99 ${num(d.eventLoopLagP99Ms)} ms (limit ${num(d.limits && d.limits.eventLoopLagP99Ms)}), max ${num(d.eventLoopLagMaxMs)} ms; CPU ${num(d.cpuBusy)} of a core (limit ${num(d.limits && d.limits.cpuBusy)}); saturated: ${d.saturated ? '<span class="bad">yes</span>' : 'no'}` : 'not recorded';
  const little = l ? `${num(l.connections)} connections vs ${num(l.requestsPerSecond)} req/s × ${num(l.latencyMeanMs)} ms = ${num(l.inFlight)} in flight (ratio ${num(l.ratio)}, tolerance ${num(l.tolerance)}): ${l.holds === true ? 'holds' : l.holds === false ? '<span class="bad">broken</span>' : 'not checked'}` : 'not recorded';
  return `${flags}<p class="small">Client: ${driver}.<br>Little's law: ${little}.</p>`;
}

/**
 * An open loop's line (open-loop.js): its schedule, and its latency from each request's intended send time (the
 * table's) beside the latency from the actual send, which is what a closed loop would have reported of the same answers.
 */
function openLoopLine(o) {
  if (!o) return '';
  const pair = (k) => `${num(o.latencyFromIntendedMs[k])} / ${num(o.latencyFromSendMs[k])}`;
  return `<p class="small" data-open-loop="${num(o.arrivalRate)}">Open loop: ${num(o.arrivalRate)} requests a second on a fixed schedule, ${num(o.sent)} of ${num(o.intended)} sent (${num(o.sentLate)} late). Latency from the intended send time / from the actual send, ms: p50 ${pair('p50')}, p99 <span data-field="openLoopP99">${pair('p99')}</span>, max ${pair('max')}. The table's latency is the first: the wait a blocked server causes is counted, not omitted.</p>`;
}

function scenario(s) {
  const n = s.numbers;
  const p = s.probe;
  const probe = p ? `<tr><th>probe <code>${escapeHtml(p.path)}</code> at ${num(p.ratePerSecond)}/s</th>${cell('probeRequests', p.requests)}<td>—</td>
${['p50', 'p90', 'p99', 'max'].map((k) => cell(`probe${k[0].toUpperCase()}${k.slice(1)}Ms`, p.latencyMs ? p.latencyMs[k] : null)).join('')}${cell('probeErrors', p.errors)}${cell('probeNon2xx', p.non2xx)}<td>—</td></tr>` : '';
  const charts = s.charts.map((c) => `<figure><figcaption>${escapeHtml(c.title)}</figcaption><div class="chart" data-chart="${s.id}-${c.kind}"></div></figure>`).join('');
  return `<section class="scenario" id="${s.id}" data-scenario="${escapeHtml(s.name)}">
<h2>${escapeHtml(s.name)} ${verdict(s.verdict)}${s.flags.length ? ' <span class="flag-mark">⚑ flagged</span>' : ''}</h2>
<p><code>${escapeHtml(s.request)}</code> on ${escapeHtml(s.target)}, ${num(s.connections)} connections, ${escapeHtml(s.window.startedAt)} – ${escapeHtml(s.window.endedAt)}</p>
${s.problems.length ? `<ul class="problems">${s.problems.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>` : ''}
<table class="numbers"><thead><tr><th></th><th>requests</th><th>requests/s</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th><th>errors</th><th>non-2xx</th><th>invalid</th></tr></thead><tbody>
<tr><th>client</th>${cell('requests', n.requests)}${cell('requestsPerSecond', n.requestsPerSecond)}${cell('latencyP50Ms', n.latencyP50Ms)}${cell('latencyP90Ms', n.latencyP90Ms)}${cell('latencyP99Ms', n.latencyP99Ms)}${cell('latencyMaxMs', n.latencyMaxMs)}${cell('errors', n.errors)}${cell('non2xx', n.non2xx)}${cell('invalid', n.invalid)}</tr>
${probe}
</tbody></table>
${machineLine(s.machineBusy)}
${openLoopLine(s.openLoop)}${s.warmup ? `<p class="small">Warm-up before the window: ${num(s.warmup.seconds)} s, ${num(s.warmup.requests)} requests, kept out of every figure.</p>` : ''}
${stallParagraph(s.target, s.stall)}
${profileSection(s.profile, s.name)}
<h3>Thresholds</h3>
${thresholds(s.thresholds)}
<h3>Is the client the bottleneck?</h3>
${checksOfClient(s)}
${s.serverNotice ? `<p class="notice" data-notice="server">${escapeHtml(s.serverNotice)}</p>` : ''}
<div class="charts">${charts}</div>
</section>`;
}

/** The whole page: model from model.js, assets {uplotJs, uplotCss, browserJs, css} inlined. */
function renderHtml(model, assets) {
  for (const [name, source] of Object.entries(assets)) {
    if (/<\/(script|style)/i.test(source)) throw new Error(`${name} cannot be inlined: it contains a closing </script> or </style>`);
  }
  const charts = model.sections.flatMap((s) => s.charts.map((c) => ({ id: `${s.id}-${c.kind}`, section: s.id, scenario: s.name, kind: c.kind, series: c.series, data: c.data, range: c.range })));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${model.header.suite} ${model.header.runId}: ${model.header.verdict}`)}</title>
<style>${assets.uplotCss}</style>
<style>${assets.css}</style>
</head>
<body>
${header(model.header)}
<main>
${model.choice ? documentChoice(model.choice, model.document) : ''}
${model.attachVerdict ? attachSection(model.attachVerdict) : ''}
${ranking(model.ranking, model.unranked)}
${model.sections.map(scenario).join('\n')}
</main>
<script type="application/json" id="report-data">${safeJson({ charts })}</script>
<script>${assets.uplotJs}</script>
<script>${assets.browserJs}</script>
</body>
</html>
`;
}

module.exports = { renderHtml, ranking };
