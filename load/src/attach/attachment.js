'use strict';
// The service the driver's last POST /attach (or make attach) named, as the driver's targets: the service under the
// name `attached`, its agent (when it has one) as `attached-agent`, and which is whose (attached.js). The runner keeps
// the attachment of the run it started and runs it with withAttachment(config, attachment): the driver's own targets
// (LOAD_TARGETS, LOAD_ATTACHED) stay as they were read at start, and each POST /attach replaces the attachment whole.
const { attachSuite } = require('./attach-suite');

// The driver's names for the service and its agent: the Prometheus job of the agent's series is the service's name.
const TARGET = 'attached';
const AGENT_TARGET = 'attached-agent';

/**
 * endpoint {url (a URL), agentUrl (origin or null)} and the agent's /info (or null) as {targets: {name: url},
 * attached: {target: agent target or null}, kinds: {target: its agent's kind, node or jvm, or null}, job: the
 * agent's Prometheus job, agentHost: host:port Prometheus scrapes
 * (or null)}; ready (a function of the run's signal) and waitingFor (what it waits for, in words) are added by whoever
 * knows how Prometheus is told (attach-scrape.js).
 */
function attachmentOf(endpoint, info) {
  const targets = { [TARGET]: endpoint.url.origin };
  if (info) targets[AGENT_TARGET] = endpoint.agentUrl;
  return { targets, attached: { [TARGET]: info ? AGENT_TARGET : null }, kinds: { [TARGET]: info ? info.agent : null }, job: TARGET, agentHost: info ? new URL(endpoint.agentUrl).host : null };
}

/** The driver's config as a run with attachment (or null) sees it: its targets and attached ones with the attachment's added. */
function withAttachment(config, attachment) {
  if (!attachment) return config;
  return Object.assign({}, config, { targets: Object.assign({}, config.targets, attachment.targets), attached: Object.assign({}, config.attached, attachment.attached) });
}

/**
 * The attach suite (attach-suite.js) for endpoint {url, method, headers, body, probePath} with the agent's /info (or
 * null) and settings {durationSeconds, blockMs, rates, unscraped}.
 */
function attachSuiteFor(endpoint, info, settings) {
  return attachSuite({
    target: TARGET,
    agentTarget: info ? AGENT_TARGET : null,
    agentKind: info ? info.agent : null,
    lagResolutionMs: info && typeof info.lagResolutionMs === 'number' ? info.lagResolutionMs : 0,
    url: endpoint.url.href,
    method: endpoint.method,
    path: `${endpoint.url.pathname}${endpoint.url.search}`,
    headers: endpoint.headers,
    body: endpoint.body,
    // Without a probe path the agent's /healthz: a Node agent answers it on the service's event loop; a JVM agent on a
    // thread of its own, which feels only what stops every thread (GC pauses, safepoints): a service path says more.
    probePath: endpoint.probePath,
  }, settings);
}

module.exports = { attachmentOf, withAttachment, attachSuiteFor, TARGET, AGENT_TARGET };
