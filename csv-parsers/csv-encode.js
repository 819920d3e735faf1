'use strict';
// Rows to RFC 4180 text: a field is quoted when it holds a comma, a quote, \n or \r (a quote doubled inside), and
// otherwise when the caller asks, so that quoted fields without special characters occur too.

const NEEDS_QUOTES = /[",\n\r]/;

function encodeField(value, quote) {
  if (!quote && !NEEDS_QUOTES.test(value)) return value;
  return `"${value.replace(/"/g, '""')}"`;
}

/** A record without its line end. quoteField(index) -> boolean: quote this field even if it needs no quotes. */
function encodeRow(row, quoteField = () => false) {
  return row.map((value, index) => encodeField(value, quoteField(index))).join(',');
}

module.exports = { encodeRow };
