'use strict';
// Serializer plugins in node14-fibers, on Node 14 (js-serializers/test/plugins-suite.js): the example plugin loads and
// passes here too. Node 14 has no node:test: the `test` package is its port.
const test = require('test');
const assert = require('assert');
const { pluginsSuite } = require('@lab/js-serializers/test/plugins-suite');
const path = require('path');
const { makeService } = require('../src/service');

pluginsSuite(test, assert, { makeService, serverEntry: path.join(__dirname, '..', 'src', 'server.js') });
