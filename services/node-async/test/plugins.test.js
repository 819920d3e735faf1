'use strict';
// Serializer plugins in node-async (js-serializers/test/plugins-suite.js), and the smoke suite's coverage, generated
// from /info, picking up a checked plugin as a scenario of its own.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { pluginsSuite } = require('@lab/js-serializers/test/plugins-suite');
const { readManifests } = require('@lab/lab-topology/manifests');
const { coverageOf } = require('@lab/load/src/suite/coverage');
const { makeService } = require('../src/service');

function checkInfo(info) {
  const manifest = readManifests().find((m) => m.name === 'node-async');
  const paths = coverageOf(manifest, info).map((scenario) => scenario.path);
  for (const workload of ['stringify', 'parse']) {
    assert.ok(paths.some((p) => p.startsWith(`/run/${workload}?approach=example-chunked-json`)), paths.join('\n'));
  }
}

pluginsSuite(test, assert, { makeService, serverEntry: path.join(__dirname, '..', 'src', 'server.js'), checkInfo });
