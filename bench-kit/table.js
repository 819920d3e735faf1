'use strict';
// The benchmarks' one markdown table: a header row, an alignment rule, then the rows; every cell is written as
// String(cell). Text columns are aligned left and numeric ones right (`right`: the headers to right-align), so a
// column of figures reads down by its digits.

/** A markdown table of headers and rows (arrays of cells); options.right: a set or list of right-aligned headers. */
function markdownTable(headers, rows, { right = [] } = {}) {
  const rightSet = new Set(right);
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const alignRight = headers.map((h) => rightSet.has(h));
  const line = (row) => `| ${row.map((c, i) => (alignRight[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (alignRight[i] ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

module.exports = { markdownTable };
