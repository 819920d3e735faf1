'use strict';
// The wasm-runner service: node-kit's contract around the transfer workload, which also runs users' JSON documents
// (PUT /documents). Settings: see README.md.
const express = require('express');
const promClient = require('prom-client');
const { createService, serve, packageVersions, envInteger } = require('@lab/node-kit');
const { documentSettings } = require('@lab/node-kit/document-store');
const { loadWasmModule } = require('./wasm-module');
const { createTransferWorkload } = require('./transfer/transfer-workload');
const { createTransferMetrics } = require('./transfer/transfer-metrics');
const { documentReference } = require('./documents/document-reference');
const { createDocumentWorker } = require('./documents/document-worker');
const { memoryLimits } = require('./documents/memory-model');
const { createRunMemory } = require('./documents/run-memory');
const { createDocumentValues } = require('./documents/document-values');
const { FINDING_DETAILS } = require('./documents/finding-details');

const DEFAULT_PORT = 3003;

/** The service definition, with the WASM module instantiated; tests start it on port 0. */
async function createWasmRunner() {
  const wasm = await loadWasmModule();
  // The most nodes a document may have for its runs to fit this module's memory (memory-model.js), under node-kit's
  // caps, read from the same environment; the JS heap's share is node-kit's budget.
  const limits = memoryLimits(wasm, documentSettings(envInteger), { maxNodesSetting: envInteger('DOCUMENT_MAX_NODES', 0) });
  const worker = createDocumentWorker();
  return createService({
    name: 'wasm-runner',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: Object.assign(packageVersions(require, ['express', 'prom-client', '@msgpack/msgpack', 'msgpackr']), {
      yyjson: wasm.yyjsonVersion,
      emscripten: wasm.emscriptenVersion,
    }),
    workloads: (metrics, documents) => {
      const documentRuns = { worker, memory: documents && createRunMemory(limits.wasmBytes, documents.memory), values: createDocumentValues() };
      return { transfer: createTransferWorkload(wasm, { metrics: createTransferMetrics(promClient, metrics.registry, wasm), documents, documentRuns }) };
    },
    // Users' JSON documents (node-kit's store and PUT /documents), no deeper than every C++ reader goes, no larger than
    // a run can hold.
    documents: { maxDepth: wasm.maxDepth, maxNodes: limits.maxNodes, findingDetails: FINDING_DETAILS, reference: documentReference(worker, limits.maxNodes) },
    close: () => worker.close(),
  });
}

if (require.main === module) serve(createWasmRunner());

module.exports = { createWasmRunner };
