'use strict';
// Where a JSON text first stops being JSON, for a user's own document: the line, the column and a short excerpt, so a
// 400 says where to look in a 30 MB export. JSON.parse's messages differ between Node lines and leave the position
// out for some errors (Node 24: `Unexpected token 'a', "abc" is not valid JSON`), so the lab reads the text itself, as
// RFC 8259 reads it (json-text-scan.js). Node 14 syntax.
const { JsonTextScan } = require('./json-text-scan');

const EXCERPT_CHARS = 24;

/**
 * {line, column, offset, excerpt, what} of an error {offset, what} in text (line and column from 1, in characters).
 * The excerpt is the text around it, at most EXCERPT_CHARS on either side.
 */
function placeError(text, { offset, what }) {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < lineStart; at = text.indexOf('\n', at + 1)) line++;
  const excerpt = text.slice(Math.max(0, offset - EXCERPT_CHARS), offset + EXCERPT_CHARS);
  return { line, column: offset - lineStart + 1, offset, excerpt, what };
}

/** placeError of the first place text is not JSON, or null for a JSON text. */
function locateJsonError(text) {
  const { error } = new JsonTextScan(text, { framesDepth: 0 }).run().result();
  return error ? placeError(text, error) : null;
}

module.exports = { locateJsonError, placeError };
