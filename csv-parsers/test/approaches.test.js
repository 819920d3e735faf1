'use strict';
// The approaches without libraries against the shared suite (approach-suite.js); the library-backed ones run in
// services/node-async/test/csv-parsers.test.js with that service's pinned versions.
const test = require('node:test');
const assert = require('node:assert');
const { approachSuite } = require('./approach-suite');
const { csvApproaches, LIBRARY_APPROACHES } = require('../approaches');

const OWN = ['memory', 'async-of-sync', 'sync', 'transpiled-asyncish', 'async', 'transpiled-async', 'fast'];

test('without libraries, csvApproaches gives every approach but the library-backed ones', () => {
  assert.deepStrictEqual(Object.keys(csvApproaches()), OWN);
  for (const name of Object.keys(LIBRARY_APPROACHES)) assert.ok(!OWN.includes(name), name);
});

approachSuite(test, assert, { names: OWN });
