'use strict';
// Node's http.Server as every HTTP face of the lab runs it (the services and the load driver): a request head that
// Node's parser refuses gets the contract's JSON refusal (CONTRACT.md "Errors", row 1) instead of Node's bare status
// line, and slow or silent clients are cut off ("Clients that stall"). Node 14 and 24.
const http = require('http');

/** The timeouts, from the environment (CONTRACT.md names and defaults). */
function stallTimeouts(envInteger) {
  return {
    headersTimeoutMs: envInteger('HEADERS_TIMEOUT_MS', 10000),
    requestTimeoutMs: envInteger('REQUEST_TIMEOUT_MS', 60000),
    stalledClientTimeoutMs: envInteger('STALLED_CLIENT_TIMEOUT_MS', 10000),
  };
}

// What Node's parser reports, and the status each gets; everything else is a malformed request.
const PARSER_STATUS = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408, HPE_HEADER_TIMEOUT: 408 };
const PARSER_MESSAGE = {
  431: 'the request head is larger than the server accepts',
  408: 'the request did not arrive in time',
  400: 'malformed request: a method HTTP does not define, or a broken request line or header',
};

function answerClientError(err, socket) {
  // A connection reset, or a response whose head already went out: nothing more can be answered.
  if (err.code === 'ECONNRESET' || !socket.writable || (socket._httpMessage && socket._httpMessage.headersSent)) {
    socket.destroy();
    return;
  }
  const status = PARSER_STATUS[err.code] || 400;
  const body = JSON.stringify({ error: PARSER_MESSAGE[status] });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * An http.Server for handler with the lab's refusals and timeouts ({headersTimeoutMs, requestTimeoutMs}; 0: none).
 * Node 18+ checks both every connectionsCheckingInterval: a fifth of the shorter one, so each is met within 20 %
 * (Node's default, 30 s, would let a 10 s head timeout run to 40 s). Node 14 times them per socket.
 */
function createLabServer(handler, { headersTimeoutMs, requestTimeoutMs }) {
  const timeouts = [headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0);
  const checkEveryMs = timeouts.length > 0 ? Math.max(100, Math.floor(Math.min(...timeouts) / 5)) : 30000;
  const server = http.createServer({ connectionsCheckingInterval: checkEveryMs }, handler);
  // Node does not cut a request before its head timeout, whatever requestTimeout says: the head's is at most that.
  server.headersTimeout = requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.on('clientError', answerClientError);
  return server;
}

module.exports = { createLabServer, stallTimeouts, answerClientError };
