'use strict';
// node-async: seed 000's serialization workloads and seed 004's worker offload on node-kit's contract.
const express = require('express');
const promClient = require('prom-client');
const { createService, packageVersions } = require('../../../node-kit');
const { serializationWorkloads } = require('../../../js-serializers/serialization-service');
const { approaches, LIBRARIES } = require('./approaches');
const { workerOffload } = require('./offload');

const DEFAULT_PORT = 3002;

/**
 * options.offload overrides the pool's environment settings (tests use a small queue and a short timeout).
 * Returns node-kit's service plus `pool`.
 */
function makeService(options = {}) {
  const offload = workerOffload({ express, promClient, config: options.offload });
  const service = createService({
    name: 'node-async',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: packageVersions(require, LIBRARIES),
    workloads: serializationWorkloads(approaches),
    routes: offload.routes,
    close: offload.close,
    info: offload.info,
  });
  return Object.assign(service, { pool: offload.pool }); // the tests stop a worker through it
}

module.exports = { makeService };
