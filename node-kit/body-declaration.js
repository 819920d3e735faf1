'use strict';
// A request body is read only as its headers declare it, and only declarations the lab can read are taken: no
// Content-Encoding but identity (a gzipped body would otherwise be parsed as if it were its text) and no charset but
// UTF-8 (a Latin-1 body would be decoded as UTF-8). Anything else is a 415 naming what is accepted. Node 14 syntax.
const { HttpError } = require('./errors');

const ACCEPTED = { contentEncoding: ['identity'], charset: ['utf-8'] };

const unsupported = (message) => new HttpError(415, message, { accepted: ACCEPTED });

/** The charset parameter of a Content-Type, lower case, or undefined. */
function charsetOf(contentType) {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType || '');
  return match ? (match[1] !== undefined ? match[1] : match[2]).toLowerCase() : undefined;
}

/** Throws HttpError 415 unless req's body is declared as identity-encoded UTF-8 (or declares nothing). */
function checkBodyDeclaration(req) {
  const encodings = (req.headers['content-encoding'] || '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  const other = encodings.find((name) => name !== 'identity');
  if (other !== undefined) throw unsupported(`Content-Encoding ${other} is not accepted: send the body uncompressed (identity)`);
  const charset = charsetOf(req.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8') throw unsupported(`charset ${charset} is not accepted: send the body as UTF-8 (charset=utf-8, or no charset)`);
}

module.exports = { checkBodyDeclaration, ACCEPTED };
