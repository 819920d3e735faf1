'use strict';
// The end of a pass: its state and verdict (and, stopped, where and how it stood), a try run's choice of approaches
// (try/try-choice.js) or an attach run's verdict (attach/attach-verdict.js), run.json written whole, and report.html.
const { writeJson } = require('./results');
const { writeReport } = require('../report');
const { RUN_FILE } = require('./run-folder');
const { chooseApproaches } = require('../try/try-choice');
const { machineBusyOfRun } = require('../machine/busy-machine');
const { readRunFolder } = require('./run-folder');
const { attachVerdict } = require('../attach/attach-verdict');

/** Ends the pass of suite whose /runs/latest state is status and header meta, in runDir; returns status. */
function finishPass({ log }, { suite, status, meta, runDir, signal, stoppedIn }) {
  status.current = null;
  status.currentScenario = null;
  status.upcomingSeconds = 0;
  status.endedAt = new Date().toISOString();
  if (signal.aborted) status.state = 'stopped';
  else status.state = status.completed.length === suite.scenarios.length && status.completed.every((s) => s.passed) ? 'passed' : 'failed';
  const ran = status.completed.filter((c) => !c.stopped);
  const end = {
    endedAt: status.endedAt,
    state: status.state,
    verdict: status.state,
    // For a stopped run: the scenario it stopped in (null between scenarios), and how the scenarios that ran to
    // their end did.
    stoppedIn,
    verdictSoFar: ran.length === 0 ? null : ran.every((c) => c.passed) ? 'passed' : 'failed',
    error: status.error || null,
    summary: status.completed,
    // What the machine did beside the lab over the run (busy-machine.js): null where no scenario was watched.
    machineBusy: machineBusyOfRun(status.completed),
  };
  // What a try run tells its user (try-choice.js), kept with the run: report.html reads it from the scenarios again.
  status.machineBusy = end.machineBusy;
  if (meta.try) {
    end.choice = chooseApproaches(status.completed, meta.try.blockMs, meta.targets);
    status.choice = end.choice;
  }
  // What an attach run tells its user (attach/attach-verdict.js): from the scenario files, which hold the profiles.
  if (meta.attach) {
    end.attachVerdict = attachVerdict(readRunFolder(runDir).scenarios.map((s) => s.data), meta.attach);
    status.attachVerdict = end.attachVerdict;
  }
  writeJson(runDir, RUN_FILE, Object.assign(meta, end));
  // The report is for people: a problem writing it is logged and changes no verdict (make report redoes it).
  try {
    if (meta.startedAt) status.report = writeReport(runDir);
  } catch (err) {
    log(`suite ${suite.name}: report.html not written: ${err.message}`);
  }
  log(`suite ${suite.name}: ${status.state}${status.report ? `, report ${status.report}` : ''}`);
  return status;
}

module.exports = { finishPass };
