'use strict';
// A run of the load driver started through its HTTP API (POST /runs, or POST /attach) and followed to its end, printing each scenario's
// line as it ends, which one runs now, and that a long one still runs: what `make try` and `make attach` show while
// they wait.
const { describeSummary } = require('@lab/load/src/run/summary');

const POLL_MS = 1000;
const STILL_RUNNING_EVERY_MS = 15000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function json(url, options) {
  const res = await fetch(url, options);
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

/**
 * Starts a run (POST target: /runs?query, /attach?query, with body if any) and follows it to its end; the final
 * /runs/latest. what: "the try run".
 */
async function followRun(driverUrl, target, what, say, body = undefined) {
  const started = await json(`${driverUrl}${target}`, { method: 'POST', body });
  if (started.status !== 202) throw new Error(`${what} could not start (HTTP ${started.status}): ${started.body.error}`);
  let shown = 0;
  let current = null;
  let since = Date.now();
  let lastSaid = Date.now();
  let waitingFor;
  for (;;) {
    await sleep(POLL_MS);
    const { body: status } = await json(`${driverUrl}/runs/latest`);
    for (const summary of status.completed.slice(shown)) say(`[${++shown}/${status.scenarios}] ${describeSummary(summary)}`);
    if (status.state === 'error') throw new Error(`${what} failed: ${status.error}`);
    if (!['waiting', 'running'].includes(status.state)) return status;
    if (status.waitingFor && status.waitingFor !== waitingFor) say(`waiting for ${status.waitingFor}`);
    waitingFor = status.waitingFor;
    const now = status.currentScenario;
    if (now && now.name !== current) {
      current = now.name;
      since = Date.now();
      lastSaid = since;
      say(`[${now.index}/${status.scenarios}] ${now.name}: ${now.durationSeconds} s under load (about ${status.upcomingSeconds} s of scenarios after it)`);
    } else if (now && Date.now() - lastSaid > STILL_RUNNING_EVERY_MS) {
      lastSaid = Date.now();
      say(`  ${now.name} still running after ${Math.round((Date.now() - since) / 1000)} s`);
    }
  }
}

module.exports = { followRun, json };
