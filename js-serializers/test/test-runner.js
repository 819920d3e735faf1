'use strict';
// The test runner of whichever Node runs a test file of this folder: node:test where Node has it (18 and later); on
// Node 14, the `test` package from node14-fibers' dependencies (this folder has none of its own: the services pin the
// third-party code). Node 14 syntax.
const { createRequire } = require('module');

function testRunner() {
  try {
    return require('node:test');
  } catch (error) {
    if (error.code !== 'ERR_UNKNOWN_BUILTIN_MODULE') throw error;
    return createRequire(require.resolve('@lab/node14-fibers/package.json'))('test');
  }
}

module.exports = testRunner();
