'use strict';
// A chart per workload as inline SVG: the versions along the x axis (in the order the matrix ran them, the pinned one
// marked), one line per approach through its medians, each point with a bar from the fastest to the slowest repeat.
// SVG written here, not a chart library: the page stays one offline file, and a few dozen points need no more.
const { escapeHtml } = require('../report/html-text');

const WIDTH = 560;
const HEIGHT = 260;
const PAD = { left: 56, right: 150, top: 18, bottom: 34 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

/** A figure as the matrix shows it: three significant digits or so, '—' for none. */
const fmt = (v) => (v === null || v === undefined ? '—' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/**
 * series: [{label, points: [{x (index into xs), median, min, max} | null]}]; xs: labels; yLabel. Returns the SVG's
 * text, with data-series and data-x on each point so a test can read what is drawn.
 */
function lineChart({ title, xs, series, yLabel, pinnedIndex }) {
  const values = series.flatMap((s) => s.points.filter(Boolean).flatMap((p) => [p.min, p.max]));
  const top = values.length ? Math.max(...values) * 1.1 : 1;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (xs.length === 1 ? plotW / 2 : (i * plotW) / (xs.length - 1));
  const y = (v) => PAD.top + plotH - (v / top) * plotH;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(title)}" class="matrix-chart">`];
  parts.push(`<line x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${PAD.left + plotW}" y2="${PAD.top + plotH}" stroke="#999"/>`);
  parts.push(`<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}" stroke="#999"/>`);
  for (const f of [0, 0.5, 1]) parts.push(`<text x="${PAD.left - 4}" y="${y(top * f) + 4}" text-anchor="end" font-size="10">${fmt(top * f)}</text>`);
  parts.push(`<text x="12" y="${PAD.top + plotH / 2}" font-size="10" transform="rotate(-90 12 ${PAD.top + plotH / 2})" text-anchor="middle">${escapeHtml(yLabel)}</text>`);
  xs.forEach((label, i) => parts.push(`<text x="${x(i)}" y="${HEIGHT - 12}" text-anchor="middle" font-size="11"${i === pinnedIndex ? ' font-weight="bold"' : ''}>${escapeHtml(label)}${i === pinnedIndex ? ' (pinned)' : ''}</text>`));
  series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const known = s.points.map((p, i) => (p ? `${x(i)},${y(p.median)}` : null)).filter(Boolean);
    if (known.length > 1) parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${known.join(' ')}"/>`);
    s.points.forEach((p, i) => {
      if (!p) return;
      parts.push(`<line x1="${x(i)}" y1="${y(p.min)}" x2="${x(i)}" y2="${y(p.max)}" stroke="${colour}"/>`);
      parts.push(`<circle cx="${x(i)}" cy="${y(p.median)}" r="3" fill="${colour}" data-series="${escapeHtml(s.label)}" data-x="${escapeHtml(xs[i])}" data-median="${p.median}"><title>${escapeHtml(`${s.label} on ${xs[i]}: ${fmt(p.median)} (${fmt(p.min)}–${fmt(p.max)})`)}</title></circle>`);
    });
    parts.push(`<text x="${PAD.left + plotW + 8}" y="${PAD.top + 12 + k * 14}" font-size="11" fill="${colour}">${escapeHtml(s.label)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

module.exports = { lineChart, fmt };
