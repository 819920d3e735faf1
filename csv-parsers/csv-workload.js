'use strict';
// The `csv` workload: one approach parses the generated document, or a user's own (document=<sha256>, stored with
// PUT /documents: user-document.js), from the source it reads (sources.js). A run is timed from the approach's call
// (its first read of the source) until it resolved with the last row, watched for event-loop blocks and bounded by
// timeoutMs; the rows are then hashed in slices and must hash like the rows the document was generated from, or like
// the reference parser's rows of the user's document, hashed when it was stored.
const { runControlled, controlFields } = require('@lab/node-kit/run-control');
const { DOCUMENT_DEFAULTS } = require('./csv-document');
const { createDocumentCache } = require('./document-cache');
const { sourceFor } = require('./sources');
const { rowsHashSliced } = require('./rows-hash');
const { REFERENCE } = require('./user-document');
const { HttpError } = require('@lab/node-kit');
const { pieces } = require('@lab/js-serializers/text-hash');

const PARAMS = {
  seed: { default: DOCUMENT_DEFAULTS.seed, min: 0, max: 2147483647 },
  // 2× the async-char-streams document. Per 50 000 rows a run holds the cached text (11 MB of UTF-16) and the parsed
  // rows (19 MB, measured), so at the cap: 60 MB per run, and 4 concurrent runs with 3 cached documents stay near 300
  // MB.
  rows: { default: DOCUMENT_DEFAULTS.rows, min: 1, max: 100000 },
  // Below 1 KiB the per-chunk turn of the loop, not parsing, is what a run measures.
  chunkChars: { default: DOCUMENT_DEFAULTS.chunkChars, min: 1024, max: 1048576 },
  timeoutMs: { default: 0, min: 0, max: 600000 }, // 0: no timeout
};
// A user's CSV document in place of the generated one: the sha256 PUT /documents answered ('': none). Only where the
// service keeps documents.
const DOCUMENT_PARAM = { document: { default: '', pattern: '[0-9a-f]{64}' } };

/**
 * The user's document params.document names, held in the store (documents) until release(): {chunks, bytes,
 * rowsHash, reference, release}. Cut into chunkChars chunks here, before the timed section, as the generated one is.
 */
function userDocument(documents, params) {
  const held = documents.hold(params.document); // a 404 naming what is stored when there is no such document
  if (held.kind !== 'csv') {
    held.release();
    throw new HttpError(400, `document ${params.document} is ${held.kind === 'json' ? 'JSON' : held.kind}, not CSV: /run/stringify and /run/parse run it`, { parameter: 'document' });
  }
  return { chunks: Array.from(pieces(held.text, params.chunkChars)), bytes: held.bytes, rowsHash: held.reference, reference: REFERENCE, release: held.release };
}

/** approaches: {name: approach} as csvApproaches returns them; documents: node-kit's store, or none. */
function csvWorkload(approaches, documents = null) {
  const documentFor = createDocumentCache();
  const generated = async (params) => Object.assign({ reference: 'generated', release: () => {} }, await documentFor(params));
  return {
    approaches: Object.keys(approaches),
    params: documents ? Object.assign({}, PARAMS, DOCUMENT_PARAM) : PARAMS,
    caseOf: (params) => (params && params.document ? 'document' : 'csv'),
    async run({ approach, params }, { signal: clientSignal } = {}) {
      const parse = approaches[approach];
      if (parse === undefined) throw new TypeError(`unknown approach ${approach}`);
      const document = params.document ? userDocument(documents, params) : await generated(params);
      try {
        const source = sourceFor(parse, document.chunks);
        const run = await runControlled((signal) => parse(source, { signal }), { timeoutMs: params.timeoutMs, clientSignal });
        const rows = run.timing.interrupted ? null : run.value;
        const hash = rows === null ? null : await rowsHashSliced(rows);
        const result = {
          ms: run.timing.ms,
          bytes: rows === null ? null : document.bytes,
          rows: rows === null ? null : rows.length,
          hash,
          validated: hash !== null && hash === document.rowsHash,
          reference: document.reference,
        };
        return Object.assign(result, controlFields(run));
      } finally {
        document.release();
      }
    },
  };
}

module.exports = { csvWorkload, PARAMS };
