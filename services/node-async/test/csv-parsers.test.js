'use strict';
// The csv-parsers approaches that need a library, with the versions this service pins (its own node_modules), against
// the shared suite (csv-parsers/test/approach-suite.js); the approaches without libraries run in csv-parsers/test.
const test = require('node:test');
const assert = require('node:assert');
const { approachSuite } = require('@lab/csv-parsers/test/approach-suite');
const { CSV_PARSE } = require('@lab/csv-parsers/test/library-departures');
const { LIBRARY_APPROACHES } = require('@lab/csv-parsers/approaches');

approachSuite(test, assert, {
  names: Object.keys(LIBRARY_APPROACHES),
  libraryPaths: { csvParse: require.resolve('csv-parse'), iterTools: require.resolve('iter-tools-es') },
  departures: { 'csv-parse': CSV_PARSE },
});
