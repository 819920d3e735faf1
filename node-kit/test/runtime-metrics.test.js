'use strict';
// A collector pause's kind as both Node lines report it: Node 16+ in entry.detail, Node 14 on the entry itself.
const test = require('node:test');
const assert = require('node:assert');
const { constants } = require('perf_hooks');
const { kindOf } = require('../runtime-metrics');

test('a pause kind is read from entry.detail (Node 16+) or from the entry (Node 14)', () => {
  assert.strictEqual(kindOf({ detail: { kind: constants.NODE_PERFORMANCE_GC_MINOR } }), 'minor');
  assert.strictEqual(kindOf({ kind: constants.NODE_PERFORMANCE_GC_MAJOR }), 'major');
  assert.strictEqual(kindOf({ detail: { kind: constants.NODE_PERFORMANCE_GC_INCREMENTAL } }), 'incremental');
  assert.strictEqual(kindOf({ detail: { kind: 12345 } }), 'other', 'a kind a later V8 adds is counted, as other');
});
