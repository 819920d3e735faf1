'use strict';
// The hash that says two lists of rows are equal: sha256 over each row written as `JSON.stringify(row) + '\n'`.
// The document hashes the rows it generated, runs hash the rows an approach parsed: both through rowsHash's one
// definition, the run's in slices between event-loop turns so that checking 50 000 rows never blocks for long.
const crypto = require('crypto');
const { runToEnd } = require('@lab/payloads/js/steps');
const { runStepsInSlices } = require('@lab/loop-kit/slices');

// Rows hashed per update: a few hundred KB of JSON, about a millisecond.
const BATCH_ROWS = 2048;

function addRows(hash, rows, from, to) {
  let text = '';
  for (let i = from; i < to; i++) text += `${JSON.stringify(rows[i])}\n`;
  hash.update(text, 'utf8');
}

/** The hash as steps (payloads/js/steps.js): one batch of rows a step. */
function* rowsHashSteps(rows) {
  const hash = crypto.createHash('sha256');
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    addRows(hash, rows, at, Math.min(at + BATCH_ROWS, rows.length));
    yield;
  }
  return hash.digest('hex');
}

/** sha256 (lowercase hex) of rows (string[][]), in one go. */
const rowsHash = (rows) => runToEnd(rowsHashSteps(rows));

/** The same hash, giving the event loop a turn whenever yieldMs passed. */
const rowsHashSliced = (rows, { yieldMs = 5 } = {}) => runStepsInSlices(rowsHashSteps(rows), { yieldMs });

module.exports = { rowsHash, rowsHashSliced, rowsHashSteps };
