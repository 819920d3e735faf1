'use strict';
// The test document: seeded rows (generated-rows.js) encoded as RFC 4180 text with `\n` record ends (the file ends
// with one), cut into chunks the way a stream delivers them. Its reference hash comes from the generated rows
// themselves, never from a parser.
const { HEADER, seededRandom, createRowGenerator } = require('./generated-rows');
const { encodeRow } = require('./csv-encode');
const { rowsHashSteps } = require('./rows-hash');
const { pieces } = require('@lab/js-serializers/text-hash');
const { runToEnd } = require('@lab/payloads/js/steps');
const { runStepsInSlices } = require('@lab/loop-kit/slices');

// async-char-streams' dimensions: 50 002 records with the header, about 5.4 MB, in chunks of 64 KiB (about 82 of them).
const DOCUMENT_DEFAULTS = { seed: 1, rows: 50002, chunkChars: 65536 };

// Share of fields quoted although they need no quotes.
const PLAIN_QUOTED_RATE = 0.02;

function checkInteger(name, value, min) {
  if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`${name} must be an integer >= ${min}`);
}

/** The document's making as steps (payloads/js/steps.js): a step per row generated and per row encoded. */
function* csvDocumentSteps(options = {}) {
  const { seed, rows, chunkChars } = Object.assign({}, DOCUMENT_DEFAULTS, options);
  checkInteger('seed', seed, 0);
  checkInteger('rows', rows, 1);
  checkInteger('chunkChars', chunkChars, 2);
  const random = seededRandom(seed);
  const nextRow = createRowGenerator(random);
  const records = [HEADER];
  for (let id = 1; id < rows; id++) {
    records.push(nextRow(id));
    yield;
  }
  const quoteSome = () => random() < PLAIN_QUOTED_RATE;
  const lines = new Array(records.length);
  lines[0] = `${encodeRow(HEADER)}\n`;
  for (let index = 1; index < records.length; index++) {
    lines[index] = `${encodeRow(records[index], quoteSome)}\n`;
    yield;
  }
  const text = lines.join('');
  return {
    chunks: Array.from(pieces(text, chunkChars)),
    chars: text.length,
    bytes: Buffer.byteLength(text, 'utf8'),
    rows: records.length,
    rowsHash: yield* rowsHashSteps(records),
  };
}

/**
 * seed: PRNG seed (integer >= 0). rows: records including the header (>= 1). chunkChars: the most UTF-16 code
 * units per chunk (>= 2; a chunk never ends between the halves of a surrogate pair, as a decoded stream's never do).
 * Returns {chunks: string[], chars, bytes (UTF-8), rows, rowsHash}.
 */
const csvDocument = (options) => runToEnd(csvDocumentSteps(options));

/** The same document, made in slices of about yieldMs with a turn of the event loop between them (a Promise). */
const csvDocumentInSlices = (options, sliceOptions) => runStepsInSlices(csvDocumentSteps(options), sliceOptions);

module.exports = { csvDocument, csvDocumentInSlices, DOCUMENT_DEFAULTS };
