'use strict';
// A scenario's lag, event-loop utilization and GC pauses as the report writes them (stall.js makes the figures): every
// number in a data-field element the browser test reads back, every missing one with its reason.
const { escapeHtml, num } = require('./html-text');

const field = (name, value) => `<span data-field="${name}">${num(value)}</span>`;
const why = (name, reason) => (reason ? ` <small class="missing" data-missing="${name}">(${escapeHtml(reason)})</small>` : '');

/** The paragraph under a scenario's numbers. */
function stallParagraph(target, stall) {
  const lag = stall.lagFrom
    ? `Server ${escapeHtml(stall.lagFrom)} of ${escapeHtml(target)}, worst second: p99 ${field('serverLagP99PeakMs', stall.lagP99PeakMs)} ms, max ${field('serverLagMaxPeakMs', stall.lagMaxPeakMs)} ms.`
    : `Server event-loop lag of ${escapeHtml(target)}, worst second: p99 ${field('serverLagP99PeakMs', null)} ms, max ${field('serverLagMaxPeakMs', null)} ms.`;
  const elu = `Event-loop utilization, mean over the scenario: ${field('serverElu', stall.elu)}${why('elu', stall.eluMissing)}.`;
  const gc = stall.gc || {};
  const pauses = stall.gc
    ? `GC pauses: ${field('gcCount', gc.count)}, ${field('gcTotalMs', gc.totalMs)} ms in all, longest ${field('gcMaxMs', gc.maxMs)} ms at ${field('gcLongestAt', gc.longestAt)}, p99 ${field('gcP99Ms', gc.p99Ms)} ms.`
    : `GC pauses: ${field('gcCount', null)}${why('gc', stall.gcMissing)}.`;
  return `<p class="small stall" data-lag-kind="${escapeHtml(stall.lagKind || 'none')}">${lag}<br>${elu}<br>${pauses}</p>`;
}

/** The ranking's cells for a scenario (headers: RANKING_HEADERS). */
function stallCells(stall) {
  const cell = (name, value) => `<td class="num" data-field="${name}">${num(value)}</td>`;
  return cell('serverElu', stall.elu) + cell('gcMaxMs', stall.gc && stall.gc.maxMs) + cell('gcP99Ms', stall.gc && stall.gc.p99Ms);
}

const RANKING_HEADERS = '<th>ELU (mean)</th><th>GC longest ms</th><th>GC p99 ms</th>';

module.exports = { stallParagraph, stallCells, RANKING_HEADERS };
