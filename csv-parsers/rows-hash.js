'use strict';
// The hash that says two lists of rows are equal: sha256 over each row written as `JSON.stringify(row) + '\n'`.
// The document hashes the rows it generated, runs hash the rows an approach parsed: both through rowsHash's one
// definition, the run's in slices between event-loop turns so that checking 50 000 rows never blocks for long.
const crypto = require('crypto');
const { nextTurn } = require('../js-serializers/event-loop');

// Rows hashed per update: a few hundred KB of JSON, about a millisecond.
const BATCH_ROWS = 2048;

function addRows(hash, rows, from, to) {
  let text = '';
  for (let i = from; i < to; i++) text += `${JSON.stringify(rows[i])}\n`;
  hash.update(text, 'utf8');
}

/** sha256 (lowercase hex) of rows (string[][]), in one go. */
function rowsHash(rows) {
  const hash = crypto.createHash('sha256');
  for (let at = 0; at < rows.length; at += BATCH_ROWS) addRows(hash, rows, at, Math.min(at + BATCH_ROWS, rows.length));
  return hash.digest('hex');
}

/** The same hash, giving the event loop a turn whenever yieldMs passed. */
async function rowsHashSliced(rows, { yieldMs = 5 } = {}) {
  const hash = crypto.createHash('sha256');
  let sliceStart = Date.now();
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    addRows(hash, rows, at, Math.min(at + BATCH_ROWS, rows.length));
    if (Date.now() - sliceStart >= yieldMs) {
      await nextTurn();
      sliceStart = Date.now();
    }
  }
  return hash.digest('hex');
}

module.exports = { rowsHash, rowsHashSliced };
