'use strict';
// The approaches node-async runs beside native, per workload (native is added by each workload). The third-party
// libraries are this service's pinned dependencies; the conformance tests load this module on its own.
const yieldableJson = require('yieldable-json');
const jsonExt = require('@discoveryjs/json-ext');
const stringifyApproaches = require('../../../js-serializers/stringify-approaches');
const parseApproaches = require('../../../js-serializers/parse-approaches');

const approaches = {
  stringify: {
    async: stringifyApproaches.seedAsync,
    yieldable: stringifyApproaches.yieldable(yieldableJson),
    'json-ext': stringifyApproaches.jsonExt(jsonExt),
    fast: stringifyApproaches.fastChunks,
  },
  parse: {
    yieldable: parseApproaches.yieldable(yieldableJson),
    'json-ext': parseApproaches.jsonExt(jsonExt),
    fast: parseApproaches.fast,
  },
};

const LIBRARIES = ['express', 'prom-client', 'yieldable-json', '@discoveryjs/json-ext', 'piscina'];

module.exports = { approaches, LIBRARIES };
