'use strict';
// The few ways every HTML page of the driver (report.html, make compare's page, the matrix report, flame graphs)
// writes a value: escaped, as JSON inside a <script>, as a number measured. One place, so that no page escapes its
// own way; every string from a run is data, never markup.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** JSON that cannot end the <script> element it sits in, nor break a JS line. */
const safeJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** Numbers as measured (at most 3 decimals), '—' for nothing. */
function num(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'number') return escapeHtml(value);
  return String(Number.isInteger(value) ? value : Math.round(value * 1000) / 1000);
}

module.exports = { escapeHtml, safeJson, num };
