'use strict';
const express = require('express');
const promClient = require('prom-client');
const { packageVersions } = require('../../../node-kit');
const { serializationService } = require('../../../js-serializers/serialization-service');
const { approaches, LIBRARIES } = require('./approaches');

const DEFAULT_PORT = 3001;

function makeService() {
  return serializationService({
    name: 'node14-fibers',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: packageVersions(require, LIBRARIES),
    approaches,
    documents: true,
  });
}

module.exports = { makeService };
