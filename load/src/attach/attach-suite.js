'use strict';
// The suite `make attach` runs against a service the lab did not write: one endpoint (method, path, headers, body), in
// closed loops at a few connection counts and then in open loops at shares of the most a closed loop got answered a
// second (its saturation: suites.js' arrivalShareOf), a probe beside each (the service's own cheap path where the user names
// one, else the agent's /healthz, which a Node agent answers on the service's own event loop), every scenario
// profiled. Each load is bounded in time and count (suites.js' LIMITS). The suite is data: scripts/attach.js writes it
// where the driver reads suites, and the run's verdict (attach-verdict.js) reads run.json's `attach`.

// Closed loops: one client, a few, many; open loops: a quarter of saturation to all of it.
const CONNECTIONS = [1, 4, 16];
const SHARES = [0.25, 0.5, 0.75, 1];
const PROBE_RATE = 20;
// The open loops' names, in SHARES' order: an earlier run's rates are given by them.
const OPEN_NAMES = SHARES.map((share) => `open-${Math.round(share * 100)}pct`);
// Every closed loop's warm-up: a JIT still compiling or a cache filling is not what a load measures.
const WARMUP_SECONDS = 2;
const TIMEOUT_SECONDS = 30;
// A load's bound in requests, beside its bound in time.
const MAX_REQUESTS = 200000;

/**
 * The suite for endpoint {target, agentTarget (or null), agentKind ('node' | 'jvm' | null), lagResolutionMs (the
 * Node agent's loop-monitor interval), url, method, path, headers, body, probePath (or null)} with settings {durationSeconds, blockMs, rates, unscraped}: rates ({open loop's name:
 * requests a second}, an earlier run's) fixes the open loops' rates, so that a run after a fix loads the service as
 * the run before it did (make attach BEFORE=); unscraped says why the agent's series will be missing (attach-scrape.js).
 */
function attachSuite(endpoint, { durationSeconds, blockMs, rates = null, unscraped = null }) {
  const probe = endpoint.probePath
    ? { path: endpoint.probePath, ratePerSecond: PROBE_RATE }
    : endpoint.agentTarget ? { path: '/healthz', ratePerSecond: PROBE_RATE, target: endpoint.agentTarget } : undefined;
  const request = Object.assign(
    { target: endpoint.target, method: endpoint.method, path: endpoint.path, expect: 'status', durationSeconds, maxRequests: MAX_REQUESTS, timeoutSeconds: TIMEOUT_SECONDS },
    endpoint.headers && Object.keys(endpoint.headers).length ? { headers: endpoint.headers } : {},
    endpoint.body !== undefined ? { body: endpoint.body } : {},
    probe ? { probe } : {},
  );
  const closed = CONNECTIONS.map((connections) => Object.assign({ name: `closed-c${connections}`, connections, warmupSeconds: WARMUP_SECONDS }, request));
  const saturated = closed.map((s) => s.name);
  // An open loop keeps as many requests in flight as the rate needs; its connections bound that.
  const open = OPEN_NAMES.map((name, i) => {
    const share = SHARES[i];
    const rate = rates && rates[name] ? { arrivalRate: rates[name] } : { arrivalShareOf: { scenario: saturated, share } };
    return Object.assign({ name, connections: CONNECTIONS[CONNECTIONS.length - 1] * 4 }, rate, request);
  });
  return {
    description: `make attach: ${endpoint.method} ${endpoint.url}, closed loops at ${CONNECTIONS.join(', ')} connections, then open loops at ${SHARES.map((s) => `${s * 100} %`).join(', ')} of the most a closed loop answered a second; the probe ${probe ? `GET ${probe.path}${probe.target ? ' on the agent' : ''}` : 'none (no agent and no probe path)'}`,
    attach: Object.assign({ url: endpoint.url, method: endpoint.method, agent: endpoint.agentKind, blockMs, lagResolutionMs: endpoint.lagResolutionMs || 0 }, unscraped ? { unscraped } : {}),
    profile: Boolean(endpoint.agentTarget),
    thresholds: {},
    scenarios: closed.concat(open),
  };
}

module.exports = { attachSuite, CONNECTIONS, SHARES, OPEN_NAMES };
