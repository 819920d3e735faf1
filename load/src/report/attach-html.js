'use strict';
// The top of an attach run's report (a service the lab did not write, make attach): the verdict in its sentences
// (attach/attach-verdict.js), then every load with what a client felt and what the event loop did, the load the loop
// starts to block at marked. The scenarios' own sections below hold the charts, the profiles and their flame graphs.
// Strings go through escapeHtml like the rest of the page.
const { escapeHtml, num } = require('./html-text');

function loadRow(l, verdict) {
  const load = l.loop === 'open' ? `open loop, ${num(l.arrivalRate)}/s (${num(l.arrivalFrom ? l.arrivalFrom.share * 100 : null)} % of saturation)` : `closed loop, ${num(l.connections)} connection${l.connections === 1 ? '' : 's'}`;
  const mark = verdict.blocksFrom && verdict.blocksFrom.name === l.name ? ' class="blocks-from"' : '';
  return `<tr data-load="${escapeHtml(l.name)}"${mark}><td>${escapeHtml(l.name)}</td><td>${escapeHtml(load)}</td>
<td class="num">${num(l.requestsPerSecond)}</td><td class="num">${num(l.latencyP99Ms)}</td><td class="num">${num(l.probeP99Ms)}</td><td class="num">${num(l.lagP99Ms)}</td><td class="num">${num(l.lagMaxMs)}</td><td class="num">${num(l.elu)}</td><td class="num">${num(l.gcPauseMaxMs)}</td>
<td>${l.passed ? 'passed' : `<span class="bad">FAILED</span>: ${escapeHtml(l.problems.join('; '))}`}${l.machineBusy && l.machineBusy.busy ? ' <span class="bad">machine busy: not a verdict</span>' : ''}</td></tr>`;
}

/** The section for an attach run's verdict (run.json's attachVerdict, made again from the scenario files). */
function attachSection(verdict) {
  return `<section id="attach-verdict" data-agent="${escapeHtml(verdict.agent || 'none')}"${verdict.blocksFrom ? ` data-blocks-from="${escapeHtml(verdict.blocksFrom.name)}"` : ''}>
<h2>Your service at <code>${escapeHtml(verdict.url)}</code></h2>
<ul class="attach-lines">${verdict.lines.filter((line) => !line.startsWith('  ')).map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
${verdict.longest && verdict.longest.stacks.length ? `<p>What ran in the longest block (${num(verdict.longest.ms)} ms, ${escapeHtml(verdict.longest.name)}), heaviest first:</p>
<ol class="stacks">${verdict.longest.stacks.map((s) => `<li><code>${escapeHtml(s.stack.join(' > '))}</code> <span class="small">${num(Math.round(s.share * 100))} %</span></li>`).join('')}</ol>` : ''}
<table class="attach"><thead><tr><th>scenario</th><th>load</th><th>req/s</th><th>p99 ms</th><th>probe p99 ms</th><th>lag p99 ms (worst second)</th><th>lag max ms (worst second)</th><th>ELU</th><th>longest GC pause ms</th><th></th></tr></thead>
<tbody>
${verdict.loads.map((l) => loadRow(l, verdict)).join('\n')}
</tbody></table>
</section>`;
}

module.exports = { attachSection };
