'use strict';
// A plain HTTP server of a test's own on the loopback, port 0, standing for a target: closed with its connections when
// the test ends, so that no test leaves a port or a socket behind.
const http = require('node:http');

/** Serves handler(req, res) on 127.0.0.1 at a free port until t ends; resolves its URL. */
async function serveOnPort0(t, handler) {
  const server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${server.address().port}`;
}

module.exports = { serveOnPort0 };
