'use strict';
// A real Prometheus (the `prometheus` binary `make setup` installs) as a child process, scraping the given jobs every
// second, for the tests that need real series (the load driver's live page) or a real query engine (the dashboards'
// checker). Not a test file.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { until } = require('./index');
// Prometheus cannot be told to take port 0 and say which it took: it is handed a free one.
const { freePort } = require('./index');

/** Whether a `prometheus` binary is on PATH ($PROMETHEUS_BIN else). */
function findPrometheus() {
  const bin = process.env.PROMETHEUS_BIN || 'prometheus';
  return spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0 ? bin : null;
}

/** Starts Prometheus on port scraping jobs ({job: 'host:port'}) every second; resolves {url, stop()} once it is ready. */
async function startPrometheus(jobs, port) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-prometheus-'));
  const scrapes = Object.entries(jobs).map(([job, target]) => `  - job_name: ${JSON.stringify(job)}\n    static_configs:\n      - targets: [${JSON.stringify(target)}]`).join('\n');
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n${scrapes}\n`);
  const child = spawn(findPrometheus(), [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until('Prometheus ready', 60000, async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${log}`);
      const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
      return { done: ready, why: 'not ready' };
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

module.exports = { startPrometheus, findPrometheus, freePort };
