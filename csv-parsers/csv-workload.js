'use strict';
// The `csv` workload: one approach parses the generated document from the source it reads (sources.js). A run is
// timed from the approach's call (its first read of the source) until it resolved with the last row, watched for
// event-loop blocks and bounded by timeoutMs; the rows are then hashed in slices and must hash like the rows the
// document was generated from.
const { runControlled, controlFields } = require('../node-kit/run-control');
const { DOCUMENT_DEFAULTS } = require('./csv-document');
const { createDocumentCache } = require('./document-cache');
const { sourceFor } = require('./sources');
const { rowsHashSliced } = require('./rows-hash');

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

/** approaches: {name: approach} as csvApproaches returns them. */
function csvWorkload(approaches) {
  const documentFor = createDocumentCache();
  return {
    approaches: Object.keys(approaches),
    params: PARAMS,
    caseOf: () => 'csv',
    async run({ approach, params }, { signal: clientSignal } = {}) {
      const parse = approaches[approach];
      if (parse === undefined) throw new TypeError(`unknown approach ${approach}`);
      const document = await documentFor(params);
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
        reference: 'generated',
      };
      return Object.assign(result, controlFields(run));
    },
  };
}

module.exports = { csvWorkload, PARAMS };
