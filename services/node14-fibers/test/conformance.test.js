'use strict';
// Where each approach departs from native on the lab's corpora (js-serializers/test/conformance.js): the lab's own
// approaches nowhere, the third-party libraries where written below (the why is what the run said). A change in a
// library's behaviour fails this test: then update the list and js-serializers/README.md.
const path = require('path');
// Runs on Node 14, where node:test does not exist: the `test` package is its port.
const test = require('test');
const assert = require('assert');
const { conformanceSuite } = require('../../../js-serializers/test/conformance-suite');

const EXPECTED_DEPARTURES = {
  stringify: {
    fiber: [],
    // yieldable-json 2.1.0 stringifyAsync: 36 cases
    yieldable: [
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
    async: [],
    fast: [],
  },
  parse: {
    // yieldable parse is the same library version as node-async's, whose test pins its departures (here it would
    // take over a minute on Node 14).
    fast: [],
  },
};

conformanceSuite(test, assert, path.join(__dirname, '..', 'src', 'approaches.js'), EXPECTED_DEPARTURES);
