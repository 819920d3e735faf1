'use strict';
// The driver's own HTTP face: /healthz and /metrics like every lab service, plus POST /runs?suite=NAME to start a
// suite on demand and GET /runs/latest to follow it (what `run-suite.js` and the integration test use).
const http = require('node:http');
const { suiteNames } = require('./suites');

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function createServer({ runner, metrics, suitesDir }) {
  let shuttingDown = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://load');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /healthz') return sendJson(res, shuttingDown ? 503 : 200, { status: shuttingDown ? 'shutting-down' : 'ok' });
    if (route === 'GET /metrics') {
      return metrics.registry.metrics().then((text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(text);
      });
    }
    if (route === 'GET /runs/latest') {
      const latest = runner.latest();
      return latest ? sendJson(res, 200, latest) : sendJson(res, 404, { error: 'no suite has run yet' });
    }
    if (route === 'POST /runs') {
      const suite = url.searchParams.get('suite');
      const suites = suiteNames(suitesDir);
      if (!suites.includes(suite)) return sendJson(res, 400, { error: `suite must be one of ${suites.join(', ')}`, parameter: 'suite', allowed: suites });
      try {
        runner.start(suite, url.searchParams.get('loop') === '1');
      } catch (err) {
        return sendJson(res, 409, { error: err.message });
      }
      return sendJson(res, 202, { suite, status: '/runs/latest' });
    }
    return sendJson(res, 404, { error: `no route ${route}`, routes: ['GET /healthz', 'GET /metrics', 'GET /runs/latest', 'POST /runs?suite=NAME'] });
  });
  server.markShuttingDown = () => {
    shuttingDown = true;
  };
  return server;
}

module.exports = { createServer };
