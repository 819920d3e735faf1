'use strict';
// The approaches node14-fibers runs beside native, per workload (native is added by each workload). `async` and
// `fast` run here too, so a team leaving fibers can compare on the Node line it runs today. The third-party library
// is this service's pinned dependency; the conformance tests load this module on its own.
const yieldableJson = require('yieldable-json');
const stringifyApproaches = require('@lab/js-serializers/stringify-approaches');
const parseApproaches = require('@lab/js-serializers/parse-approaches');
const { fiberStringify } = require('./fiber-stringify');

const approaches = {
  stringify: {
    fiber: stringifyApproaches.fromWholeText(fiberStringify),
    yieldable: stringifyApproaches.yieldable(yieldableJson),
    async: stringifyApproaches.originalAsync,
    fast: stringifyApproaches.fastChunks,
  },
  parse: {
    yieldable: parseApproaches.yieldable(yieldableJson),
    fast: parseApproaches.fast,
  },
};

const LIBRARIES = ['express', 'prom-client', 'fibers', 'yieldable-json'];

module.exports = { approaches, LIBRARIES };
