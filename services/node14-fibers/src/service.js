'use strict';
const express = require('express');
const promClient = require('prom-client');
const { createService } = require('../../../node-kit');
const { stringifyWorkload } = require('../../../js-serializers/stringify-workload');
const { fiberStringify } = require('./fiber-stringify');

const DEFAULT_PORT = 3001;

function makeService() {
  return createService({
    name: 'node14-fibers',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    runtime: { name: 'node', version: process.versions.node },
    libraries: {
      express: require('express/package.json').version,
      'prom-client': require('prom-client/package.json').version,
      fibers: require('fibers/package.json').version,
    },
    workloads: {
      stringify: stringifyWorkload({ fiber: fiberStringify }),
    },
  });
}

module.exports = { makeService };
