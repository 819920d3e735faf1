'use strict';
// How far the run is, for the live page: which scenario of how many, how long it has run and has left, and how long
// the suite has left. The times left are what the scenarios' durations promise: a scenario ends sooner when it reaches
// maxRequests, later by the wait for a slow target's first answer, and the suite waits for each target's /healthz.

/** From a run's state (runner.latest()) at nowMs: {state, done, of, scenario, elapsedSeconds, scenarioLeftSeconds, suiteLeftSeconds}, or null before any run. */
function progressOf(run, nowMs) {
  if (!run) return null;
  const done = run.completed ? run.completed.length : 0;
  const current = run.currentScenario || null;
  const progress = { state: run.state, done, of: typeof run.scenarios === 'number' ? run.scenarios : null, scenario: current, elapsedSeconds: null, scenarioLeftSeconds: null, suiteLeftSeconds: null };
  if (current) {
    const elapsed = Math.max(0, (nowMs - Date.parse(current.startedAt)) / 1000);
    const left = Math.max(0, current.durationSeconds - elapsed);
    Object.assign(progress, { elapsedSeconds: Math.round(elapsed), scenarioLeftSeconds: Math.round(left), suiteLeftSeconds: Math.round(left + (run.upcomingSeconds || 0)) });
  }
  return progress;
}

module.exports = { progressOf };
