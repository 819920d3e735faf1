'use strict';
// What every request passes before express sees it: the HTTP metric, and the checks CONTRACT.md's "Errors" table makes
// before a route runs (method, head, target, path, route), in the table's order. Done outside express because express
// answers some targets itself, with HTML (`GET http://[` is its "Cannot GET" page), and its routing is looser than
// the contract's (case-insensitive, trailing slash optional). Node 14 syntax.
const { readTarget, readQuery } = require('./request-target');
const { routeTable, checkMethod, methodLabel } = require('./route-table');
const { checkHead } = require('./request-head');
const { sendError } = require('./answers');

function observeHttp(metrics, req, res) {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const route = req.route ? req.baseUrl + req.route.path : 'unmatched';
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.httpDuration.observe({ method: methodLabel(req.method), route, status_code: String(res.statusCode) }, seconds);
  });
}

/**
 * The checks of CONTRACT.md's table up to the query, in its order, for a request (Node's, as parsed: method, head and
 * raw url) and routes (routeTable's check); checkRouted(segments, req) (optional) runs once the route is known and
 * before the query is read: row 6, a service's check of a route's parameter (an unknown workload), then row 6a, the
 * Host and other sites' pages (cross-site.js). Returns {path, segments, rawQuery, query} or throws the refusal.
 */
function checkRequest(check, req, checkRouted) {
  checkMethod(req.method);
  checkHead(req);
  const target = readTarget(req.url);
  check(req.method, target.segments);
  if (checkRouted) checkRouted(target.segments, req);
  return Object.assign(target, { query: readQuery(target.rawQuery) });
}

/**
 * A Node request handler around app (express) for routes (['GET /healthz', ...]) and checkRouted (see checkRequest):
 * refused requests are answered here; the others reach app in their checked form: the target rewritten to its
 * canonical path, and req.query the one strict reading of the query ({name: [values]}, null prototype).
 */
function gate(app, routes, metrics, checkRouted) {
  const check = routeTable(routes);
  return function handle(req, res) {
    observeHttp(metrics, req, res);
    let target;
    try {
      target = checkRequest(check, req, checkRouted);
    } catch (err) {
      sendError(res, err, req);
      return;
    }
    req.url = `/${target.segments.map(encodeURIComponent).join('/')}${target.rawQuery === '' ? '' : `?${target.rawQuery}`}`;
    Object.defineProperty(req, 'query', { value: target.query, enumerable: true, configurable: true, writable: true });
    app(req, res);
  };
}

module.exports = { gate, checkRequest };
