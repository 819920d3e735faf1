'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { serializationSuite } = require('@lab/js-serializers/test/serialization-suite');
const { makeService } = require('../src/service');

serializationSuite(test, assert, makeService, {
  interruptible: { stringify: ['async', 'json-ext', 'fast', 'worker'], parse: ['json-ext', 'fast', 'worker', 'worker-pieces'] },
});
