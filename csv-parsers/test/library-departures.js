'use strict';
// Where a library departs from this folder's CSV rules, by MALFORMED case name (corpus.js): pinned, so that a
// change in the library's behaviour fails the test. csv-parse accepts a carriage return that does not end a line
// as data, where RFC 4180 (and our parsers) reject it; on every other case it agrees with the expected rows, and
// on the other malformed inputs it throws (its own messages: it counts lines, not records).
const CSV_PARSE = { accepts: ['a lone \\r outside quotes', 'a \\r at the end of input'] };

module.exports = { CSV_PARSE };
