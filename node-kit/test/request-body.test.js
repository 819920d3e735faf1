'use strict';
// A body is read only as declared: UTF-8 checked byte by byte (a 400 naming the offset of the first sequence that is
// not, even when a packet boundary cuts it), and a Content-Encoding or charset the lab cannot read is a 415.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const net = require('node:net');
const { Utf8Check } = require('../utf8');
const { checkBodyDeclaration } = require('../body-declaration');
const { readJsonBody } = require('../json-body');

/** Runs the check over bytes cut into packets of `size`; returns the offset it named, or -1. */
function firstInvalid(bytes, size) {
  const check = new Utf8Check();
  try {
    for (let at = 0; at < bytes.length; at += size) check.write(bytes.subarray(at, at + size));
    check.end();
    return -1;
  } catch (error) {
    assert.strictEqual(error.status, 400);
    assert.strictEqual(error.details.byteOffset, Number(/byte offset (\d+)/.exec(error.message)[1]));
    return error.details.byteOffset;
  }
}

test('valid UTF-8 passes whatever the packets, and each kind of invalid sequence is named at its first byte', () => {
  const valid = Buffer.from('a,Zoë,東京,😀,\u{10FFFF}\n', 'utf8');
  for (const size of [1, 2, 3, 5, 64]) assert.strictEqual(firstInvalid(valid, size), -1, `packets of ${size}`);
  const cases = [
    ['a lone continuation byte', [0x61, 0x80], 1],
    ['an overlong two-byte form', [0x61, 0x62, 0xc0, 0xaf], 2],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf], 0],
    ['a surrogate', [0x61, 0xed, 0xa0, 0x80], 1],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a byte never used', [0x61, 0x61, 0x61, 0xff], 3],
    ['a sequence cut by a new character', [0x61, 0xe6, 0x9d, 0x61], 1],
    ['a sequence cut by the end of the body', [0x61, 0x61, 0xf0, 0x9f, 0x98], 2],
  ];
  for (const [what, bytes, offset] of cases) {
    for (const size of [1, 2, 64]) assert.strictEqual(firstInvalid(Buffer.from(bytes), size), offset, `${what}, packets of ${size}`);
  }
});

test('only identity encoding and the UTF-8 charset are accepted: anything else is a 415 naming what is', () => {
  const request = (headers) => ({ headers });
  for (const headers of [{}, { 'content-type': 'text/csv' }, { 'content-type': 'application/json; charset=UTF-8' }, { 'content-type': 'text/csv;charset="utf-8"' }, { 'content-encoding': 'identity' }]) {
    assert.doesNotThrow(() => checkBodyDeclaration(request(headers)), JSON.stringify(headers));
  }
  const refusals = [
    [{ 'content-encoding': 'gzip' }, 'Content-Encoding gzip is not accepted: send the body uncompressed (identity)'],
    [{ 'content-encoding': 'identity, br' }, 'Content-Encoding br is not accepted: send the body uncompressed (identity)'],
    [{ 'content-type': 'text/csv; charset=iso-8859-1' }, 'charset iso-8859-1 is not accepted: send the body as UTF-8 (charset=utf-8, or no charset)'],
    [{ 'content-type': 'application/json; charset=utf-16' }, 'charset utf-16 is not accepted: send the body as UTF-8 (charset=utf-8, or no charset)'],
  ];
  for (const [headers, message] of refusals) {
    assert.throws(() => checkBodyDeclaration(request(headers)), (error) => {
      assert.strictEqual(error.status, 415);
      assert.deepStrictEqual(error.toJSON(), { error: message, accepted: { contentEncoding: ['identity'], charset: ['utf-8'] } });
      return true;
    });
  }
});

test('readJsonBody over HTTP: invalid UTF-8 is a 400 naming the offset, gzip and Latin-1 are 415, the server keeps serving', async () => {
  const answer = (res, status, body) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' }).end(text);
  };
  const server = http.createServer((req, res) => {
    readJsonBody(req, 1024).then(
      (body) => answer(res, 200, body),
      (error) => answer(res, error.status || 500, error),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  // Raw bytes on a socket: a client library would encode the text itself.
  const send = (headers, body) =>
    new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: Number(text.split(' ')[1]), body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });
        } catch (error) {
          reject(new Error(`not a JSON answer: ${text}`));
        }
      });
      socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}Content-Length: ${body.length}\r\n\r\n`);
      socket.end(body);
    });
  try {
    const json = 'Content-Type: application/json\r\n';
    const bad = Buffer.concat([Buffer.from('{"name": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]); // Latin-1 é
    assert.deepStrictEqual(await send(json, bad), { status: 400, body: { error: 'the body is not valid UTF-8: the byte sequence at byte offset 13 is not a UTF-8 character', byteOffset: 13 } });
    assert.strictEqual((await send(`${json}Content-Encoding: gzip\r\n`, Buffer.from('{}'))).status, 415);
    assert.strictEqual((await send('Content-Type: application/json; charset=latin1\r\n', Buffer.from('{}'))).status, 415);
    assert.deepStrictEqual(await send(json, Buffer.from('{"name": "café"}')), { status: 200, body: { name: 'café' } });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
