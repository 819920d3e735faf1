'use strict';
// The wasm-runner service: node-kit's contract around the transfer workload. Settings: see README.md.
const express = require('express');
const promClient = require('prom-client');
const { createService, serve, packageVersions } = require('../../../node-kit');
const { loadWasmModule } = require('./wasm-module');
const { createTransferWorkload } = require('./transfer/transfer-workload');
const { createTransferMetrics } = require('./transfer/transfer-metrics');

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
    workloads: (metrics) => ({ transfer: createTransferWorkload(wasm, { metrics: createTransferMetrics(promClient, metrics.registry, wasm) }) }),
  });
}

if (require.main === module) serve(createWasmRunner());

module.exports = { createWasmRunner };
