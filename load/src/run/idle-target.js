'use strict';
// Before a scenario, the runs its target still has from earlier scenarios are waited for. A scenario ends by closing
// its connections, and a run in flight then is one whose client went away: an approach that can stop stops at its next
// slice, but one that cannot (yieldable-json, a synchronous native call) runs on. yieldable's runs of a 21 MB document
// take 2-14 s, longer than a try round of 1 s, so its last run went on through the scenarios of the approaches after
// it, and its 13-19 ms blocks were charged to them: CPU profiles of `fast` stringify's longest blocks under `make try`
// found yieldable-json's getResult in them. The lab's services say how many runs they have in progress
// (`/healthz`'s `runs`, CONTRACT.md); a target that does not is not waited for.
const POLL_MS = 100;
const ANSWER_TIMEOUT_MS = 5000;

/** runs from GET url/healthz: a number, or null when the target does not count them or did not answer. */
async function runsInProgress(url, signal) {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.any([signal, AbortSignal.timeout(ANSWER_TIMEOUT_MS)]) });
    const body = await res.json();
    return res.status === 200 && Number.isInteger(body.runs) ? body.runs : null;
  } catch {
    return null;
  }
}

/**
 * Waits, for at most boundMs, until the target at url has no run in progress, asking every POLL_MS. Resolves null
 * when it had none or does not count them, else {runs (at the start), left (at the end: 0 once idle), waitedMs}.
 */
async function waitForIdleTarget(url, boundMs, signal) {
  const startedAt = Date.now();
  const first = await runsInProgress(url, signal);
  if (first === null || first === 0) return null;
  let left = first;
  while (left > 0 && Date.now() - startedAt < boundMs && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const now = await runsInProgress(url, signal);
    if (now === null) break;
    left = now;
  }
  return { runs: first, left, waitedMs: Date.now() - startedAt };
}

/** What a scenario's result says when its target was still busy at its start (idle: waitForIdleTarget's, not null). */
function busyTargetFlag(target, idle) {
  return `${target} still had ${idle.left} run(s) of earlier scenarios in progress after ${idle.waitedMs} ms: their blocks may be in this scenario's figures`;
}

module.exports = { waitForIdleTarget, busyTargetFlag };
