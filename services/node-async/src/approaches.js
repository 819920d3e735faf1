'use strict';
// The approaches node-async runs, per workload (stringify and parse add native first). The third-party
// libraries are this service's pinned dependencies; the conformance tests load this module on its own. The `worker`
// approaches run on the documents pool (documents/), whose settings are read here, once, and whose threads start with
// its first task; the service closes it.
const yieldableJson = require('yieldable-json');
const jsonExt = require('@discoveryjs/json-ext');
const csvParse = require('csv-parse');
const iterTools = require('iter-tools-es');
const stringifyApproaches = require('@lab/js-serializers/stringify-approaches');
const parseApproaches = require('@lab/js-serializers/parse-approaches');
const { csvApproaches } = require('@lab/csv-parsers/approaches');
const { createDocumentPool, documentPoolSettings } = require('./documents/document-pool');
const { workerApproaches } = require('./documents/worker-approaches');

const documentPool = createDocumentPool(documentPoolSettings());
const worker = workerApproaches(documentPool);

const approaches = {
  stringify: {
    async: stringifyApproaches.originalAsync,
    yieldable: stringifyApproaches.yieldable(yieldableJson),
    'json-ext': stringifyApproaches.jsonExt(jsonExt),
    fast: stringifyApproaches.fastChunks,
    worker: worker.stringify,
  },
  parse: {
    yieldable: parseApproaches.yieldable(yieldableJson),
    'json-ext': parseApproaches.jsonExt(jsonExt),
    fast: parseApproaches.fast,
    worker: worker.parse,
    'worker-pieces': worker.parsePieces,
  },
  csv: csvApproaches({ csvParse, iterTools }), // async-char-streams' eight, csv-parse and the lab's fast
};

const LIBRARIES = ['express', 'prom-client', 'yieldable-json', '@discoveryjs/json-ext', 'csv-parse', 'iter-tools-es', 'piscina'];

module.exports = { approaches, documentPool, LIBRARIES };
