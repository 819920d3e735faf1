'use strict';
// Every approach by name, in async-char-streams' order, then the library and ours. The ones that need a library are
// included only when it is passed in (this folder has no dependencies of its own).
const { memory } = require('./memory');
const { asyncOfSync } = require('./async-of-sync');
const { sync } = require('./sync');
const { syncComposed, asyncComposed } = require('./composed');
const { transpiledAsync, transpiledAsyncish } = require('./transpiled');
const { async: asyncLoop } = require('./async');
const { csvParseApproach } = require('./csv-parse');
const { fast } = require('./fast');

/**
 * libraries: {csvParse: require('csv-parse'), iterTools: require('iter-tools-es')}, either optional.
 * Returns {name: approach}, approach(source, {signal}) -> Promise<string[][]>, approach.input naming its source.
 */
function csvApproaches({ csvParse, iterTools } = {}) {
  const all = {
    memory,
    'async-of-sync': asyncOfSync,
    sync,
    'sync-composed': iterTools ? syncComposed(iterTools) : null,
    'transpiled-asyncish': transpiledAsyncish,
    async: asyncLoop,
    'transpiled-async': transpiledAsync,
    'async-composed': iterTools ? asyncComposed(iterTools) : null,
    'csv-parse': csvParse ? csvParseApproach(csvParse) : null,
    fast,
  };
  return Object.fromEntries(Object.entries(all).filter(([, approach]) => approach !== null));
}

// The approaches that exist only with a library, and which library each needs.
const LIBRARY_APPROACHES = { 'sync-composed': 'iterTools', 'async-composed': 'iterTools', 'csv-parse': 'csvParse' };

module.exports = { csvApproaches, LIBRARY_APPROACHES };
