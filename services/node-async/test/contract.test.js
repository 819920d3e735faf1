'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { contractSuite } = require('@lab/test-kit');
const { makeService } = require('../src/service');

contractSuite(test, assert, makeService, { workload: 'stringify', query: 'size=2000&seed=5' });
