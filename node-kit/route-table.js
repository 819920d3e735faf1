'use strict';
// Rows 1, 4 and 5 of CONTRACT.md's "Errors" table: which requests no route takes (404), which routes have the path
// but not the method (405), and which methods HTTP does not define (400). Matching is exact and case-sensitive,
// segment by segment (`:name` matches one segment), unlike express's defaults (case-insensitive, trailing slash
// optional), so that every runtime refuses the same paths. Node 14 syntax.
const { HttpError, malformed } = require('./errors');

// RFC 9110's methods and PATCH. Node's parser takes a few dozen more (WebDAV and others): those are refused here.
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];

/** The method as a metric label: one of HTTP_METHODS or `other`, so that no request can add a series of its own. */
const methodLabel = (method) => (HTTP_METHODS.includes(method) ? method : 'other');

/** Row 1: a method HTTP does not define is a malformed request. */
function checkMethod(method) {
  if (!HTTP_METHODS.includes(method)) throw malformed(400, `malformed request: ${method} is not an HTTP method`);
}

/**
 * routes: ['GET /healthz', 'GET /run/:workload', ...]. Returns check(method, segments), which throws the refusal of
 * rows 4 and 5.
 */
function routeTable(routes) {
  const table = routes.map((route) => {
    const [method, pattern] = route.split(' ');
    return { method, segments: pattern.slice(1).split('/') };
  });
  const matches = (route, segments) =>
    route.segments.length === segments.length && route.segments.every((s, i) => (s.startsWith(':') ? segments[i] !== '' : s === segments[i]));
  return function check(method, segments) {
    const allowed = table.filter((route) => matches(route, segments)).map((route) => route.method);
    if (allowed.length === 0) throw new HttpError(404, `no route /${segments.join('/')}`, { routes });
    if (!allowed.includes(method)) {
      throw new HttpError(405, `${method} is not allowed here`, { allowed }, { Allow: allowed.join(', ') });
    }
  };
}

module.exports = { routeTable, checkMethod, methodLabel, HTTP_METHODS };
