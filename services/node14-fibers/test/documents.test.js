'use strict';
// PUT /documents on node14-fibers (express 4, Node 14, where node:test does not exist: the `test` package is its
// port): test-kit/document-uploads.js.
const test = require('test');
const assert = require('assert');
const { documentUploadSuite } = require('@lab/test-kit/document-uploads');
const { makeService } = require('../src/service');

documentUploadSuite(test, assert, makeService);
