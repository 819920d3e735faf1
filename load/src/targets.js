'use strict';
// Waits for every target's /healthz, then records what each one runs (its /info) for the results' metadata.

const POLL_MS = 500;
const REQUEST_TIMEOUT_MS = 2000;

async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/** Resolves when every target answers /healthz with 200, rejects after timeoutMs naming the ones that did not. */
async function waitForTargets(targets, timeoutMs, log) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(Object.keys(targets));
  let lastReport = 0;
  while (pending.size > 0) {
    await Promise.all(
      [...pending].map((name) =>
        getJson(`${targets[name]}/healthz`).then(
          () => pending.delete(name),
          () => {},
        ),
      ),
    );
    if (pending.size === 0) break;
    if (Date.now() > deadline) throw new Error(`targets not healthy after ${timeoutMs} ms: ${[...pending].join(', ')}`);
    if (Date.now() - lastReport > 5000) {
      log(`waiting for ${[...pending].join(', ')}`);
      lastReport = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function describeTargets(targets) {
  const entries = await Promise.all(Object.entries(targets).map(async ([name, url]) => [name, Object.assign({ url }, await getJson(`${url}/info`))]));
  return Object.fromEntries(entries);
}

module.exports = { waitForTargets, describeTargets };
