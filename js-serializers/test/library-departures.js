'use strict';
// Where the third-party approaches depart from native on the lab's corpora (conformance.js), per library version:
// the one list both services' conformance tests pin (the why after each case is what a run said). A change in a
// library's behaviour fails those tests: then update this file and README.md's summary. Node 14 syntax.

// yieldable-json 2.1.0: stringifyAsync on the torture corpus, parseAsync on the parse corpus.
const YIELDABLE_JSON = {
  stringify: [
    'top-level string with escapes', // different result
    'top-level function', // threw Error: Unexpected Character
    'top-level symbol', // threw Error: Unexpected Character
    'top-level toJSON returning undefined', // different result
    'top-level toJSON gets the empty key', // different result
    'top-level boxed string', // different result
    'skipped values: left out of objects, null in arrays', // different result
    'object with only skipped values', // different result
    'boxed primitives are unwrapped', // different result
    'boxed primitives unwrapped the way native does', // different result
    'keys that need escaping', // different result
    'sparse arrays: holes are null', // different result
    'lone surrogates and control characters', // different result
    'toJSON on nested values and Dates', // different result
    'toJSON gets the array index as a string, also far into a large array', // different result
    'toJSON gets the property key, also in a wide object', // different result
    'toJSON on functions is called', // different result
    'toJSON result is serialized without calling its own toJSON', // different result
    'toJSON on the prototype (class instances) and on an Array subclass', // different result
    'records with Dates and toJSON at every level', // different result
    'getters run once each, in order, interleaved with toJSON', // different result
    'a toJSON getter is read the way native reads it', // different result
    'index getters in a large array see the side effects of earlier elements', // different result
    'nested arrays, 5000 levels (past native on Node 24)', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'nested objects, 5000 levels (past native on Node 24)', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'long string with escapes and unicode (5 MB)', // different result
    'long ASCII strings, each with one character far in', // different result: control characters written raw
    'many medium strings', // different result
    'cycle through an object', // threw Error where native throws TypeError
    'cycle through an array', // returned a result where native throws TypeError
    'cycle to the root from deep inside a large array', // returned a result where native throws TypeError
    'cycle inside one element of a large array', // returned a result where native throws TypeError
    'cycle through a toJSON result', // returned a result where native throws TypeError
    'BigInt in an object', // returned a result where native throws TypeError
    'BigInt in an array', // returned a result where native throws TypeError
    'boxed BigInt', // returned a result where native throws TypeError
    'BigInt deep in a large array', // returned a result where native throws TypeError
  ],
  parse: [
    '__proto__ key is an own property', // different result
    '__proto__ key nested and in arrays', // different result
    'duplicate __proto__ keys', // different result
    'nested arrays, 10k levels', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'nested objects, 10k levels', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'nested arrays and objects alternating, 10k levels', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'nested arrays, 200k levels', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'deep tree with a large member before the next level', // different result
    'deep tree with a large member before the next level, pretty-printed', // different result
    'wide object with duplicate and __proto__ keys spread across it', // different result
    'long string with escapes and unicode (4 MB)', // did not finish
    'long string of \\u escapes', // did not finish
    'long string of escaped backslashes and quotes', // did not finish
    'long string without escapes beside a long one with them', // did not finish
    'long strings in an array and an object', // did not finish
    'records with a huge record and a huge string among them', // did not finish
    'empty text', // threw ParseError where native throws SyntaxError
    'only whitespace', // threw ParseError where native throws SyntaxError
    'non-JSON whitespace (no-break space)', // threw ParseError where native throws SyntaxError
    'byte order mark', // threw ParseError where native throws SyntaxError
    'comment', // threw ParseError where native throws SyntaxError
    'lone minus', // returned a result where native throws SyntaxError
    'plus sign', // threw ParseError where native throws SyntaxError
    'leading zero', // returned a result where native throws SyntaxError
    'negative leading zero', // returned a result where native throws SyntaxError
    'leading zeros in an array', // returned a result where native throws SyntaxError
    'trailing dot', // returned a result where native throws SyntaxError
    'leading dot', // threw ParseError where native throws SyntaxError
    'empty exponent', // returned a result where native throws SyntaxError
    'exponent sign only', // returned a result where native throws SyntaxError
    'hex number', // threw ParseError where native throws SyntaxError
    'NaN', // threw ParseError where native throws SyntaxError
    'Infinity', // threw ParseError where native throws SyntaxError
    '-Infinity', // threw ParseError where native throws SyntaxError
    'undefined', // threw ParseError where native throws SyntaxError
    'truncated literal', // threw ParseError where native throws SyntaxError
    'capitalized literal', // threw ParseError where native throws SyntaxError
    'single-quoted string', // threw ParseError where native throws SyntaxError
    'single-quoted key', // threw ParseError where native throws SyntaxError
    'unquoted key', // threw ParseError where native throws SyntaxError
    'trailing comma in an array', // threw ParseError where native throws SyntaxError
    'trailing comma in an object', // threw ParseError where native throws SyntaxError
    'leading comma', // threw ParseError where native throws SyntaxError
    'double comma', // threw ParseError where native throws SyntaxError
    'comma only', // returned a result where native throws SyntaxError
    'object comma only', // threw ParseError where native throws SyntaxError
    'missing comma', // returned a result where native throws SyntaxError
    'missing comma between members', // threw ParseError where native throws SyntaxError
    'missing colon', // threw ParseError where native throws SyntaxError
    'missing value', // threw ParseError where native throws SyntaxError
    'key without value', // threw ParseError where native throws SyntaxError
    'number as key', // threw ParseError where native throws SyntaxError
    'array as key', // returned a result where native throws SyntaxError
    'unclosed array', // threw ParseError where native throws SyntaxError
    'unclosed object', // threw ParseError where native throws SyntaxError
    'unclosed nested', // threw ParseError where native throws SyntaxError
    'extra closing bracket', // returned a result where native throws SyntaxError
    'mismatched brackets', // threw ParseError where native throws SyntaxError
    'mismatched braces', // threw ParseError where native throws SyntaxError
    'lone closing bracket', // threw ParseError where native throws SyntaxError
    'unterminated string', // threw ParseError where native throws SyntaxError
    'unterminated string in an array', // threw ParseError where native throws SyntaxError
    'escaped closing quote', // threw ParseError where native throws SyntaxError
    'bad escape', // returned a result where native throws SyntaxError
    'short unicode escape', // returned a result where native throws SyntaxError
    'bad unicode escape', // returned a result where native throws SyntaxError
    'escaped single quote', // returned a result where native throws SyntaxError
    'raw tab in a string', // returned a result where native throws SyntaxError
    'raw newline in a string', // returned a result where native throws SyntaxError
    'raw NUL in a string', // returned a result where native throws SyntaxError
    'raw U+001F in a key', // returned a result where native throws SyntaxError
    'trailing garbage', // threw ParseError where native throws SyntaxError
    'two values', // returned a result where native throws SyntaxError
    'two objects', // returned a result where native throws SyntaxError
    'trailing NUL', // threw ParseError where native throws SyntaxError
    'trailing comma at the end of a large array', // threw ParseError where native throws SyntaxError
    'double comma deep in a large array', // returned a result where native throws SyntaxError
    'bad number deep in a large array', // returned a result where native throws SyntaxError
    'unclosed large array', // threw ParseError where native throws SyntaxError
    'large array closed by a brace', // threw ParseError where native throws SyntaxError
    'large object closed by a bracket', // threw ParseError where native throws SyntaxError
    'trailing comma in a large object', // threw ParseError where native throws SyntaxError
    'missing colon deep in a large object', // returned a result where native throws SyntaxError
    'unquoted key deep in a large object', // threw ParseError where native throws SyntaxError
    'garbage after a large document', // threw ParseError where native throws SyntaxError
    'second value after a large document', // threw ParseError where native throws SyntaxError
    'unterminated long string', // threw ParseError where native throws SyntaxError
    'bad escape deep in a long string', // did not finish
    'raw control character deep in a long string', // did not finish
    'raw control character deep in a long string without escapes', // returned a result where native throws SyntaxError
    'raw tab at the end of a long string without escapes', // returned a result where native throws SyntaxError
    'short unicode escape at the end of a long string', // returned a result where native throws SyntaxError
    'long string escaping its own closing quote', // threw ParseError where native throws SyntaxError
    'unclosed nesting, 10k levels', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'mismatched close deep in nesting', // crashed the process: uncaught RangeError: Maximum call stack size exceeded
    'unclosed huge element', // threw ParseError where native throws SyntaxError
    'bracket missing deep in a bushy tree of tricky strings', // threw ParseError where native throws SyntaxError
    'trailing comma inside a huge element', // threw ParseError where native throws SyntaxError
  ],
};

// @discoveryjs/json-ext 1.1.0: stringifyChunked, and parseChunked fed 64 Ki-character slices.
const JSON_EXT = {
  stringify: [
    'top-level undefined', // different result
    'top-level function', // different result
    'top-level symbol', // different result
    'top-level toJSON returning undefined', // different result
    'top-level toJSON gets the empty key', // different result
    'boxed primitives unwrapped the way native does', // different result
    'toJSON on nested values and Dates', // different result
    'toJSON gets the array index as a string, also far into a large array', // different result
    'toJSON gets the property key, also in a wide object', // different result
    'toJSON on functions is called', // different result
    'toJSON result is serialized without calling its own toJSON', // different result
    'toJSON on the prototype (class instances) and on an Array subclass', // different result
    'records with Dates and toJSON at every level', // different result
    'boxed BigInt', // returned a result where native throws TypeError
  ],
  parse: [
    'deep tree with a large member before the next level', // threw TypeError: Cannot convert undefined or null to object
    'deep tree with a large member before the next level, pretty-printed', // threw TypeError: Cannot convert undefined or null to object
    'wide object, 100k keys with escapes', // threw SyntaxError: Expected ',' or ']' after array element in JSON at position 524282 (lin
    'wide object with duplicate and __proto__ keys spread across it', // different result
    'unclosed nested', // returned a result where native throws SyntaxError
    'unclosed nesting, 10k levels', // returned a result where native throws SyntaxError
    'unclosed huge element', // returned a result where native throws SyntaxError
  ],
};

module.exports = { YIELDABLE_JSON, JSON_EXT };
