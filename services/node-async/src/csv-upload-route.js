'use strict';
// Seed 003's real-world form: POST /csv parses the request body as it arrives (csv-parsers/csv-upload.js) and
// answers its row count and rows hash. The body is capped while it streams, and uploads in progress are capped too,
// so that no burst of large bodies can exhaust memory (a run holds about 4× its body: text plus rows).
const { envInteger, parseOnlyParams, watchClient, busy } = require('../../../node-kit');
const { parseUpload, bodyTooLarge } = require('../../../csv-parsers/csv-upload');

function uploadConfig() {
  return {
    maxBytes: envInteger('CSV_MAX_BYTES', 32 * 1024 * 1024),
    maxUploads: envInteger('CSV_MAX_UPLOADS', 4),
  };
}

/** approaches: the csv workload's {name: approach}; config: uploadConfig()'s shape. Returns node-kit routes. */
function csvUploadRoutes(approaches, config) {
  const params = { approach: { default: 'fast', values: Object.keys(approaches) } };
  let uploads = 0;

  async function upload(req, res) {
    const { approach } = parseOnlyParams(params, req.query);
    // A declared length over the cap is refused before a byte is read (a chunked body is counted as it arrives).
    if (Number(req.headers['content-length']) > config.maxBytes) {
      throw bodyTooLarge(config.maxBytes);
    }
    if (uploads >= config.maxUploads) throw busy(`${config.maxUploads} CSV uploads already in progress (CSV_MAX_UPLOADS); retry later`);
    uploads++;
    const clientGone = watchClient(res);
    try {
      const parsed = await parseUpload(req, { approach, approaches, maxBytes: config.maxBytes, signal: clientGone.signal });
      res.json({ approach, rows: parsed.rows.length, bytes: parsed.bytes, hash: parsed.hash, ms: parsed.ms });
    } finally {
      clientGone.stop();
      uploads--;
    }
  }

  return [{ method: 'POST', path: '/csv', handlers: [upload] }];
}

module.exports = { csvUploadRoutes, uploadConfig };
