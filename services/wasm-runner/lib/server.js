'use strict';
// The wasm-runner service: node-kit's contract around the transfer workload, which also runs users' JSON documents
// (PUT /documents). Settings: see README.md.
const express = require('express');
const promClient = require('prom-client');
const { createService, serve, packageVersions } = require('@lab/node-kit');
const { loadWasmModule } = require('./wasm-module');
const { createTransferWorkload } = require('./transfer/transfer-workload');
const { createTransferMetrics } = require('./transfer/transfer-metrics');
const { documentReference } = require('./documents/document-reference');
const { FINDING_DETAILS } = require('./documents/finding-details');

const DEFAULT_PORT = 3003;

/** The service definition, with the WASM module instantiated; tests start it on port 0. */
async function createWasmRunner() {
  const wasm = await loadWasmModule();
  return createService({
    name: 'wasm-runner',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: Object.assign(packageVersions(require, ['express', 'prom-client', '@msgpack/msgpack', 'msgpackr']), {
      yyjson: wasm.yyjsonVersion,
      emscripten: wasm.emscriptenVersion,
    }),
    workloads: (metrics, documents) => ({
      transfer: createTransferWorkload(wasm, { metrics: createTransferMetrics(promClient, metrics.registry, wasm), documents }),
    }),
    // Users' JSON documents (node-kit's store and PUT /documents), no deeper than every C++ reader goes.
    documents: { maxDepth: wasm.maxDepth, findingDetails: FINDING_DETAILS, reference: documentReference(wasm) },
  });
}

if (require.main === module) serve(createWasmRunner());

module.exports = { createWasmRunner };
