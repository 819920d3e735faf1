'use strict';
/**
 * Where the container that opens at `from` in `region` closes: its closing bracket found by counting the brackets of
 * its own kind alone ('[' and ']' for an array, '{' and '}' for an object), each found by indexOf (vectorized in V8).
 * Brackets of the other kind need no count: in JSON they nest inside the container's, so an object of objects is read
 * brace by brace and its arrays are skipped whole. Blind to strings: a bracket in a string misleads the count, so the
 * caller must check what it gives (fast-parse/members.js parses the container from there, and JSON.parse of a slice that
 * starts at a value's start and ends with a bracket accepts only the slice that ends where that value does).
 * Returns the position of the closing bracket, or -1 when the region ends first or past `maxBrackets` brackets (each
 * an indexOf call: a text dense in brackets costs its calls, not its characters). Node 14 syntax.
 */
function matchingClose(region, from, opening, closing, maxBrackets = Infinity) {
  const length = region.length;
  let depth = 0;
  let brackets = 0;
  let open = region.indexOf(opening, from + 1);
  let close = region.indexOf(closing, from + 1);
  if (open < 0) open = length;
  while (close >= 0) {
    if (++brackets > maxBrackets) return -1;
    if (open < close) {
      depth++;
      open = region.indexOf(opening, open + 1);
      if (open < 0) open = length;
    } else {
      if (depth === 0) return close;
      depth--;
      close = region.indexOf(closing, close + 1);
    }
  }
  return -1;
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * Where the container that opens at `from` in `region` closes, told by the text's layout when it is printed a member
 * a line (JSON.stringify(value, null, n) and most pretty-printers): the first of its closing brackets that begins a
 * line at its own line's indentation. Each closing bracket is found by indexOf, as in matchingClose(), but no opening
 * one is: half the calls (GitHub's description, 1088 members of 12 KB: 1.9-2.3 ms where the count took 3.5-4.0), and a
 * bracket in a string cannot mislead it. A line's first character past its indentation begins a token (JSON's
 * strings hold no raw line break), so the bracket found is one; a text laid out otherwise can still make it another
 * container's (the caller checks, as for matchingClose()). `lineStart` is where the whitespace before the container's
 * member begins (after the comma or the opening bracket before it), `keyStart` where its key does. Returns the
 * closing bracket's position, or -1 when the member does not begin a line, the container does not break its line
 * after opening (empty, or written on one line), or the region ends first.
 */
function indentedClose(region, lineStart, keyStart, from, closing) {
  const next = region.charCodeAt(from + 1);
  if (next !== LINE_FEED && next !== CARRIAGE_RETURN) return -1;
  let indentStart = keyStart;
  while (indentStart > lineStart && (region.charCodeAt(indentStart - 1) === SPACE || region.charCodeAt(indentStart - 1) === TAB)) indentStart--;
  if (indentStart === lineStart || region.charCodeAt(indentStart - 1) !== LINE_FEED) return -1;
  const indent = region.slice(indentStart, keyStart);
  let close = from;
  for (;;) {
    close = region.indexOf(closing, close + 1);
    if (close < 0) return -1;
    if (region.charCodeAt(close - indent.length - 1) === LINE_FEED && region.startsWith(indent, close - indent.length)) return close;
  }
}

module.exports = { matchingClose, indentedClose };
