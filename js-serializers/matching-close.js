'use strict';
/**
 * Where the container that opens at `from` in `region` closes: its closing bracket found by counting the brackets of
 * its own kind alone ('[' and ']' for an array, '{' and '}' for an object), each found by indexOf (vectorized in V8).
 * Brackets of the other kind need no count: in JSON they nest inside the container's, so an object of objects is read
 * brace by brace and its arrays are skipped whole. Blind to strings: a bracket in a string misleads the count, so the
 * caller must check what it gives (fast-parse/members.js parses the container from there, and JSON.parse of a slice that
 * starts at a value's start and ends with a bracket accepts only the slice that ends where that value does).
 * Returns the position of the closing bracket, or -1 when the region ends first. Node 14 syntax.
 */
function matchingClose(region, from, opening, closing) {
  const length = region.length;
  let depth = 0;
  let open = region.indexOf(opening, from + 1);
  let close = region.indexOf(closing, from + 1);
  if (open < 0) open = length;
  while (close >= 0) {
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

module.exports = { matchingClose };
