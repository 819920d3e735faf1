'use strict';
// Runs on Node 14, where node:test does not exist: the `test` package is its port.
const test = require('test');
const assert = require('assert');
const { serializationSuite } = require('@lab/js-serializers/test/serialization-suite');
const { makeService } = require('../src/service');

serializationSuite(test, assert, makeService, {
  interruptible: { stringify: ['fiber', 'async', 'fast'], parse: ['fast'] },
});
