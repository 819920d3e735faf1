'use strict';
// Every body node-async reads (POST /csv, POST /api/*/process-data) is read as it is declared or refused: bytes that
// are not UTF-8 are a 400 naming their offset, a compressed body or another charset a 415 naming what is accepted,
// and a body over its cap a 413 naming `limitBytes`. Raw sockets send the bytes a client library would not.
const test = require('node:test');
const assert = require('node:assert');
const zlib = require('node:zlib');
const { startService } = require('@lab/test-kit');
const { makeService } = require('../src/service');
const { openUpload } = require('./raw-upload');

const ACCEPTED = { contentEncoding: ['identity'], charset: ['utf-8'] };
const NOT_UTF8 = (offset) => ({ error: `the body is not valid UTF-8: the byte sequence at byte offset ${offset} is not a UTF-8 character`, byteOffset: offset });
const CSV = 'Content-Type: text/csv\r\n';
const JSON_TYPE = 'Content-Type: application/json\r\n';

/** Sends body (a Buffer) in packets of `packet` bytes after the given header lines; resolves {status, body}. */
async function send(port, target, headers, body, packet = body.length) {
  const upload = openUpload(port, `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Length: ${body.length}`);
  for (let at = 0; at < body.length; at += packet) await upload.send(body.subarray(at, at + packet));
  const { status, body: answer } = await upload.answer;
  return { status, body: answer };
}

async function withService(options, body) {
  const server = await startService(makeService(options));
  try {
    await body(Number(new URL(server.url).port));
  } finally {
    await server.close();
  }
}

// A Latin-1 "café": once decoded with replacement, it was parsed as "caf\ufffd".
const latin1 = (before, after) => Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);

test('POST /csv: not UTF-8 is a 400 naming the byte offset (a packet may cut the sequence), gzip or Latin-1 a 415', async () => {
  await withService({}, async (port) => {
    const before = 'name\ncaf';
    for (const packet of [1, 4, 64]) assert.deepStrictEqual(await send(port, '/csv', CSV, latin1(before, '\n'), packet), { status: 400, body: NOT_UTF8(before.length) }, `packets of ${packet}`);
    const cut = Buffer.from('a,東\n', 'utf8').subarray(0, 4); // the body ends inside 東
    assert.deepStrictEqual(await send(port, '/csv', CSV, cut, 1), { status: 400, body: NOT_UTF8(2) });
    const gzipped = zlib.gzipSync('a,b\n1,2\n');
    const encoded = await send(port, '/csv', `${CSV}Content-Encoding: gzip\r\n`, gzipped);
    assert.deepStrictEqual(encoded, { status: 415, body: { error: 'Content-Encoding gzip is not accepted: send the body uncompressed (identity)', accepted: ACCEPTED } });
    const charset = await send(port, '/csv', 'Content-Type: text/csv; charset=ISO-8859-1\r\n', latin1('caf', '\n'));
    assert.deepStrictEqual(charset, { status: 415, body: { error: 'charset iso-8859-1 is not accepted: send the body as UTF-8 (charset=utf-8, or no charset)', accepted: ACCEPTED } });
    const ok = await send(port, '/csv', 'Content-Type: text/csv; charset=utf-8\r\n', Buffer.from('name\ncafé\n'), 1);
    assert.deepStrictEqual([ok.status, ok.body.rows, ok.body.bytes], [200, 2, 11]);
  });
});

test('POST /csv names its cap limitBytes, like every other 413', async () => {
  await withService({ upload: { maxBytes: 100 } }, async (port) => {
    const over = await send(port, '/csv', CSV, Buffer.from('a,b\n'.repeat(100)), 16);
    assert.deepStrictEqual(over, { status: 413, body: { error: 'the CSV body is larger than 100 bytes', limitBytes: 100 } });
  });
});

test('POST /api/*/process-data: not UTF-8 is a 400 naming the byte offset, gzip or another charset a 415', async () => {
  await withService({}, async (port) => {
    const route = '/api/unoptimized/process-data';
    const before = '{"fibonacciN": 1, "items": [{"id": 1, "name": "caf';
    const body = latin1(before, '", "value": 1}]}');
    assert.deepStrictEqual(await send(port, route, JSON_TYPE, body, 7), { status: 400, body: NOT_UTF8(before.length) });
    const valid = JSON.stringify({ fibonacciN: 1, items: [{ id: 1, name: 'café', value: 1 }] });
    const gzipped = await send(port, route, `${JSON_TYPE}Content-Encoding: gzip\r\n`, zlib.gzipSync(valid));
    assert.deepStrictEqual(gzipped, { status: 415, body: { error: 'Content-Encoding gzip is not accepted: send the body uncompressed (identity)', accepted: ACCEPTED } });
    const charset = await send(port, route, 'Content-Type: application/json; charset=latin1\r\n', Buffer.from(valid));
    assert.strictEqual(charset.status, 415);
    const ok = await send(port, route, JSON_TYPE, Buffer.from(valid));
    assert.strictEqual(ok.status, 200, JSON.stringify(ok.body));
    assert.strictEqual(ok.body.validated, true);
  });
});
