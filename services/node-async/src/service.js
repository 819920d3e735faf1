'use strict';
const express = require('express');
const promClient = require('prom-client');
const { createService } = require('../../../node-kit');
const { stringifyWorkload } = require('../../../js-serializers/stringify-workload');
const { asyncStringify } = require('../../../js-serializers/async-stringify');

const DEFAULT_PORT = 3002;

function makeService() {
  return createService({
    name: 'node-async',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    runtime: { name: 'node', version: process.versions.node },
    libraries: { express: require('express/package.json').version, 'prom-client': require('prom-client/package.json').version },
    workloads: {
      stringify: stringifyWorkload({ async: asyncStringify }),
    },
  });
}

module.exports = { makeService };
