'use strict';
// The Node images' HEALTHCHECK: exits 0 when GET /healthz on this container's PORT answers 200 within the timeout.
// Plain http rather than fetch, so that it runs under Node 14 too.
const http = require('http');

const TIMEOUT_MS = 2000;
const port = Number(process.env.PORT);

function fail(reason) {
  console.error(`healthcheck: ${reason}`);
  process.exit(1);
}

if (!Number.isInteger(port) || port <= 0) fail(`PORT must be the service's port, got "${process.env.PORT}"`);
const request = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: TIMEOUT_MS }, (res) => {
  res.resume();
  if (res.statusCode === 200) process.exit(0);
  fail(`GET /healthz answered ${res.statusCode}`);
});
request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
request.on('error', (err) => fail(err.message));
