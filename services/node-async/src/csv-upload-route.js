'use strict';
// The async-char-streams experiment's real-world form: POST /csv parses the request body as it arrives
// (csv-parsers/csv-upload.js) and answers its row count and rows hash. The body is capped in bytes and in cells while
// it streams, and uploads in progress are capped too: csv-upload-settings.js has checked at start-up that the caps'
// worst case fits the heap.
// An upload takes its place when its first bytes arrive, not when its head does: a client that announced a body
// (`Expect: 100-continue`, or a Content-Length) and sends nothing holds a connection, never a parse's place.
const { parseOnlyParams, watchClient, busy } = require('@lab/node-kit');
const { checkBodyDeclaration } = require('@lab/node-kit/body-declaration');
const { parseUpload, bodyTooLarge, UPLOAD_APPROACH } = require('@lab/csv-parsers/csv-upload');

/** approaches: the csv workload's {name: approach}; config: csv-upload-settings.js' shape. Returns node-kit routes. */
function csvUploadRoutes(approaches, config) {
  const params = { approach: { default: UPLOAD_APPROACH, values: Object.keys(approaches) } };
  let uploads = 0;

  async function upload(req, res) {
    const { approach } = parseOnlyParams(params, req.query);
    checkBodyDeclaration(req);
    // A declared length over the cap is refused before a byte is read (a chunked body is counted as it arrives).
    if (Number(req.headers['content-length']) > config.maxBytes) throw bodyTooLarge(config.maxBytes);
    let admitted = false;
    const admit = () => {
      if (uploads >= config.maxUploads) throw busy(`${config.maxUploads} CSV uploads already in progress (CSV_MAX_UPLOADS); retry later`);
      uploads++;
      admitted = true;
    };
    const clientGone = watchClient(res);
    try {
      const parsed = await parseUpload(req, { approach, approaches, maxBytes: config.maxBytes, maxCells: config.maxCells, signal: clientGone.signal, admit });
      res.json({ approach, rows: parsed.rows.length, bytes: parsed.bytes, cells: parsed.cells, hash: parsed.hash, ms: parsed.ms });
    } finally {
      clientGone.stop();
      if (admitted) uploads--;
    }
  }

  return [{ method: 'POST', path: '/csv', handlers: [upload] }];
}

module.exports = { csvUploadRoutes };
