'use strict';
// Whether a target is healthy (its /healthz), waiting until every target is, and what each one runs (its /info) for
// the results' metadata and the suite's coverage.
const { setTimeout: sleep } = require('node:timers/promises');
const { healthCheckOf, attachedInfo } = require('../attach/attached');

const POLL_MS = 500;
const REQUEST_TIMEOUT_MS = 2000;

async function getJson(url, signal) {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const res = await fetch(url, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/**
 * The target's health now, asked as check ({url, anyAnswer}: attach/attached.js' healthCheckOf; a lab service's
 * /healthz by default): {state: 'ok'} (200, or below 500 with anyAnswer), 'busy' (no answer in time: a blocked event
 * loop, which some routes cause on purpose) or 'down' (another status, such as 503 while it shuts down, or a
 * connection refused, reset or not resolved), with why.
 */
async function health(check, signal) {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  try {
    const res = await fetch(check.url, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
    // An attached service's own answer is read to its end: an unread body would keep its connection busy.
    if (check.anyAnswer) await res.arrayBuffer().catch(() => null);
    return res.ok || (check.anyAnswer && res.status < 500) ? { state: 'ok' } : { state: 'down', why: `HTTP ${res.status}` };
  } catch (err) {
    if (err.cause) return { state: 'down', why: err.cause.code || err.cause.message };
    if (err.name === 'TimeoutError') return { state: 'busy', why: `no answer in ${REQUEST_TIMEOUT_MS} ms` };
    return { state: 'down', why: err.message };
  }
}

/** Why the target does not answer its check (attach/attached.js' healthCheckOf) with "ok" now, or null: not ready for a scenario. */
async function unhealthy(check, signal) {
  const { state, why } = await health(check, signal);
  return state === 'ok' ? null : why;
}

/** Why the target is gone (down, not merely busy), or null: a scenario's target that died or is stopping. */
async function gone(check) {
  const { state, why } = await health(check);
  return state === 'down' ? why : null;
}

/**
 * Resolves when every target answers /healthz with 200 (an attached one: its check, attach/attached.js; where:
 * {attached, targets}, the driver's), rejects after timeoutMs naming the ones that did not, or with signal's reason as
 * soon as signal aborts (a suite stopped while it waits).
 */
async function waitForTargets(targets, timeoutMs, log, signal, where = {}) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(Object.keys(targets));
  let lastReport = 0;
  while (pending.size > 0) {
    signal?.throwIfAborted();
    await Promise.all([...pending].map(async (name) => {
      if ((await unhealthy(healthCheckOf(name, targets[name], where.attached, where.targets), signal)) === null) pending.delete(name);
    }));
    signal?.throwIfAborted();
    if (pending.size === 0) break;
    if (Date.now() > deadline) throw new Error(`targets not healthy after ${timeoutMs} ms: ${[...pending].join(', ')}`);
    if (Date.now() - lastReport > 5000) {
      log(`waiting for ${[...pending].join(', ')}`);
      lastReport = Date.now();
    }
    await sleep(POLL_MS, undefined, { signal });
  }
}

/** Whether a target's /info lists serializer plugins still being checked: they join its approaches once checked. */
const checkingPlugins = (info) => Boolean(info.plugins?.plugins?.some((plugin) => plugin.state === 'checking'));

/** A target's /info with its url; an attached one's (attach/attached.js): its url and its agent's /info, or null. */
async function infoOf(name, url, { attached = {}, targets = {} }) {
  if (!(name in attached)) return Object.assign({ url }, await getJson(`${url}/info`));
  const agent = attached[name];
  return attachedInfo(url, agent ? await getJson(`${targets[agent]}/info`).catch(() => null) : null);
}

/**
 * Every target's /info ({name: info with its url}; where: {attached, targets}, the driver's, for targets the lab did
 * not write), once none lists serializer plugins still being checked (so that a suite's coverage, generated from it,
 * has them), or as it is after timeoutMs or when signal aborts.
 */
async function describeTargets(targets, timeoutMs = 0, log = () => {}, signal = undefined, where = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastReport = 0;
  for (;;) {
    const entries = await Promise.all(Object.entries(targets).map(async ([name, url]) => [name, await infoOf(name, url, where)]));
    const pending = entries.filter(([, info]) => checkingPlugins(info)).map(([name]) => name);
    if (pending.length === 0 || Date.now() > deadline || signal?.aborted) return Object.fromEntries(entries);
    if (Date.now() - lastReport > 5000) {
      log(`waiting for ${pending.join(', ')} to finish checking serializer plugins`);
      lastReport = Date.now();
    }
    await sleep(POLL_MS, undefined, { signal }).catch(() => {});
  }
}

module.exports = { waitForTargets, describeTargets, unhealthy, gone };
