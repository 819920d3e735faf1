'use strict';
// parseUpload on real streams: a Readable of packets cut inside UTF-8 characters, and an HTTP server on port 0
// (the way the lead mounts it) for the 413 and 400 answers.
const test = require('node:test');
const assert = require('node:assert');
const http = require('http');
const { Readable } = require('stream');
const { parseUpload } = require('../csv-upload');
const { csvApproaches } = require('../approaches');
const { rowsHash } = require('../rows-hash');
const { HttpError } = require('@lab/node-kit');

const TEXT = 'name,city\n"Zoë, ""Z""",東京\nÅsa,"line\r\nend"\n😀,🚀\n';
const ROWS = [['name', 'city'], ['Zoë, "Z"', '東京'], ['Åsa', 'line\r\nend'], ['😀', '🚀']];

/** The text's UTF-8 bytes in packets of `size` bytes, so most multi-byte characters are cut. */
function packets(text, size) {
  const bytes = Buffer.from(text, 'utf8');
  const all = [];
  for (let at = 0; at < bytes.length; at += size) all.push(bytes.subarray(at, at + size));
  return all;
}

test('every approach parses a stream whose packets cut UTF-8 characters', async () => {
  for (const approach of Object.keys(csvApproaches())) {
    for (const size of [1, 2, 3, 5, 64]) {
      const result = await parseUpload(Readable.from(packets(TEXT, size)), { approach, maxBytes: 1000 });
      assert.deepStrictEqual(result.rows, ROWS, `${approach}, packets of ${size}`);
      assert.strictEqual(result.bytes, Buffer.byteLength(TEXT));
      assert.strictEqual(result.hash, rowsHash(ROWS));
      assert.ok(result.ms >= 0);
    }
  }
});

test('the default approach is fast, and the body may be exactly maxBytes', async () => {
  const size = Buffer.byteLength(TEXT);
  const result = await parseUpload(Readable.from(packets(TEXT, 7)), { maxBytes: size });
  assert.deepStrictEqual(result.rows, ROWS);
});

test('past maxBytes: a 413 at once, the rest left unread and the stream not destroyed', async () => {
  const sent = packets(TEXT, 10);
  let pulled = 0;
  const readable = new Readable({
    read() {
      this.push(pulled < sent.length ? sent[pulled++] : null);
    },
  });
  await assert.rejects(parseUpload(readable, { maxBytes: 25 }), (error) => error instanceof HttpError && error.status === 413);
  assert.ok(pulled < sent.length, `pulled ${pulled} of ${sent.length} packets`);
  assert.strictEqual(readable.destroyed, false);
});

test('malformed CSV is a 400 naming the row; an unknown approach a 400 naming the approaches', async () => {
  await assert.rejects(parseUpload(Readable.from([Buffer.from('a,b\nc,"d\n')]), { maxBytes: 100 }), (error) => {
    assert.strictEqual(error.status, 400);
    assert.match(error.message, /^CSV row 2: a quoted field is not closed/);
    assert.strictEqual(error.details.row, 2);
    return true;
  });
  await assert.rejects(parseUpload(Readable.from([]), { approach: 'nope', maxBytes: 100 }), (error) => {
    assert.strictEqual(error.status, 400);
    assert.deepStrictEqual(error.details.allowed, Object.keys(csvApproaches()));
    return true;
  });
  await assert.rejects(parseUpload(Readable.from([]), {}), TypeError);
});

test('over HTTP: a request body parsed as it arrives, 413 before the client finished sending, 400', async () => {
  const server = http.createServer(async (request, response) => {
    try {
      const { rows, bytes, hash } = await parseUpload(request, { maxBytes: 200 });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rows, bytes, hash }));
    } catch (error) {
      response.writeHead(error.status || 500, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(error));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const post = (parts) =>
    new Promise((resolve, reject) => {
      const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/csv' }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(body) }));
      });
      request.on('error', reject);
      (async () => {
        for (const part of parts) {
          if (request.destroyed) return;
          request.write(part);
          await new Promise((next) => setTimeout(next, 2));
        }
        request.end();
      })();
    });
  try {
    const ok = await post(packets(TEXT, 3));
    assert.strictEqual(ok.status, 200);
    assert.deepStrictEqual(ok.body.rows, ROWS);
    assert.strictEqual(ok.body.hash, rowsHash(ROWS));
    const tooLarge = await post(packets('a,b\n'.repeat(1000), 50));
    assert.strictEqual(tooLarge.status, 413);
    assert.match(tooLarge.body.error, /larger than 200 bytes/);
    const malformed = await post([Buffer.from('a,b\n"c"d\n')]);
    assert.strictEqual(malformed.status, 400);
    assert.deepStrictEqual(malformed.body, { error: 'CSV row 2: "d" after the closing quote of a field', row: 2 });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
