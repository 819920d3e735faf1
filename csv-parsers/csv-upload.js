'use strict';
// POST /csv: a CSV body parsed as it arrives, framework-free (any Node Readable of Buffers, such as an HTTP
// request), so the lead can mount it on an express route. The body is decoded as UTF-8 with a StringDecoder (a
// character split between packets is joined, not mangled) and its size is checked packet by packet: past maxBytes
// it stops reading at once with a 413, without buffering further. Malformed CSV is the client's fault: a 400.
const { StringDecoder } = require('string_decoder');
const { performance } = require('perf_hooks');
const { HttpError, badRequest } = require('../node-kit');
const { csvApproaches } = require('./approaches');
const { CsvSyntaxError } = require('./csv-error');
const { SYNC_CHUNKS } = require('./sources');
const { rowsHashSliced } = require('./rows-hash');

const OWN_APPROACHES = csvApproaches();

const bodyTooLarge = (maxBytes) => new HttpError(413, `the CSV body is larger than ${maxBytes} bytes`, { maxBytes });

/**
 * The body as decoded text chunks; counts its bytes in `count.bytes`. Throws HttpError(413) as soon as more than
 * maxBytes arrived. Stopping early does not destroy the stream (it is left paused), so the caller can still
 * answer on its connection; it should close it (`Connection: close`) rather than read the rest.
 */
async function* decodedChunks(readable, maxBytes, count) {
  const decoder = new StringDecoder('utf8');
  for await (const packet of readable.iterator({ destroyOnReturn: false })) {
    const bytes = typeof packet === 'string' ? Buffer.from(packet, 'utf8') : packet;
    count.bytes += bytes.length;
    if (count.bytes > maxBytes) throw bodyTooLarge(maxBytes);
    const text = decoder.write(bytes);
    if (text.length > 0) yield text;
  }
  const rest = decoder.end(); // an incomplete character at the very end becomes U+FFFD
  if (rest.length > 0) yield rest;
}

async function collectChunks(chunks) {
  const all = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

/**
 * readable: a Node Readable (Buffers or strings). approach: a name in `approaches` (default 'fast'); approaches:
 * {name: approach} (default: this folder's own, csvApproaches() without libraries). Approaches that read sync
 * chunks (memory, sync, sync-composed) get the whole body first, the others read it as it arrives.
 * maxBytes: positive integer. signal: aborts the parse (the client went away).
 * Resolves {rows: string[][], bytes, hash, ms}: ms from the first read to the last row (it includes waiting for
 * the client's packets). Rejects with HttpError 400 (unknown approach, malformed CSV) or 413, else the failure.
 */
async function parseUpload(readable, { approach = 'fast', approaches = OWN_APPROACHES, maxBytes, signal } = {}) {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new TypeError('maxBytes must be a positive integer');
  const parse = Object.prototype.hasOwnProperty.call(approaches, approach) ? approaches[approach] : undefined;
  if (parse === undefined) {
    throw badRequest(`approach must be one of ${Object.keys(approaches).join(', ')}`, { parameter: 'approach', allowed: Object.keys(approaches) });
  }
  const count = { bytes: 0 };
  const started = performance.now();
  let rows;
  try {
    const chunks = decodedChunks(readable, maxBytes, count);
    rows = await parse(parse.input === SYNC_CHUNKS ? await collectChunks(chunks) : chunks, { signal });
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw badRequest(error.message, { row: error.row });
    throw error;
  }
  const ms = performance.now() - started;
  return { rows, bytes: count.bytes, hash: await rowsHashSliced(rows), ms };
}

module.exports = { parseUpload, bodyTooLarge };
