'use strict';
// What fast-parse's modules read JSON text with (fast-parse.md): the kinds of container, the characters that
// separate values, the sticky regular expressions shared by the walk (one each: every use sets lastIndex first), and
// native's error for a position in the text. Node 14 syntax.
const { performance } = require('perf_hooks');

const ARRAY = 1;
const OBJECT = 2;
const STRING = 3;

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

// JSON whitespace, forwards.
const WS = /[ \t\n\r]*/y;
// The rest of a string: stops at its closing quote, at a backslash that does not start a valid escape (or one cut by
// the window's end), or at the window's end.
const STRING_REST = /[^"\\]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\]*)*/y;
// A member's key and colon, with the whitespace around them.
const MEMBER_HEAD = /[ \t\n\r]*"[^"\\]*(?:\\[^][^"\\]*)*"[ \t\n\r]*:[ \t\n\r]*/y;

// Read through performance at each call: the work-count guard (test/work-counts.js) puts a clock of its own there.
const now = () => performance.now();
const isWhitespace = (code) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** The position of `character` in window at or past `from`, or the window's length when there is none. */
function indexIn(window, character, from) {
  const at = window.indexOf(character, from);
  return at < 0 ? window.length : at;
}

/** A SyntaxError at position `at` of the parser's text, worded as native's. */
function syntaxError(parser, at, reason) {
  if (reason === undefined && at >= parser.length) return new SyntaxError('Unexpected end of JSON input');
  const what = reason || `Unexpected token ${JSON.stringify(parser.text.charAt(at))}`;
  return new SyntaxError(`${what} in JSON at position ${at}`);
}

/** An own data property, like JSON.parse's CreateDataProperty: "__proto__" must not reach the prototype setter. */
function setMember(object, key, value) {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

module.exports = {
  ARRAY,
  OBJECT,
  STRING,
  QUOTE,
  COMMA,
  COLON,
  BACKSLASH,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  OPEN_BRACE,
  CLOSE_BRACE,
  WS,
  STRING_REST,
  MEMBER_HEAD,
  now,
  isWhitespace,
  indexIn,
  syntaxError,
  setMember,
};
