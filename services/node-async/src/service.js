'use strict';
// node-async: the serialization workloads of fibers-to-async, the CSV parsers of async-char-streams (the csv workload
// and POST /csv) and worker-offload's routes, on node-kit's contract (the experiments: docs/experiments/).
const express = require('express');
const promClient = require('prom-client');
const { createService, packageVersions } = require('@lab/node-kit');
const { serializationWorkloads } = require('@lab/js-serializers/serialization-service');
const { serializerPlugins, pluginSettings } = require('@lab/js-serializers/serializer-plugins');
const { approaches, documentPool, LIBRARIES } = require('./approaches');
const { csvWorkload } = require('@lab/csv-parsers/csv-workload');
const { csvDocumentCheck } = require('@lab/csv-parsers/user-document');
const { workerOffload } = require('./offload');
const { csvUploadRoutes } = require('./csv-upload-route');
const { uploadConfig, checkUploadSettings } = require('./csv-upload-settings');

const DEFAULT_PORT = 3002;

/**
 * options.offload, options.upload and options.plugins override the environment's settings (tests use a small queue,
 * a short timeout, small caps, a folder of plugins). Throws when the CSV upload caps do not fit the heap (csv-upload-settings.js).
 * Returns node-kit's service plus `pool`.
 */
function makeService(options = {}) {
  const uploadSettings = checkUploadSettings(Object.assign(uploadConfig(), options.upload));
  const offload = workerOffload({ promClient, config: options.offload });
  const plugins = serializerPlugins(Object.assign(pluginSettings(), options.plugins), approaches);
  const service = createService({
    name: 'node-async',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: packageVersions(require, LIBRARIES),
    workloads: (metrics, documents) => Object.assign(serializationWorkloads(approaches, documents, plugins), { csv: csvWorkload(approaches.csv, documents) }),
    routes: (metrics) => offload.routes(metrics).concat(csvUploadRoutes(approaches.csv, uploadSettings)),
    close: () => Promise.all([offload.close(), plugins.close(), documentPool.close()]),
    // CSV documents too, for the csv workload: a run holds every parsed row, so a document has POST /csv's cap on
    // cells (CSV_MAX_CELLS), checked when it is stored.
    documents: { csv: csvDocumentCheck({ maxCells: uploadSettings.maxCells }) },
    info: Object.assign({ csvUpload: uploadSettings, plugins: plugins.info, documentPool: documentPool.settings }, offload.info),
  });
  return Object.assign(service, { pool: offload.pool }); // the tests stop a worker through it
}

module.exports = { makeService };
