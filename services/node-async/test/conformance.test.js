'use strict';
// Each approach's departures from native on the lab's corpora (js-serializers/conformance/conformance.js): the lab's own
// approaches have none; the third-party libraries' are pinned in js-serializers/test/library-departures.js, the worker
// approaches' (what the structured clone cannot carry) in worker-departures.js.
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert');
const { conformanceSuite } = require('@lab/js-serializers/test/conformance-suite');
const { YIELDABLE_JSON, JSON_EXT } = require('@lab/js-serializers/test/library-departures');
const { WORKER_DEPARTURES } = require('./worker-departures');

conformanceSuite(test, assert, path.join(__dirname, '..', 'src', 'approaches.js'), {
  stringify: { async: [], yieldable: YIELDABLE_JSON.stringify, 'json-ext': JSON_EXT.stringify, fast: [], worker: WORKER_DEPARTURES.stringify },
  parse: { yieldable: YIELDABLE_JSON.parse, 'json-ext': JSON_EXT.parse, fast: [], worker: WORKER_DEPARTURES.parse, 'worker-pieces': WORKER_DEPARTURES.parse },
});
