'use strict';
// How node-kit answers a refusal or a failure: the contract's JSON error on a plain Node ServerResponse (so that it
// works before express has seen the request as well as inside a route). Node 14 syntax.
const { HttpError } = require('./errors');

// What a body parser or express says about a request it refused (400 bad JSON, 413 too large, ...) is the client's
// error and is answered as one; anything else from a handler is a failure of the service.
function asClientError(err) {
  const status = err && (err.status || err.statusCode);
  if (err instanceof HttpError || !(status >= 400 && status < 500)) return err;
  const details = typeof err.limit === 'number' ? { limitBytes: err.limit } : {}; // the body parser's size cap
  return new HttpError(status, err.expose === false ? 'bad request' : err.message, details);
}

const hasUnreadBody = (req) => Boolean(req) && !req.complete && (Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding'] !== undefined);

/**
 * Answers err as JSON: an HttpError with its status, details and headers, anything else as a 500. Once the head of
 * the response went out, all that is left is to cut the connection.
 */
function sendError(res, err, req = res.req) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const client = err instanceof HttpError;
  const body = client ? err.toJSON() : { error: err && err.message ? err.message : String(err) };
  res.removeHeader('Trailer'); // set by a streamed run that failed before its first byte
  const headers = Object.assign({ 'Content-Type': 'application/json; charset=utf-8' }, client ? err.headers : {});
  // A refused request's body is not read: Node would otherwise read all of it to keep the connection.
  if (hasUnreadBody(req)) headers.Connection = 'close';
  for (const name of Object.keys(headers)) res.setHeader(name, headers[name]);
  const text = JSON.stringify(body);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.statusCode = client ? err.status : 500;
  res.end(text);
}

/**
 * Writes a failure of the service (anything sendError answers with a 500) to stderr once, with where it happened
 * ({workload, approach} of a run, or the route), since the 500's body names the error only to the client.
 */
function logUnexpected(err, where) {
  if (err instanceof HttpError) return;
  const place = Object.keys(where).map((k) => `${k}=${where[k]}`).join(' ');
  // A library may reject with an object that is no Error (yieldable-json's ParseError: a name, a message, and the
  // whole text it parsed): its name and message, never all of it.
  const what = err && err.stack ? err.stack : err && typeof err.message === 'string' ? `${err.name || 'error'}: ${err.message}` : String(err);
  console.error(`unexpected error (${place}): ${what}`);
}

module.exports = { sendError, asClientError, logUnexpected };
