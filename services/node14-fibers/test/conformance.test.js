'use strict';
// Each approach's departures from native on the lab's corpora (js-serializers/conformance/conformance.js): the lab's own
// approaches have none; the third-party library's are pinned in js-serializers/test/library-departures.js.
// Runs on Node 14, where node:test does not exist: the `test` package is its port.
const path = require('path');
const test = require('test');
const assert = require('assert');
const { conformanceSuite } = require('@lab/js-serializers/test/conformance-suite');
const { YIELDABLE_JSON } = require('@lab/js-serializers/test/library-departures');

conformanceSuite(test, assert, path.join(__dirname, '..', 'src', 'approaches.js'), {
  stringify: { fiber: [], yieldable: YIELDABLE_JSON.stringify, async: [], fast: [] },
  parse: { yieldable: { skip: 'node-async checks the same library version (here it would take over a minute on Node 14)' }, fast: [] },
});
