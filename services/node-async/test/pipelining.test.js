'use strict';
// A request with a body that runs past its Content-Length, pipelined after a valid request: what follows the body is
// read as the next request, which is broken. Each valid request gets its answer, in order, then the 400, then the
// connection closes (CONTRACT.md "Errors").
const test = require('node:test');
const assert = require('node:assert');
const { startService } = require('@lab/test-kit');
const { checkPipeline, HOST } = require('@lab/test-kit/bad-requests');
const { makeService } = require('../src/service');

test('a body longer than its Content-Length, pipelined after GET /healthz: 200, 200, then the 400 and the close', async (t) => {
  const server = await startService(makeService());
  t.after(() => server.close());
  const body = '{"fibonacciN":1,"items":[{"id":1,"name":"a","value":1}]}';
  const bytes = `GET /healthz HTTP/1.1\r\n${HOST}\r\n` +
    `POST /api/optimized/process-data HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
    'garbage after the body\r\n\r\n';
  assert.deepStrictEqual(await checkPipeline(Number(new URL(server.url).port), bytes, [200, 200]), []);
});
