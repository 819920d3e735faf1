'use strict';
// A scenario's CPU profile in the report (profile/take-profile.js kept it): the files beside the result, the stacks
// that ran during the scenario's longest block, heaviest first, and a flame graph of the whole window.
const { escapeHtml, num } = require('./html-text');
const { flameSvg } = require('../profile/flame-svg');

// Frames of a stack shown, innermost last: enough to name the approach and what it called.
const FRAMES_SHOWN = 5;

function stackLine(s) {
  const frames = s.stack.slice(-FRAMES_SHOWN);
  return `<li data-stack-share="${s.share}"><b>${num(Math.round(s.share * 1000) / 10)} %</b> (${num(s.ms)} ms) <code>${frames.map(escapeHtml).join(' → ')}</code></li>`;
}

/** The section's HTML for profile (a result file's, with `folded`: the .folded text read beside it), or ''. */
function profileSection(profile, title) {
  if (!profile) return '';
  if (profile.error) return `<h3>CPU profile</h3><p class="small" data-profile="none">No profile: ${escapeHtml(profile.error)}</p>`;
  const b = profile.longestBlock;
  const jvm = profile.safepoints !== undefined;
  const pauses = (p) => (p ? `${num(p.count)}, ${num(p.totalMs)} ms in all, the longest ${num(p.maxMs)} ms` : '—');
  const block = jvm
    ? `<p data-profile="jvm">No event loop to block: what stopped every thread was safepoints (<span data-field="safepoints">${pauses(profile.safepoints)}</span>) and GC pauses (${pauses(profile.gcPauses)}). The heaviest stacks of the window:</p><ol class="stacks">${(profile.heaviest || []).map(stackLine).join('')}</ol>`
    : b
      ? `<p>Longest block (${escapeHtml(b.from)}): <b data-field="profileBlockMs">${num(b.ms)}</b> ms from ${escapeHtml(new Date(b.startedAtMs).toISOString())}, ${num(b.samples)} samples. What ran in it, heaviest first:</p><ol class="stacks">${b.stacks.map(stackLine).join('')}</ol>`
      : '<p>The thread was idle throughout the profile.</p>';
  const svg = flameSvg(profile.folded, `flame graph: ${title}`);
  const of = jvm ? escapeHtml(profile.thread) : `the ${escapeHtml(profile.thread)} thread`;
  return `<h3>CPU profile</h3>
<p class="small">${num(profile.samples)} samples of ${of} every ${num(profile.intervalUs)} µs over the window; files: ${profile.files.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')} (open the .cpuprofile in Chromium's DevTools or speedscope${jvm ? ', the .jfr in JDK Mission Control' : ''}).</p>
${block}
${svg ? `<figure class="flame-graph"><figcaption>Flame graph of the window (outermost frame at the bottom; width: share of the samples)</figcaption>${svg}</figure>` : ''}`;
}

module.exports = { profileSection };
