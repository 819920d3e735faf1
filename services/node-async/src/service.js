'use strict';
const express = require('express');
const promClient = require('prom-client');
const { createService, packageVersions } = require('../../../node-kit');
const { stringifyWorkload } = require('../../../js-serializers/stringify-workload');
const { asyncStringify } = require('../../../js-serializers/async-stringify');

const DEFAULT_PORT = 3002;

function makeService() {
  return createService({
    name: 'node-async',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: packageVersions(require, ['express', 'prom-client']),
    workloads: {
      stringify: stringifyWorkload({ async: asyncStringify }),
    },
  });
}

module.exports = { makeService };
