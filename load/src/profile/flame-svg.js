'use strict';
// A flame graph of folded stacks ("a;b;c <µs>" lines, cpu-profile.js' foldedText) as inline SVG: the outermost frame at
// the bottom, each frame as wide as its share of the samples, children left to right by weight. Written here rather
// than inlining a flame-graph library: the report stays one offline file without a script of its own for this, and a
// static picture is what a report of a finished run needs (the .cpuprofile beside it opens in Chromium's DevTools or
// speedscope for zooming). Frames narrower than MIN_SHARE of the whole are merged away, and the depth is capped, so a
// deep profile stays a picture of a few hundred elements.
const { escapeHtml } = require('../report/html-text');

const WIDTH = 1100;
const ROW = 16;
const MAX_DEPTH = 40;
const MIN_SHARE = 0.004;

/** The folded text as a tree: {name, value, children: Map}. */
function treeOf(foldedText) {
  const root = { name: 'all', value: 0, children: new Map() };
  for (const line of foldedText.split('\n')) {
    const at = line.lastIndexOf(' ');
    if (at <= 0) continue;
    const value = Number(line.slice(at + 1));
    if (!(value > 0)) continue;
    root.value += value;
    let node = root;
    for (const frame of line.slice(0, at).split(';').slice(0, MAX_DEPTH)) {
      if (!node.children.has(frame)) node.children.set(frame, { name: frame, value: 0, children: new Map() });
      node = node.children.get(frame);
      node.value += value;
    }
  }
  return root;
}

/** A warm colour that depends on the frame's name only, so a function keeps its colour from one graph to the next. */
function colourOf(name) {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
  const h = 10 + (Math.abs(hash) % 40);
  const l = 55 + (Math.abs(hash >> 8) % 15);
  return `hsl(${h},85%,${l}%)`;
}

/** The SVG of foldedText (title: its accessible name); null when there is nothing to draw. */
function flameSvg(foldedText, title) {
  const root = treeOf(foldedText || '');
  if (root.value === 0) return null;
  const rects = [];
  let depth = 0;
  const minValue = root.value * MIN_SHARE;
  (function place(node, x, level) {
    depth = Math.max(depth, level);
    rects.push({ node, x, level });
    let at = x;
    for (const child of [...node.children.values()].sort((a, b) => b.value - a.value)) {
      if (child.value >= minValue) place(child, at, level + 1);
      at += child.value;
    }
  })(root, 0, 0);
  const height = (depth + 1) * ROW + 4;
  const scale = WIDTH / root.value;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="flame" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeHtml(title)}" font-size="11" font-family="monospace">`];
  for (const { node, x, level } of rects) {
    const w = node.value * scale;
    const y = height - (level + 1) * ROW;
    const share = ((node.value / root.value) * 100).toFixed(1);
    const label = w > 30 ? escapeHtml(node.name.slice(0, Math.floor(w / 7))) : '';
    parts.push(`<g data-frame="${escapeHtml(node.name)}"><title>${escapeHtml(`${node.name}: ${share} % of the samples`)}</title><rect x="${(x * scale).toFixed(1)}" y="${y}" width="${Math.max(w - 0.5, 0.5).toFixed(1)}" height="${ROW - 1}" fill="${level === 0 ? '#ddd' : colourOf(node.name)}"/>${label ? `<text x="${(x * scale + 3).toFixed(1)}" y="${y + ROW - 4}">${label}</text>` : ''}</g>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

module.exports = { flameSvg, treeOf };
