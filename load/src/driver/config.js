'use strict';
// Every setting of the load driver, read from the environment once, with its default. The default targets are the
// compose lab's services, from their manifests (lab-topology: each service's name as its host); the native runner
// overrides LOAD_TARGETS with 127.0.0.1 addresses. The driver
// listens on 127.0.0.1 unless HOST says otherwise: it starts load on demand, so it is not offered to the network by
// default (its image sets HOST=0.0.0.0, and compose publishes the port on LAB_BIND_ADDRESS only).
const path = require('node:path');
const { stallTimeouts } = require('@lab/node-kit/http-server');
const { documentSettings } = require('@lab/node-kit/document-store');
const { SUITES_DIR } = require('../suite/suites');
const { busyPercentSetting } = require('../machine/busy-machine');
const { readManifests, servicesOf } = require('@lab/lab-topology/manifests');
const { PROMETHEUS_PORT } = require('@lab/lab-topology/topology');
const { parseAttached } = require('../attach/attached');

/** The compose lab's services as LOAD_TARGETS would name them: name=http://name:port. */
const composeTargets = () => servicesOf(readManifests()).map((m) => `${m.name}=http://${m.name}:${m.port}`).join(',');
const SUITE_NONE = 'none';

function env(name, fallback) {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : value;
}

function integer(name, fallback, min) {
  const raw = env(name, String(fallback));
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return value;
}

/** "name=url,name=url" -> {name: url} */
function parseTargets(text) {
  const targets = {};
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = /^([a-z0-9-]+)=(https?:\/\/[^\s,]+)$/.exec(entry);
    if (!match) throw new Error(`LOAD_TARGETS: "${entry}" is not name=http://host:port`);
    targets[match[1]] = match[2].replace(/\/$/, '');
  }
  return targets;
}

function prometheusUrl(text) {
  if (text === 'none') return null;
  if (!/^https?:\/\/[^\s/]+$/.test(text.replace(/\/$/, ''))) throw new Error(`PROMETHEUS_URL must be http://host:port or none, got ${text}`);
  return text.replace(/\/$/, '');
}

function readConfig() {
  // CONTRACT.md "Clients that stall": a request head gets HEADERS_TIMEOUT_MS, a whole request REQUEST_TIMEOUT_MS (the
  // driver streams no response, so STALLED_CLIENT_TIMEOUT_MS has nothing to cut here).
  const { headersTimeoutMs, requestTimeoutMs } = stallTimeouts((name, fallback) => integer(name, fallback, 0));
  const targets = parseTargets(process.env.LOAD_TARGETS ? process.env.LOAD_TARGETS : composeTargets());
  return {
    port: integer('PORT', 3005, 0),
    host: env('HOST', '127.0.0.1'),
    timeouts: { headersTimeoutMs, requestTimeoutMs },
    suite: env('LOAD_SUITE', 'demo'),
    loop: env('LOAD_LOOP', '1') !== '0',
    targets,
    // Targets the lab did not write (make attach), each with its agent's target or none (attach/attached.js).
    attached: parseAttached(env('LOAD_ATTACHED', ''), targets),
    // POST /attach (attach/attach-request.js): any host, not only loopback and the targets' hosts, with 1 (a load
    // generator pointed at a machine that is not the user's own is an attack); and the folder Prometheus reads file_sd
    // targets from, where the driver names an attached service's agent (attach/attach-scrape.js; none: unscraped).
    attachAllowRemote: env('LOAD_ATTACH_ALLOW_REMOTE', '0') === '1',
    scrapeTargetsDir: env('LOAD_SCRAPE_TARGETS_DIR', '') ? path.resolve(env('LOAD_SCRAPE_TARGETS_DIR', '')) : null,
    resultsDir: path.resolve(env('RESULTS_DIR', 'results')),
    suitesDir: path.resolve(env('LOAD_SUITES_DIR', SUITES_DIR)),
    waitTimeoutMs: integer('LOAD_WAIT_TIMEOUT_MS', 120000, 0),
    // Where the server's side of each scenario is read (server-series.js); `none` records none.
    prometheusUrl: prometheusUrl(env('PROMETHEUS_URL', `http://prometheus:${PROMETHEUS_PORT}`)),
    // Shared with the services: what their POST /profile asks for (profile/take-profile.js).
    profileToken: env('LAB_PROFILE_TOKEN', ''),
    // Past this share of the machine's CPU going elsewhere, a scenario says its figures are not a verdict (busy-machine.js).
    busyPercent: busyPercentSetting(),
    // The names beside IP addresses, localhost and the machine's host name that a request may send in Host to reach
    // the driver's runs (node-kit/cross-site.js): its compose service name by default.
    hostNames: env('LOAD_HOST_NAMES', 'load').split(',').map((s) => s.trim()).filter(Boolean),
    // PUT /documents (documents.js): the services' settings and defaults (DOCUMENT_MAX_BYTES, DOCUMENTS_MAX_COUNT, ...).
    documents: documentSettings((name, fallback) => integer(name, fallback, 0)),
  };
}

module.exports = { readConfig, parseTargets, composeTargets, SUITE_NONE };
