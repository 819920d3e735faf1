'use strict';
// The compact summary of a benchmark over many documents: one line per family (a generated tree family of
// bench/tree-families.js, the shapes, a group of the real-world corpus), with, per approach, its worst ratio to native
// over the family's documents of 1 MB and more and over the smaller ones apart (a document under one slice is one
// native call, its ratio that call's fixed costs: a target of its own), and its worst block. One place for both
// benchmarks that print it: bench/shapes-quick.js (one process, best of rounds) and bench/shapes-table.js (the full
// benchmark's report, a process per approach, medians); each hands over its own ratios and blocks.
//
//   summaryLines(rows) -> [line]
//   rows: [{family, bytes, nativeBlockMs, approaches: {label: {ratio, blockMs, failed}}}], one per document
//     ratio    the approach's time over native's on that document
//     blockMs  its longest block there (null: not measured)
//     failed   its output differed from native's, or it did not finish: no ratio, the family's cell says FAIL
// Node 14 syntax.

// Documents under this many bytes of JSON have their ratios apart.
const SMALL_BYTES = 1 << 20;

// The width of each of a cell's three figures.
const SUBCELL = 7;
const SUBHEADER = ['>=1MB', 'small', 'block'].map((text) => text.padStart(SUBCELL)).join(' ');

const worstOf = (list) => (list.length === 0 ? null : Math.max.apply(null, list));
const ratioText = (ratio) => (ratio === null ? '-' : `${ratio.toFixed(2)}x`);
const msText = (ms) => (ms === null ? '-' : `${ms.toFixed(1)}ms`);

/** The first-seen order of the values key(item) takes over list. */
function inOrder(list, key) {
  const seen = [];
  for (const item of list) if (!seen.includes(key(item))) seen.push(key(item));
  return seen;
}

/** One approach's cell over a family's rows: 'large small block', or how many of its documents FAILED. */
function cell(rows, label) {
  const large = [];
  const small = [];
  const blocks = [];
  let failed = 0;
  for (const row of rows) {
    const its = row.approaches[label];
    if (!its) continue;
    if (its.failed) {
      failed++;
      continue;
    }
    (row.bytes >= SMALL_BYTES ? large : small).push(its.ratio);
    if (its.blockMs !== null && its.blockMs !== undefined) blocks.push(its.blockMs);
  }
  if (failed > 0) return `${failed} FAILED`;
  if (large.length + small.length === 0) return '-';
  return [ratioText(worstOf(large)), ratioText(worstOf(small)), msText(worstOf(blocks))].map((text) => text.padStart(SUBCELL)).join(' ');
}

/** The summary's lines: a header of the approaches, then one line per family, in the order the rows came. */
function summaryLines(rows) {
  const families = inOrder(rows, (row) => row.family);
  const labels = [];
  for (const row of rows) for (const label of Object.keys(row.approaches)) if (!labels.includes(label)) labels.push(label);
  const familyWidth = Math.max.apply(null, ['family'.length].concat(families.map((f) => f.length)));
  const cells = families.map((family) => {
    const of = rows.filter((row) => row.family === family);
    const nativeBlocks = of.map((row) => row.nativeBlockMs).filter((ms) => ms !== null && ms !== undefined);
    return { family, cells: labels.map((label) => cell(of, label)), native: msText(worstOf(nativeBlocks)) };
  });
  const widths = labels.map((label, i) => Math.max(label.length, SUBHEADER.length, ...cells.map((c) => c.cells[i].length)));
  const line = (first, columns, last) => `${first.padEnd(familyWidth)}  ${columns.map((c, i) => c.padStart(widths[i])).join('  ')}  ${last}`;
  return [
    line('family', labels, 'native'),
    line('', labels.map(() => SUBHEADER), 'block'),
    ...cells.map((c) => line(c.family, c.cells, c.native)),
  ];
}

module.exports = { summaryLines, SMALL_BYTES };
