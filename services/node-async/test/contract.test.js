'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { contractSuite } = require('../../../node-kit/testing');
const { makeService } = require('../src/service');

contractSuite(test, assert, makeService, { workload: 'stringify', query: 'size=2000&seed=5' });
