'use strict';
// PUT /documents on node-async (express 5, Node 24): tests/contract/document-uploads.js.
const test = require('node:test');
const assert = require('node:assert');
const { documentUploadSuite } = require('../../../tests/contract/document-uploads');
const { makeService } = require('../src/service');

documentUploadSuite(test, assert, makeService);
