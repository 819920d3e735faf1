'use strict';
// The test document: seeded rows (generated-rows.js) encoded as RFC 4180 text with `\n` record ends (the file ends
// with one), cut into chunks the way a stream delivers them. Its reference hash comes from the generated rows
// themselves, never from a parser.
const { HEADER, seededRandom, createRowGenerator } = require('./generated-rows');
const { encodeRow } = require('./csv-encode');
const { rowsHash } = require('./rows-hash');
const { pieces } = require('../js-serializers/text-hash');

// The seed's dimensions: 50 002 records with the header, about 5.4 MB, in chunks of 64 KiB (about 82 of them).
const DOCUMENT_DEFAULTS = { seed: 1, rows: 50002, chunkChars: 65536 };

// Share of fields quoted although they need no quotes.
const PLAIN_QUOTED_RATE = 0.02;

function checkInteger(name, value, min) {
  if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`${name} must be an integer >= ${min}`);
}

/**
 * seed: PRNG seed (integer >= 0). rows: records including the header (>= 1). chunkChars: the most UTF-16 code
 * units per chunk (>= 2; a chunk never ends between the halves of a surrogate pair, as a decoded stream's never do).
 * Returns {chunks: string[], chars, bytes (UTF-8), rows, rowsHash}.
 */
function csvDocument(options = {}) {
  const { seed, rows, chunkChars } = Object.assign({}, DOCUMENT_DEFAULTS, options);
  checkInteger('seed', seed, 0);
  checkInteger('rows', rows, 1);
  checkInteger('chunkChars', chunkChars, 2);
  const random = seededRandom(seed);
  const nextRow = createRowGenerator(random);
  const records = [HEADER];
  for (let id = 1; id < rows; id++) records.push(nextRow(id));
  const quoteSome = () => random() < PLAIN_QUOTED_RATE;
  const lines = records.map((record, index) => `${index === 0 ? encodeRow(record) : encodeRow(record, quoteSome)}\n`);
  const text = lines.join('');
  return {
    chunks: Array.from(pieces(text, chunkChars)),
    chars: text.length,
    bytes: Buffer.byteLength(text, 'utf8'),
    rows: records.length,
    rowsHash: rowsHash(records),
  };
}

module.exports = { csvDocument, DOCUMENT_DEFAULTS };
