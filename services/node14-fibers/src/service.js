'use strict';
const express = require('express');
const promClient = require('prom-client');
const { createService, createInputs, packageVersions } = require('../../../node-kit');
const { stringifyWorkload } = require('../../../js-serializers/stringify-workload');
const { parseWorkload } = require('../../../js-serializers/parse-workload');
const { approaches, LIBRARIES } = require('./approaches');

const DEFAULT_PORT = 3001;
// Two documents and two texts at the 20 000-record cap are ~0.6 GB of heap; more would let alternating sizes grow
// the caches past that.
const CACHED_DOCUMENTS = 2;

function makeService() {
  const inputs = createInputs(CACHED_DOCUMENTS);
  return createService({
    name: 'node14-fibers',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: packageVersions(require, LIBRARIES),
    workloads: {
      stringify: stringifyWorkload(approaches.stringify, inputs),
      parse: parseWorkload(approaches.parse, inputs),
    },
  });
}

module.exports = { makeService };
