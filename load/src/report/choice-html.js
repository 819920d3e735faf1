'use strict';
// The top of a try run's report (a user's document through every approach): per service and workload, the approach
// to pick and why, then every approach with the figures the choice was made on over its rounds (try-choice.js), and
// its p-value against the pick, a failed one marked as such. Strings go through escapeHtml like the rest of the page (html.js, which requires this file when it renders).
const { escapeHtml, num } = require('./html-text');
const { pFigure } = require('../try/try-compare');

/** A p-value as a data attribute: the number itself, or nothing. */
const pAttribute = (comparison) => (comparison && typeof comparison.p === 'number' ? ` data-p="${comparison.p}"` : '');

function groupTable(g) {
  const mark = (r) => [r.approach === g.pick ? 'pick' : null, r.approach === g.fastest ? 'fastest' : null, r.approach === g.lowestProbe ? 'lowest probe p99' : null, r.approach === g.shortestBlock ? 'shortest block' : null].filter(Boolean).join(', ');
  const compared = (approach) => (g.comparisons || []).find((c) => c.approach === approach);
  const byRound = (r, field) => (r.rounds || []).map((x) => num(x[field])).join(' / ');
  const rows = g.rows.map((r) => `<tr data-approach="${escapeHtml(r.approach)}" data-rounds="${(r.rounds || []).length}"${pAttribute(compared(r.approach))}${r.approach === g.pick ? ' class="pick"' : ''}><td>${escapeHtml(r.approach)}</td>
<td class="num">${num(r.runMeanMs)}</td><td class="num">${byRound(r, 'runMeanMs')}</td><td class="num">${num(r.runs)}</td><td class="num">${num(r.probeP99Ms)}</td><td class="num">${num(r.longestBlockMs)}</td><td class="num">${num(r.longestBlockWaitMs)}</td><td class="num">${num(r.ownBlockMs)}</td><td class="num">${num(r.collectorMs)}</td><td class="num">${byRound(r, 'accountableMs')}</td><td class="num">${num(r.serverLagMaxMs)}</td><td class="num">${compared(r.approach) ? escapeHtml(pFigure(compared(r.approach).p)) : '—'}</td>
<td>${r.passed ? escapeHtml(mark(r) || 'passed') : `<span class="bad">FAILED</span>: ${escapeHtml(r.problems.join('; '))}`}</td></tr>`).join('\n');
  // data-group: what a browser check reads of the group beside its pick: its rounds and the p-value its reason gives.
  return `<h3 data-group="${escapeHtml(`${g.target}/${g.workload}`)}" data-rounds="${num(g.rounds)}"${pAttribute(g.comparedWith)}${g.machineBusy && g.machineBusy.busy ? ' data-machine-busy="yes"' : ''}>${escapeHtml(g.target)} · ${escapeHtml(g.workload)}: pick <strong data-pick="${escapeHtml(`${g.target}/${g.workload}/${g.pick || ''}`)}">${g.pick ? escapeHtml(g.pick) : 'none'}</strong></h3>
<p>${escapeHtml(g.reason)}.</p>
<table class="choice"><thead><tr><th>approach</th><th>ms a run (service-timed, median of the rounds' means)</th><th>ms a run by round</th><th>runs</th><th>probe p99 ms</th><th>longest block ms (median round)</th><th>of it waiting for a CPU, ms</th><th>own block ms (held against the limit)</th><th>of it the collector's pauses, ms</th><th>held against the limit by round, ms</th><th>server lag max ms (worst second)</th><th>p against the pick</th><th></th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

/**
 * Where the runtimes disagree about the document (node-kit/document-findings.js and each service's own details): per
 * topic, what each service that stored it does, so a user sees that a difference in output is the runtime's, not an
 * approach's failure.
 */
function findingsSection(handOff) {
  const byTopic = new Map();
  for (const [name, h] of Object.entries(handOff)) {
    for (const f of h.findings || []) {
      if (!byTopic.has(f.topic)) byTopic.set(f.topic, { path: f.path, count: f.count, services: [] });
      byTopic.get(f.topic).services.push({ name, detail: f.detail });
    }
  }
  if (byTopic.size === 0) return '<p class="small" data-findings="0">Nothing in the document that these runtimes treat differently (large integers, -0, duplicate keys, lone surrogates, number formats).</p>';
  const items = [...byTopic].map(([topic, t]) => `<li data-finding="${escapeHtml(topic)}"><strong>${escapeHtml(topic)}</strong> at <code>${escapeHtml(t.path || '/')}</code> (${num(t.count)}×):<ul>${t.services.map((x) => `<li>${escapeHtml(x.name)}: ${escapeHtml(x.detail)}</li>`).join('')}</ul></li>`).join('');
  return `<h3>Where the runtimes disagree about this document</h3><ul class="findings" data-findings="${byTopic.size}">${items}</ul>`;
}

/** The section for choice ({blockMs, rounds, alpha, groups}) of the document try ({document, bytes, handOff}). */
function documentChoice(choice, document) {
  const handOff = Object.entries(document.handOff || {}).map(([name, h]) => `${escapeHtml(name)}: ${h.stored ? 'stored' : `not stored (${escapeHtml(h.error)})`}`).join('; ');
  return `<section id="document-choice"><h2>Your document <code>${escapeHtml(String(document.document).slice(0, 12))}</code>${document.bytes ? ` (${num(document.bytes)} bytes)` : ''}: which approach to use</h2>
<p class="small" data-rounds="${num(choice.rounds)}">Each approach ran in <strong>${num(choice.rounds)}</strong> interleaved round${choice.rounds === 1 ? '' : 's'}: round 1 ran every approach of a
service's workload once, then round 2 again, so that what disturbed the machine fell on all of them alike. The pick is the fastest approach
(the median of its rounds' mean time of one run, as the service timed it) whose longest block of the event loop stays under
<strong>${num(choice.blockMs)} ms</strong> in its median round, counting only the block its own work made: where the service can
tell (<code>eventLoop.maxOwnBlockMs</code>), the time its thread waited for a CPU another process held is shown apart and left out,
since a busy machine, not the approach, made it; an approach that failed in any round is never picked. It is compared with the others
by a Mann-Whitney test on their runs' times pooled over the rounds: one it cannot be told from (p &ge; ${num(choice.alpha)}) and that
is simpler (native before any other, then the service's order) is picked instead. The server's worst second of event-loop lag max is shown beside it: it also holds the lab's own
check of each answer and, at the scenario's edges, the scenario before. Handed to: ${handOff || '—'}.</p>
${findingsSection(document.handOff || {})}
${choice.groups.map(groupTable).join('\n')}
</section>`;
}

module.exports = { documentChoice };
