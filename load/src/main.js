'use strict';
// The load driver: serves /healthz, /metrics and /runs, and starts LOAD_SUITE (looping while LOAD_LOOP=1) once
// every target is healthy. LOAD_SUITE=none leaves it idle for suites started on demand.
const { readConfig, SUITE_NONE } = require('./config');
const { createMetrics } = require('./metrics');
const { createRunner } = require('./runner');
const { createServer } = require('./server');
const { assertWritable } = require('./results');

const SHUTDOWN_TIMEOUT_MS = 8000;

function main() {
  const config = readConfig();
  assertWritable(config.resultsDir);
  const log = (message) => console.log(`[load] ${message}`);
  const metrics = createMetrics();
  const runner = createRunner({ config, metrics, log });
  const server = createServer({ runner, metrics, suitesDir: config.suitesDir });
  server.listen(config.port, config.host, () => {
    log(`listening on ${config.host}:${server.address().port}; targets: ${Object.entries(config.targets).map(([n, u]) => `${n}=${u}`).join(' ')}`);
    if (config.suite !== SUITE_NONE) runner.start(config.suite, config.loop);
  });
  const shutdown = (signal) => {
    log(`${signal}: stopping the current scenario`);
    server.markShuttingDown();
    runner.stop();
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

try {
  main();
} catch (err) {
  console.error(`load: ${err.message}`);
  process.exit(2);
}
