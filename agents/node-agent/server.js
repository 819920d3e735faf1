'use strict';
// The side port: a plain http server of the agent's own, beside whatever the user's process serves. Its routes and
// answers are the lab's contract's (CONTRACT.md "Errors": JSON refusals naming what is allowed; /healthz and /metrics
// for any Host, every other route behind same-site.js' rules). The server and each connection are unref'd: the
// agent never keeps the user's process alive. Nothing it does throws into the user's code: a failure of a route is a
// 500 answer. Node 14 syntax.
const http = require('http');
const { routeRefusal, ownNames } = require('./same-site');
const { profileHandler, refusal } = require('./profile');

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** A query string to {name: [values]}, or a 400 refusal for an escape that cannot be decoded. */
function parseQuery(search) {
  const query = {};
  if (!search) return query;
  for (const part of search.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let name;
    let value;
    try {
      name = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
      value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    } catch (err) {
      throw refusal(400, `the query has a malformed escape: ${JSON.stringify(part)}`);
    }
    if (!Object.prototype.hasOwnProperty.call(query, name)) query[name] = [];
    query[name].push(value);
  }
  return query;
}

function send(req, res, status, type, body, headers) {
  const buffer = Buffer.from(body);
  res.writeHead(status, Object.assign({ 'Content-Type': type, 'Content-Length': buffer.length, 'Cache-Control': 'no-store' }, headers || {}));
  res.end(req.method === 'HEAD' ? undefined : buffer);
}

const sendJson = (req, res, status, value, headers) => send(req, res, status, 'application/json; charset=utf-8', JSON.stringify(value), headers);

/**
 * The route table: {'GET /metrics': handler, ...}, each handler (req, res, query) -> the answer's body (a string is
 * Prometheus' text, anything else JSON) or a promise of it. agent: {metrics, info()}.
 */
function routesOf(agent, settings) {
  const routes = {
    'GET /metrics': () => agent.metrics.text(),
    'GET /healthz': () => ({ status: 'ok' }),
    'GET /info': () => agent.info(),
  };
  // Without a token the route does not exist: 404, and it is not listed.
  if (settings.profileToken) routes['POST /profile'] = profileHandler(settings.profileToken);
  return routes;
}

/** The server, not yet listening: createAgentServer(agent, settings).listen(...). */
function createAgentServer(agent, settings) {
  const routes = routesOf(agent, settings);
  const names = ownNames(settings.hostNames);
  const paths = Array.from(new Set(Object.keys(routes).map((r) => r.split(' ')[1])));
  async function handle(req, res) {
    const target = req.url || '/';
    const question = target.indexOf('?');
    const pathname = question < 0 ? target : target.slice(0, question);
    // HEAD is GET without the body, as the services answer it.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = `${method} ${pathname}`;
    if (!paths.includes(pathname)) {
      return sendJson(req, res, 404, { error: `no route ${req.method} ${pathname}`, routes: Object.keys(routes) });
    }
    if (!routes[route]) {
      const allowed = Object.keys(routes).filter((r) => r.endsWith(` ${pathname}`)).map((r) => r.split(' ')[0]);
      return sendJson(req, res, 405, { error: `${req.method} is not allowed on ${pathname}`, allowed }, { Allow: allowed.join(', ') });
    }
    const refused = routeRefusal(route, req, names);
    if (refused) return sendJson(req, res, refused.status, { error: refused.error, allowed: refused.allowed });
    const body = await routes[route](req, res, parseQuery(question < 0 ? '' : target.slice(question + 1)));
    if (res.destroyed || res.writableEnded) return undefined;
    return typeof body === 'string' ? send(req, res, 200, PROMETHEUS_TEXT, body) : sendJson(req, res, 200, body);
  }
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (res.headersSent || res.destroyed) return;
      if (err && err.status) sendJson(req, res, err.status, Object.assign({ error: err.message }, err.details), err.headers);
      else sendJson(req, res, 500, { error: `the agent failed: ${err && err.message}` });
    });
  });
  server.on('connection', (socket) => socket.unref());
  server.unref();
  return server;
}

module.exports = { createAgentServer, parseQuery };
