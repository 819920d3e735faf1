'use strict';
// Runs on Node 14, where node:test does not exist: the `test` package is its port.
const test = require('test');
const assert = require('assert');
const { contractSuite } = require('@lab/test-kit');
const { makeService } = require('../src/service');

contractSuite(test, assert, makeService, { workload: 'stringify', query: 'size=2000&seed=5' });
