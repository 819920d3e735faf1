'use strict';
// Node's http.Server as every HTTP face of the lab runs it (the services and the load driver): a request head that
// Node's parser refuses gets the contract's JSON refusal (CONTRACT.md "Errors", rows 1 and 2) instead of Node's bare
// status line, after the answers to the requests before it on its connection; requests Node would answer itself
// (an unknown Expect, CONNECT, no Host) reach the contract's checks instead; slow or silent clients are cut off
// ("Clients that stall"). Node 14 and 24.
const http = require('http');
const { clientErrorAnswer } = require('./client-errors');
const { owe, answerLast, endWith } = require('./answer-order');
const { guardLenientHeads } = require('./lenient-head-guard');

/** The timeouts, from the environment (CONTRACT.md names and defaults). */
function stallTimeouts(envInteger) {
  return {
    headersTimeoutMs: envInteger('HEADERS_TIMEOUT_MS', 10000),
    requestTimeoutMs: envInteger('REQUEST_TIMEOUT_MS', 60000),
    stalledClientTimeoutMs: envInteger('STALLED_CLIENT_TIMEOUT_MS', 10000),
  };
}

/**
 * A CONNECT request (Node hands its connection over instead of emitting 'request', and cuts it when nobody listens)
 * goes through handler like any other, as the connection's last answer: the contract's checks refuse it (its target
 * is neither a path nor an absolute URL: row 3) with JSON.
 */
function answerConnect(handler) {
  return (req, socket) => {
    socket.on('error', () => socket.destroy()); // Node took its own listeners off with the connection
    answerLast(socket, () => {
      const res = new http.ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket);
      res.on('finish', () => socket.end());
      handler(req, res);
    });
  };
}

/**
 * An http.Server for handler with the lab's refusals and timeouts ({headersTimeoutMs, requestTimeoutMs}; 0: none).
 * Node 18+ checks both every connectionsCheckingInterval: a fifth of the shorter one, so each is met within 20 %
 * (Node's default, 30 s, would let a 10 s head timeout run to 40 s). Node 14 times them per socket.
 */
function createLabServer(handler, { headersTimeoutMs, requestTimeoutMs }) {
  const timeouts = [headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0);
  const checkEveryMs = timeouts.length > 0 ? Math.max(100, Math.floor(Math.min(...timeouts) / 5)) : 30000;
  // requireHostHeader: false (Node 24; Node 14 has no such check) lets a request without Host reach checkHead, which
  // answers it with JSON (Node's own answer is a bare 400).
  const answer = (req, res) => {
    owe(req, res);
    handler(req, res);
  };
  const server = http.createServer({ connectionsCheckingInterval: checkEveryMs, requireHostHeader: false }, answer);
  // Node does not cut a request before its head timeout, whatever requestTimeout says: the head's is at most that.
  server.headersTimeout = requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.on('clientError', (err, socket) => {
    if (err.code === 'ECONNRESET') socket.destroy();
    else endWith(socket, clientErrorAnswer(err, socket));
  });
  // An Expect other than 100-continue: Node's own answer is a bare 417; checkHead (request-head.js) gives the JSON one.
  server.on('checkExpectation', answer);
  server.on('connect', answerConnect(handler));
  guardLenientHeads(server);
  return server;
}

module.exports = { createLabServer, stallTimeouts };
