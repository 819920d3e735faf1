'use strict';
// One implementation of CONTRACT.md for the lab's Node services (Node 14 and 24). The service passes in its own
// express and prom-client, so each keeps the versions it pins; this folder has no dependencies of its own.
const fs = require('fs');
const path = require('path');
const { buildApp, watchClient } = require('./app');
const { createMetrics, registerDocumentWork } = require('./metrics');
const { checkWorkload, parseOnlyParams } = require('./params');
const { gracefulCloser, closeOnSignals } = require('./shutdown');
const { createInputs, sha256, lru } = require('./inputs');
const { createLabServer, stallTimeouts } = require('./http-server');
const { jsonBody } = require('./json-body');
const { round } = require('@lab/loop-kit/round');
const { cpuLayout } = require('./cpus');
const { HttpError, badRequest, busy } = require('./errors');
const { createDocumentStore, documentSettings } = require('./document-store');
const { createMemoryBudget, memorySetting } = require('./document-memory');
const { documentRoutes, kindsOf } = require('./document-upload');
const { profileRoutes } = require('./profiler');

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);

function envInteger(name, fallback) {
  const value = Number(env(name, String(fallback)));
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}

/**
 * definition: {name, defaultPort, express, promClient, libraries: {name: version}, runtime (default: this Node),
 *   workloads: {name: {approaches, params, caseOf(params), run({approach, params}) -> Promise<result>}}, or
 *     (metrics, documents) -> such an object, for workloads that observe metrics of their own in metrics.registry
 *     or run users' documents (documents: the store, or null),
 *   documents (optional): true to keep users' JSON documents (PUT /documents, document-upload.js), or an object:
 *     csv to keep CSV documents too (text -> Promise<{reference, rows}>, throwing its refusal: readDocument's check),
 *     maxDepth (the deepest the runtime takes, below DOCUMENT_MAX_DEPTH), maxNodes (the most values a document may have
 *     for the runtime's own memory, wasm-runner's: below what the heap's budget allows), findingDetails and reference
 *     (documentRoutes' runtime: what the runtime does with each finding, its own reference for a JSON document),
 *   routes (optional): (metrics) -> [{method, path, handlers}] beside the contract's (app.js addRoutes),
 *   close (optional): () -> Promise, run after the server has closed (a worker pool's shutdown),
 *   info (optional): {key: value} added to /info}.
 * Returns {app, metrics, start({port, host, handleSignals}) -> Promise<{port, close}>}.
 */
function createService(serviceDefinition) {
  const metrics = createMetrics(serviceDefinition.promClient);
  const documents = serviceDefinition.documents ? documentsOf(serviceDefinition.documents === true ? {} : serviceDefinition.documents) : null;
  const documentStore = documents ? documents.store : null;
  if (documentStore) registerDocumentWork(serviceDefinition.promClient, metrics.registry, documentStore.work);
  const workloads = typeof serviceDefinition.workloads === 'function' ? serviceDefinition.workloads(metrics, documentStore) : serviceDefinition.workloads;
  const definition = Object.assign({}, serviceDefinition, { workloads });
  for (const [name, workload] of Object.entries(workloads)) checkWorkload(name, workload);
  const config = Object.assign({
    maxConcurrentRuns: envInteger('MAX_CONCURRENT_RUNS', 4),
    shutdownTimeoutMs: envInteger('SHUTDOWN_TIMEOUT_MS', 8000),
  }, stallTimeouts(envInteger));
  const state = { shuttingDown: false };
  const defaults = {
    maxConcurrentRuns: config.maxConcurrentRuns,
    stalledClientTimeoutMs: config.stalledClientTimeoutMs,
    // What the timings ran on: the options the runtime started with (NODE_OPTIONS, then the command line's; they set
    // its GC) and the CPUs this process may use (a container's cpuset and quota).
    runtime: Object.assign({ name: 'node', version: process.versions.node, options: startOptions() }, cpuLayout()),
    restarts: envInteger('LAB_RESTARTS', 0), // set by `make native`, which starts a crashed service again
    // The names the service is reached by beside IP addresses and localhost: its compose service name and the setting's.
    hostNames: [definition.name].concat(env('LAB_HOST_NAMES', '').split(',').map((n) => n.trim()).filter(Boolean)),
  };
  const routes = (definition.routes ? definition.routes(metrics) : []).concat(profileRoutes(env('LAB_PROFILE_TOKEN', '')), documents ? documentRoutes(documents.store, documents.settings, documents.csv, documents.runtime) : []);
  const info = documents ? Object.assign({ documents: documents.settings }, definition.info) : definition.info;
  const app = buildApp(Object.assign(defaults, definition, { routes, info }), metrics, state);
  const log = (message) => console.log(`[${definition.name}] ${message}`);

  function start(options) {
    const opts = Object.assign({ port: envInteger('PORT', definition.defaultPort), host: env('HOST', '0.0.0.0'), handleSignals: true }, options);
    const server = createLabServer(app, config);
    const closeServer = gracefulCloser(server, config.shutdownTimeoutMs);
    const close = () => {
      state.shuttingDown = true;
      const closeRest = () => (definition.close ? definition.close() : Promise.resolve());
      return closeServer().then(closeRest, (err) => closeRest().then(() => Promise.reject(err)));
    };
    if (opts.handleSignals) closeOnSignals(close, log);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        const port = server.address().port;
        log(`listening on ${opts.host}:${port}`);
        resolve({ port, close, server });
      });
    });
  }

  return { app, metrics, start, documents: documents && documents.store };
}

/**
 * The store of users' documents, its caps (document-store.js' documentSettings, the depth no deeper than the
 * runtime's maxDepth, the memory of the runs on them: document-memory.js) and kinds (csv: its check, or none), and
 * what documentRoutes needs of the runtime.
 */
function documentsOf({ csv, maxDepth, maxNodes, findingDetails, reference }) {
  const memory = createMemoryBudget(memorySetting(envInteger));
  const settings = Object.assign(documentSettings(envInteger), { kinds: kindsOf(csv), memoryBytes: memory.limitBytes, maxNodes: memory.maxNodes });
  if (maxDepth !== undefined) settings.maxDepth = Math.min(settings.maxDepth, maxDepth);
  if (maxNodes !== undefined) settings.maxNodes = Math.min(settings.maxNodes, maxNodes);
  const store = createDocumentStore({ maxCount: settings.maxCount, maxBytes: settings.maxBytes, memory });
  return { store, settings, csv, runtime: { findingDetails, reference } };
}

/** {name: version} of the named packages, resolved by the service's own require (node-kit has no dependencies). */
function packageVersions(serviceRequire, names) {
  return Object.fromEntries(names.map((name) => [name, packageJsonOf(serviceRequire, name).version]));
}

// A package whose `exports` leaves out package.json (piscina, csv-parse), or maps it elsewhere with a pattern
// (stream-json 3's "./*": "./src/*" points at src/package.json, which does not exist), is found from its entry
// point upwards.
function packageJsonOf(serviceRequire, name) {
  try {
    return serviceRequire(`${name}/package.json`);
  } catch (err) {
    if (err.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED' && err.code !== 'MODULE_NOT_FOUND') throw err;
  }
  for (let dir = path.dirname(serviceRequire.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (json.name === name) return json;
    }
  }
  throw new Error(`no package.json found for ${name}`);
}

/** A service's main: starts it (or the service a promise resolves to), exiting 1 with the reason if that fails. */
function serve(service) {
  return Promise.resolve(service)
    .then((s) => s.start())
    .catch((err) => {
      console.error(`cannot start: ${err.stack || err.message}`);
      process.exit(1);
    });
}

/** Milliseconds elapsed since a process.hrtime.bigint() reading. */
const msSince = (started) => Number(process.hrtime.bigint() - started) / 1e6;

function startOptions() {
  return (process.env.NODE_OPTIONS || '').split(/\s+/).filter(Boolean).concat(process.execArgv);
}

module.exports = {
  createService, serve, packageVersions, createInputs, lru, sha256, msSince, round, envInteger, parseOnlyParams, watchClient, jsonBody, HttpError, badRequest, busy,
};
