'use strict';
const express = require('express');
const promClient = require('prom-client');
const { packageVersions } = require('@lab/node-kit');
const { serializationService } = require('@lab/js-serializers/serialization-service');
const { serializerPlugins, pluginSettings } = require('@lab/js-serializers/serializer-plugins');
const { approaches, LIBRARIES } = require('./approaches');

const DEFAULT_PORT = 3001;

/** options.plugins overrides the environment's plugin settings (serializer-plugins.js' pluginSettings; tests). */
function makeService(options = {}) {
  return serializationService({
    name: 'node14-fibers',
    defaultPort: DEFAULT_PORT,
    express,
    promClient,
    libraries: packageVersions(require, LIBRARIES),
    approaches,
    plugins: serializerPlugins(Object.assign(pluginSettings(), options.plugins), approaches),
    documents: true,
  });
}

module.exports = { makeService };
