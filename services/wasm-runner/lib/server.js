'use strict';
// The wasm-runner service: node-kit's contract around the transfer workload, which also runs users' JSON documents
// (PUT /documents). Settings: see README.md.
const express = require('express');
const promClient = require('prom-client');
const { createService, serve, packageVersions, envInteger } = require('@lab/node-kit');
const { documentSettings } = require('@lab/node-kit/document-store');
const { kindsOf } = require('@lab/node-kit/document-upload');
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
  // The caps node-kit's store applies (the same settings, read from the same environment), and the most nodes a
  // document may have for its runs to fit this module's memory and this process's heap (memory-model.js).
  const settings = documentSettings(envInteger);
  const limits = memoryLimits(wasm, settings, { maxNodesSetting: envInteger('DOCUMENT_MAX_NODES', 0) });
  const worker = createDocumentWorker();
  const documentRuns = { worker, memory: createRunMemory(limits.budgets), values: createDocumentValues() };
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
      transfer: createTransferWorkload(wasm, { metrics: createTransferMetrics(promClient, metrics.registry, wasm), documents, documentRuns }),
    }),
    // Users' JSON documents (node-kit's store and PUT /documents), no deeper than every C++ reader goes, no larger than
    // a run can hold.
    documents: { maxDepth: wasm.maxDepth, findingDetails: FINDING_DETAILS, reference: documentReference(worker, limits.maxNodes) },
    // node-kit's documents section with maxNodes beside its caps (node-kit takes no field of a runtime's there yet).
    info: { documents: Object.assign({}, settings, { maxDepth: Math.min(settings.maxDepth, wasm.maxDepth), kinds: kindsOf(false), maxNodes: limits.maxNodes }) },
    close: () => worker.close(),
  });
}

if (require.main === module) serve(createWasmRunner());

module.exports = { createWasmRunner };
