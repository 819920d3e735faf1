'use strict';
const express = require('express');
const promClient = require('prom-client');
const { createService, packageVersions } = require('../../../node-kit');
const { stringifyWorkload } = require('../../../js-serializers/stringify-workload');
const { fiberStringify } = require('./fiber-stringify');

const DEFAULT_PORT = 3001;

function makeService() {
  return createService({
    name: 'node14-fibers',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: packageVersions(require, ['express', 'prom-client', 'fibers']),
    workloads: {
      stringify: stringifyWorkload({ fiber: fiberStringify }),
    },
  });
}

module.exports = { makeService };
