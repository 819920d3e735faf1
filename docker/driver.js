'use strict';
// The load driver of a containerized lab, driven over its HTTP API (load/README.md): a suite started with POST /runs
// (or a service attached with POST /attach) and followed on GET /runs/latest to its end, whatever runs the driver
// (compose, a swarm).
const fs = require('node:fs');
const path = require('node:path');

const POLL_MS = 2000;
// A run that completes no scenario for this long is hung (the longest scenario runs 120 s, load/src/suite/suites.js).
const NO_PROGRESS_MS = 300000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `suite` once on the driver at `loadUrl` and resolves to its run.json, with `dir`: its folder on this machine
 * (the driver's /results is resultsDir here). onProgress(status) is called each time a scenario ends.
 */
function runSuite(loadUrl, suite, options) {
  return startAndFollow(loadUrl, `/runs?suite=${suite}`, `suite ${suite}`, options);
}

/**
 * Attaches the service at url (POST /attach with query's other parameters: agent, durationSeconds, ...) and resolves
 * to the attach run's run.json with `dir`, as runSuite does.
 */
function runAttach(loadUrl, query, options) {
  return startAndFollow(loadUrl, `/attach?${new URLSearchParams(query)}`, `the attach run of ${query.url}`, options);
}

async function startAndFollow(loadUrl, target, what, { resultsDir, onProgress = () => {} }) {
  const started = await fetch(`${loadUrl}${target}`, { method: 'POST' });
  if (started.status !== 202) throw new Error(`could not start ${what}: ${await started.text()}`);
  let done = -1;
  let progressAt = Date.now();
  for (;;) {
    await sleep(POLL_MS);
    const status = await (await fetch(`${loadUrl}/runs/latest`)).json();
    if (status.state === 'error') throw new Error(`${what}: ${status.error}`);
    if (status.completed.length !== done) {
      done = status.completed.length;
      progressAt = Date.now();
      onProgress(status);
    } else if (Date.now() - progressAt > NO_PROGRESS_MS) {
      throw new Error(`${what}: no scenario ended for ${NO_PROGRESS_MS / 1000} s (now in ${status.current})`);
    }
    if (!['waiting', 'running'].includes(status.state)) {
      const dir = status.resultsDir.replace(/^\/results/, resultsDir);
      return Object.assign(JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')), { dir });
    }
  }
}

module.exports = { runSuite, runAttach };
