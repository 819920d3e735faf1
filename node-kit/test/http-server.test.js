'use strict';
// node-kit's server on port 0, over raw sockets: a head over Node's 16 KB limit is told apart by what overflowed it
// (a long target: 414, row 2; long headers: 431), however the bytes are split, and after the answers pipelined before.
const test = require('node:test');
const assert = require('node:assert');
const { createLabServer } = require('../http-server');
const { exchange } = require('@lab/test-kit/raw-http');

const X = 'x'.repeat(10000);

async function labServer(t) {
  const server = createLabServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end('{"status":"ok"}');
  }, { headersTimeoutMs: 10000, requestTimeoutMs: 60000 });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return server.address().port;
}

/** The statuses the server answered pieces (written one after another) with; it must close the connection. */
async function statusesFor(port, pieces) {
  const { answers, closed } = await exchange(port, pieces);
  assert.ok(closed, 'the server kept the connection open after its answers');
  return answers.map((a) => a.status);
}

test('a target over the head limit gets 414, in one write or two', async (t) => {
  const port = await labServer(t);
  const head = ` HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  assert.deepStrictEqual(await statusesFor(port, [`GET /healthz?q=${X}${X}${head}`]), [414]);
  assert.deepStrictEqual(await statusesFor(port, [`GET /healthz?q=${X}`, `${X}${head}`]), [414]);
});

test('headers over the head limit get 431, in one write or two', async (t) => {
  const port = await labServer(t);
  const head = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ';
  assert.deepStrictEqual(await statusesFor(port, [`${head}${X}${X}\r\n\r\n`]), [431]);
  assert.deepStrictEqual(await statusesFor(port, [`${head}${X}`, `${X}\r\n\r\n`]), [431]);
});

test('a target over the head limit pipelined after a valid request: 200, then 414', async (t) => {
  const port = await labServer(t);
  const valid = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  assert.deepStrictEqual(await statusesFor(port, [`${valid}GET /healthz?q=${X}${X} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`]), [200, 414]);
});
