'use strict';
// Where a JSON text first stops being JSON, for a user's own document: the line, the column and a short excerpt, so a
// 400 says where to look in a 30 MB export. JSON.parse's messages differ between Node lines and leave the position
// out for some errors (Node 24: `Unexpected token 'a', "abc" is not valid JSON`), so the text is scanned once more,
// as RFC 8259 reads it, only after JSON.parse has refused it. Node 14 syntax.

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const ESCAPES = '"\\/bfnrt';
const LITERALS = ['true', 'false', 'null'];
const EXCERPT_CHARS = 24;

const isSpace = (c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** 'x' for a visible character, U+0001 for any other. */
function describe(ch) {
  const code = ch.charCodeAt(0);
  return code > 0x20 && code < 0x7f ? `'${ch}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The end of the string literal starting at text[at] ('"'), or {offset, what} where it breaks. */
function endOfString(text, at) {
  let i = at + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return { offset: i, what: `a control character (${describe(text[i])}) inside a string: escape it` };
    if (c === 0x5c) {
      const escaped = text[i + 1];
      if (escaped === undefined) break;
      if (escaped === 'u') {
        HEX4.lastIndex = i + 2;
        if (!HEX4.test(text)) return { offset: i, what: 'a \\u escape without four hex digits' };
        i += 6;
        continue;
      }
      if (!ESCAPES.includes(escaped)) return { offset: i, what: `an unknown escape \\${escaped}` };
      i += 2;
      continue;
    }
    i++;
  }
  return { offset: text.length, what: 'the end of the text inside a string' };
}

/** The end of the number or literal starting at text[at], or -1. */
function endOfScalar(text, at) {
  for (const literal of LITERALS) if (text.startsWith(literal, at)) return at + literal.length;
  NUMBER.lastIndex = at;
  const match = NUMBER.exec(text);
  return match ? at + match[0].length : -1;
}

/** {offset, what} of the first place text is not JSON, or null if it is JSON. */
function firstError(text) {
  const open = []; // '{' or '[' of each container entered and not closed
  let expect = 'value'; // value | value-or-close | key | key-or-close | colon | comma-or-close | end
  let i = 0;
  const afterValue = () => (open.length === 0 ? 'end' : 'comma-or-close');
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) return expect === 'end' ? null : { offset: i, what: `the end of the text where ${expected(expect, open)} was expected` };
    const ch = text[i];
    if (expect === 'end') return { offset: i, what: `${describe(ch)} after the end of the document` };
    if (expect === 'colon') {
      if (ch !== ':') return { offset: i, what: `${describe(ch)} where ':' was expected` };
      i++;
      expect = 'value';
    } else if (expect === 'comma-or-close') {
      const container = open[open.length - 1];
      const close = container === '{' ? '}' : ']';
      if (ch === ',') {
        i++;
        expect = container === '{' ? 'key' : 'value';
      } else if (ch === close) {
        open.pop();
        i++;
        expect = afterValue();
      } else {
        return { offset: i, what: `${describe(ch)} where ',' or '${close}' was expected` };
      }
    } else if (expect === 'key' || expect === 'key-or-close') {
      if (expect === 'key-or-close' && ch === '}') {
        open.pop();
        i++;
        expect = afterValue();
      } else if (ch === '"') {
        const end = endOfString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        expect = 'colon';
      } else {
        return { offset: i, what: `${describe(ch)} where a key (a string in double quotes) was expected` };
      }
    } else if (expect === 'value-or-close' && ch === ']') {
      open.pop();
      i++;
      expect = afterValue();
    } else if (ch === '{' || ch === '[') {
      open.push(ch);
      i++;
      expect = ch === '{' ? 'key-or-close' : 'value-or-close';
    } else if (ch === '"') {
      const end = endOfString(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      expect = afterValue();
    } else {
      const end = endOfScalar(text, i);
      if (end < 0) return { offset: i, what: `${describe(ch)} where a value was expected` };
      i = end;
      expect = afterValue();
    }
  }
}

function expected(expect, open) {
  const close = open[open.length - 1] === '{' ? '}' : ']';
  return { value: 'a value', 'value-or-close': "a value or ']'", key: 'a key', 'key-or-close': "a key or '}'", colon: "':'", 'comma-or-close': `',' or '${close}'` }[expect];
}

/**
 * {line, column, offset, excerpt, what} of the first place text is not JSON (line and column from 1, in characters),
 * or null for a JSON text. The excerpt is the text around it, at most EXCERPT_CHARS on either side.
 */
function locateJsonError(text) {
  const error = firstError(text);
  if (!error) return null;
  const lineStart = text.lastIndexOf('\n', error.offset - 1) + 1;
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < lineStart; at = text.indexOf('\n', at + 1)) line++;
  const excerpt = text.slice(Math.max(0, error.offset - EXCERPT_CHARS), error.offset + EXCERPT_CHARS);
  return { line, column: error.offset - lineStart + 1, offset: error.offset, excerpt, what: error.what };
}

module.exports = { locateJsonError };
