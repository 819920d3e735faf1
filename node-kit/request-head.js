'use strict';
// Rows 1a, 1b, 1d and 1e of CONTRACT.md's "Errors" table on a request head Node has parsed: what Node 24's parser
// lets through (two Host headers, no Host, a version other than 1.0 and 1.1 written well, a coding other than
// chunked, an unknown Expect), and what Node 14's more lenient parser also lets through (a header name that is not a
// token, a control character in a value, HTTP/1.2), read from req.rawHeaders and req.httpVersion. What only the raw
// bytes show (bare LF line ends, folded headers) is lenient-head-guard.js's. Node 14 syntax.
const { malformed } = require('./errors');

const VERSIONS = ['HTTP/1.0', 'HTTP/1.1'];
// RFC 9110's token: the characters a header name may have.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A value may hold visible characters, spaces and tabs; any other control character (and DEL) is refused.
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const VALUE_REFUSED = /[\x00-\x08\x0a-\x1f\x7f]/;

const brokenHead = (message, details) => malformed(400, message, details);

/** 505 unless the request is HTTP/1.0 or HTTP/1.1 (Node reads a request line without a version as HTTP/0.9). */
function checkVersion(req) {
  if (!VERSIONS.includes(`HTTP/${req.httpVersion}`)) {
    throw malformed(505, `the request line must end in HTTP/1.0 or HTTP/1.1 (read as HTTP/${req.httpVersion})`, { allowed: VERSIONS });
  }
}

/** The header lines as sent: names are tokens, values free of control characters. */
function checkHeaderLines(rawHeaders) {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (!TOKEN.test(rawHeaders[i])) throw brokenHead('malformed request: a header name must be a token (no spaces or separators)');
    if (VALUE_REFUSED.test(rawHeaders[i + 1])) throw brokenHead(`malformed request: header ${rawHeaders[i]} has a control character`);
  }
}

/** One Host (none allowed only in HTTP/1.0), a Transfer-Encoding of chunked alone, an Expect of 100-continue alone. */
function checkHeaderMeaning(req) {
  const names = req.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
  const hosts = names.filter((name) => name === 'host').length;
  if (hosts > 1) throw brokenHead('malformed request: more than one Host header');
  if (hosts === 0 && req.httpVersion === '1.1') throw brokenHead('malformed request: an HTTP/1.1 request needs a Host header');
  const codings = names.filter((name) => name === 'transfer-encoding').length;
  if (codings > 1 || (codings === 1 && req.headers['transfer-encoding'].trim().toLowerCase() !== 'chunked')) {
    throw brokenHead('malformed request: the only Transfer-Encoding accepted is chunked', { allowed: ['chunked'] });
  }
  const expect = req.headers.expect;
  if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') {
    throw malformed(417, `the expectation ${JSON.stringify(expect.slice(0, 64))} cannot be met`, { allowed: ['100-continue'] });
  }
}

/** Rows 1a-1e's checks on a parsed request head, after the method's (row 1, route-table.js): throws the refusal. */
function checkHead(req) {
  checkVersion(req);
  checkHeaderLines(req.rawHeaders);
  checkHeaderMeaning(req);
}

module.exports = { checkHead, VERSIONS };
