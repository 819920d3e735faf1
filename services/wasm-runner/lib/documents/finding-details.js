'use strict';
// What wasm-runner does with each finding in a user's document (node-kit/document-findings.js), said in its PUT
// /documents answer. Every approach carries the value JSON.parse made of the text (as the Node services do), and the
// C++ tree is built from JSON.stringify's text of that value (document-reference.js), so yyjson never reads the
// user's text in a run; what it would do with that text is said beside it. Each claim is checked against the module
// by test/documents.test.js.
const FINDING_DETAILS = {
  'large-integer': 'JSON.parse rounds the integer to the nearest double, and every approach carries that double: C++ keeps it as a double (not an int64) and it comes back as that double, not the digits sent. yyjson reading the text itself would read it exactly up to 2^64 (kept as the same nearest double) and as a double past that',
  'negative-zero': 'JSON.parse reads -0, and every approach carries it as the integer 0 (the C++ tree has no -0, and yyjson reading the text itself also gives 0): it comes back as 0',
  'duplicate-key': "JSON.parse keeps the last member's value in the place of the first, and that one member is what every approach carries; yyjson reading the text itself would keep every member, in order, and the json approach would write them all back",
  'lone-surrogate': 'the document is kept, but no approach carries it: a transfer run on it is refused with the string\'s path (the C++ tree holds UTF-8; yyjson refuses the \\u escape, msgpackr would write U+FFFD, embind a wrong character)',
  'number-format': "JSON.parse reads the value alone, and every approach carries that number (an integer within 2^53 - 1 as an integer, any other as a double), which comes back in JSON.stringify's shortest form; yyjson reading the text itself reads the same values (1.0 as 1, 1e2 as 100). A number past the double range (1e400) is Infinity to JSON.parse: only json carries it, as the null JSON.stringify writes, and the other approaches refuse it with its path",
};

module.exports = { FINDING_DETAILS };
