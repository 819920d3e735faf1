'use strict';
// POST /csv: a CSV body parsed as it arrives, framework-free (any Node Readable of Buffers, such as an HTTP
// request), so the lead can mount it on an express route. The body must be UTF-8 (a 400 naming the byte offset of
// the first sequence that is not) and is decoded with a StringDecoder (a character split between packets is joined,
// not mangled). Its bytes and cells are counted packet by packet, before an approach sees the text: past maxBytes or
// maxCells it stops reading at once with a 413, without buffering further, so a parse never holds more than
// upload-memory.js' bound for the two caps. Malformed CSV is the client's fault: a 400.
const { StringDecoder } = require('string_decoder');
const { performance } = require('perf_hooks');
const { HttpError, badRequest } = require('@lab/node-kit');
const { Utf8Check } = require('@lab/node-kit/utf8');
const { countCells } = require('./upload-memory');
const { csvApproaches } = require('./approaches');
const { CsvSyntaxError } = require('./csv-error');
const { SYNC_CHUNKS } = require('./sources');
const { rowsHashSliced } = require('./rows-hash');

const OWN_APPROACHES = csvApproaches();
// The approach an upload that names none is parsed with: the lab's own, the fastest that keeps the loop turning.
const UPLOAD_APPROACH = 'fast';

const bodyTooLarge = (limitBytes) => new HttpError(413, `the CSV body is larger than ${limitBytes} bytes`, { limitBytes });

const tooManyCells = (limitCells) =>
  new HttpError(413, `the CSV body has more than ${limitCells} cells (counted as its commas and line breaks, plus one)`, { limitCells });

/**
 * The body as decoded text chunks; counts its bytes and (an upper bound of) its cells in `count`. Throws HttpError
 * 413 as soon as more than maxBytes bytes or maxCells cells arrived, 400 at the first byte that is not UTF-8.
 * Stopping early does not destroy the stream (it is left paused), so the caller can still answer on its connection;
 * it should close it (`Connection: close`) rather than read the rest. admit() is called when the first packet
 * arrives, before it is used; it may throw to refuse the upload.
 */
async function* decodedChunks(readable, { maxBytes, maxCells, admit }, count) {
  const utf8 = new Utf8Check();
  const decoder = new StringDecoder('utf8');
  let admitted = false;
  for await (const packet of readable.iterator({ destroyOnReturn: false })) {
    if (!admitted) {
      admit();
      admitted = true;
    }
    const bytes = typeof packet === 'string' ? Buffer.from(packet, 'utf8') : packet;
    count.bytes += bytes.length;
    if (count.bytes > maxBytes) throw bodyTooLarge(maxBytes);
    utf8.write(bytes);
    const text = decoder.write(bytes);
    count.cells += countCells(text);
    if (count.cells > maxCells) throw tooManyCells(maxCells);
    if (text.length > 0) yield text;
  }
  utf8.end(); // the body may not end inside a character, so the decoder holds nothing more
}

async function collectChunks(chunks) {
  const all = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

/**
 * readable: a Node Readable (Buffers or strings). approach: a name in `approaches` (default UPLOAD_APPROACH); approaches:
 * {name: approach} (default: this folder's own, csvApproaches() without libraries). Approaches that read sync
 * chunks (memory, sync, sync-composed) get the whole body first, the others read it as it arrives.
 * maxBytes, maxCells: positive integers (maxCells defaults to maxBytes + 1, which no body can pass). signal: aborts
 * the parse (the client went away). admit: called once the body's first packet arrived (default: nothing), may throw.
 * Resolves {rows: string[][], bytes, cells, hash, ms}: ms from the first read to the last row (it includes waiting
 * for the client's packets). Rejects with HttpError 400 (unknown approach, malformed CSV, not UTF-8) or 413, what
 * admit threw, else the failure.
 */
async function parseUpload(readable, { approach = UPLOAD_APPROACH, approaches = OWN_APPROACHES, maxBytes, maxCells = maxBytes + 1, signal, admit = () => {} } = {}) {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new TypeError('maxBytes must be a positive integer');
  if (!Number.isSafeInteger(maxCells) || maxCells < 1) throw new TypeError('maxCells must be a positive integer');
  const parse = Object.prototype.hasOwnProperty.call(approaches, approach) ? approaches[approach] : undefined;
  if (parse === undefined) {
    throw badRequest(`approach must be one of ${Object.keys(approaches).join(', ')}`, { parameter: 'approach', allowed: Object.keys(approaches) });
  }
  const count = { bytes: 0, cells: 1 }; // the last cell ends with the body, not with a separator
  const started = performance.now();
  let rows;
  try {
    const chunks = decodedChunks(readable, { maxBytes, maxCells, admit }, count);
    rows = await parse(parse.input === SYNC_CHUNKS ? await collectChunks(chunks) : chunks, { signal });
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw badRequest(error.message, { row: error.row });
    throw error;
  }
  const ms = performance.now() - started;
  return { rows, bytes: count.bytes, cells: count.cells, hash: await rowsHashSliced(rows), ms };
}

module.exports = { parseUpload, bodyTooLarge, UPLOAD_APPROACH };
