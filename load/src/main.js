'use strict';
// The load driver: serves /healthz, /metrics and /runs, and starts LOAD_SUITE (looping while LOAD_LOOP=1, until
// POST /runs/stop or SIGTERM) once every target is healthy. LOAD_SUITE=none leaves it idle for suites started on demand.
const { readConfig, SUITE_NONE } = require('./driver/config');
const promClient = require('prom-client');
const { registerDocumentWork } = require('@lab/node-kit/metrics');
const { createMetrics } = require('./driver/metrics');
const { createRunner } = require('./run/runner');
const { createServer } = require('./driver/server');
const { assertWritable } = require('./run/results');
const { loadSuite } = require('./suite/suites');
const { createDriverDocuments } = require('./try/documents');
const { checkRunOptions } = require('./run/plan');
const { writeScrapeTargets } = require('./attach/attach-scrape');
const { gracefulCloser, onStopSignals } = require('@lab/node-kit/shutdown');

const SHUTDOWN_TIMEOUT_MS = 8000;

function main() {
  const config = readConfig();
  assertWritable(config.resultsDir);
  // A bad LOAD_SUITE fails here, and so does the try suite, which needs a document PUT first.
  if (config.suite !== SUITE_NONE) checkRunOptions(loadSuite(config.suite, config.targets, config.suitesDir), {});
  const log = (message) => console.log(`[load] ${message}`);
  // An agent a driver before this one attached (compose keeps the targets volume) is no longer scraped: its service is
  // not this driver's, and a target gone would show as down. A folder it cannot write fails POST /attach's runs, which
  // say so, not the driver's start.
  if (config.scrapeTargetsDir) {
    try {
      writeScrapeTargets(config.scrapeTargetsDir, null, null);
    } catch (err) {
      log(`cannot write Prometheus' targets in LOAD_SCRAPE_TARGETS_DIR (${err.message}): POST /attach's agents will not be scraped`);
    }
  }
  const metrics = createMetrics();
  const documents = createDriverDocuments(config.documents, config.targets);
  // What the driver's documents cost it: a check of each, no parse (node-kit's metrics.js).
  registerDocumentWork(promClient, metrics.registry, documents.work);
  const runner = createRunner({ config, metrics, log, documents });
  const server = createServer({ runner, metrics, config, documents, suitesDir: config.suitesDir, timeouts: config.timeouts, hostNames: config.hostNames });
  server.listen(config.port, config.host, () => {
    log(`listening on ${config.host}:${server.address().port}; targets: ${Object.entries(config.targets).map(([n, u]) => `${n}=${u}`).join(' ')}`);
    if (config.suite !== SUITE_NONE) runner.start(config.suite, config.loop);
  });
  const closeServer = gracefulCloser(server, SHUTDOWN_TIMEOUT_MS);
  const shutdown = (signal) => {
    log(`${signal}: stopping the current scenario`);
    server.markShuttingDown();
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    // Exit once in-flight requests have finished (idle and stalled connections are closed) and the stopped suite has
    // written its results (run.json says `stopped`).
    Promise.all([closeServer(), runner.stop()]).then(
      () => process.exit(0),
      (err) => {
        log(`forced exit: ${err.message}`);
        process.exit(1);
      },
    );
  };
  onStopSignals(shutdown, log);
}

try {
  main();
} catch (err) {
  console.error(`load: ${err.message}`);
  process.exit(2);
}
