'use strict';
// Rows 2, 3 and 7 of CONTRACT.md's "Errors" table: the raw request target becomes a path and a raw query, and the
// query (read after the route checks, as the table orders them) a strict list of parameters, or an HttpError. Written for the raw `req.url` of Node's http server, before any framework has read it, so
// the services and the load driver refuse the same targets the same way. Node 14 syntax, no dependencies.
const { malformed } = require('./errors');

const MAX_TARGET_BYTES = 4096;

// RFC 3986: a path segment is pchars (unreserved, sub-delims, ':' and '@') and percent escapes.
const PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+$/;
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
// A query may hold any visible ASCII but '#': a fragment is never sent to a server, a raw byte over 0x7E or a
// control byte belongs in a % escape. (Node 24's parser refuses those bytes itself; Node 14's passes them on.)
const QUERY_REFUSED = /[^\x21-\x7e]|#/;
// What no decoded path segment or query name or value may hold: C0 controls and DEL (`%00`, `%0A`, `%7F`).
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const CONTROL = /[\x00-\x1f\x7f]/;

const badTarget = (message) => malformed(400, message);

/**
 * Reads a raw request target (origin-form `/path?query`, or absolute-form `http://host:port/path?query`).
 * Returns {path, segments, rawQuery}: the decoded path, its decoded segments, and the query as sent (readQuery reads
 * it). Throws HttpError 414 or 400.
 */
function readTarget(raw) {
  if (Buffer.byteLength(raw, 'utf8') > MAX_TARGET_BYTES) {
    throw malformed(414, `the request target is longer than ${MAX_TARGET_BYTES} bytes`, { limitBytes: MAX_TARGET_BYTES });
  }
  const target = ABSOLUTE.test(raw) ? originOf(raw) : raw;
  const queryAt = target.indexOf('?');
  const rawPath = queryAt < 0 ? target : target.slice(0, queryAt);
  if (!PATH.test(rawPath)) throw badTarget('the request target must be a path of RFC 3986 characters, starting with /');
  const rawQuery = queryAt < 0 ? '' : target.slice(queryAt + 1);
  if (QUERY_REFUSED.test(rawQuery)) throw badTarget('the query string must be visible ASCII without #: escape other bytes with %, and send no fragment');
  const segments = rawPath.slice(1).split('/').map((segment) => decode(segment, 'the path'));
  if (segments.some((segment) => segment === '.' || segment === '..')) throw badTarget('the path must not contain . or .. segments');
  return { path: `/${segments.join('/')}`, segments, rawQuery };
}

/** The path and query of an absolute-form target, whose scheme, host and port must make a valid http(s) URL. */
function originOf(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch (err) {
    throw badTarget('the request target is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badTarget('an absolute request target must be an http or https URL');
  const authorityEnd = raw.slice(raw.indexOf('//') + 2).search(/[/?]/);
  if (authorityEnd < 0) return '/';
  const rest = raw.slice(raw.indexOf('//') + 2 + authorityEnd);
  return rest.startsWith('?') ? `/${rest}` : rest;
}

/**
 * A query string as a null-prototype {name: [values]} (values in order; no name can reach Object.prototype): split on
 * '&' and the first '=', '+' is a space. Throws HttpError 400 on a malformed escape, one that is not UTF-8 or one that
 * decodes to a control character.
 */
function readQuery(text) {
  const query = Object.create(null);
  for (const part of text.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = decode((equals < 0 ? part : part.slice(0, equals)).replace(/\+/g, ' '), 'the query string');
    const value = equals < 0 ? '' : decode(part.slice(equals + 1).replace(/\+/g, ' '), 'the query string');
    if (query[name] === undefined) query[name] = [];
    query[name].push(value);
  }
  return query;
}

function decode(text, where) {
  let decoded;
  try {
    decoded = decodeURIComponent(text);
  } catch (err) {
    throw badTarget(`${where} has a malformed % escape, or one that is not UTF-8`);
  }
  if (CONTROL.test(decoded)) throw badTarget(`${where} has an escape of a control character (%00-%1F, %7F)`);
  return decoded;
}

module.exports = { readTarget, readQuery, MAX_TARGET_BYTES };
