'use strict';
// PUT /documents on node-async (express 5, Node 24): test-kit/document-uploads.js.
const test = require('node:test');
const assert = require('node:assert');
const { documentUploadSuite } = require('@lab/test-kit/document-uploads');
const { makeService } = require('../src/service');

documentUploadSuite(test, assert, makeService);
