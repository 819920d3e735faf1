'use strict';
// The machine before a run starts (`make try`, `make matrix`), read from /proc/stat itself (node-kit/machine.js): the
// lab may not run yet, so Prometheus has nothing to say. A busy machine is named before the run, not discovered in its
// figures; the run goes on either way.
const { readMachine, machineBetween } = require('@lab/node-kit/machine');
const { round } = require('@lab/loop-kit/round');

// How long the machine is watched before a run starts: long enough for /proc/stat's hundredths to mean something.
const BEFORE_START_MS = 2000;

/**
 * The machine before a run starts (make try, the matrix), watched for BEFORE_START_MS: {window (machineBetween's),
 * busy, line}, or null where /proc/stat cannot be read. running: what of the lab already runs (counted in the busy
 * share, and said).
 */
async function machineBeforeStart(busyPercent, running = null) {
  const before = readMachine();
  await new Promise((resolve) => setTimeout(resolve, BEFORE_START_MS));
  const window = machineBetween(before, readMachine());
  if (!window) return null;
  const percent = round(window.busyShare * 100, 1);
  const busy = percent > busyPercent;
  const facts = [`${round(window.busyCores, 2)} of ${window.cpus} CPUs busy (${percent} %${running ? `, ${running} included` : ''})`, `load ${window.load1}`];
  if (window.stealShare > 0) facts.push(`${round(window.stealShare * 100, 1)} % stolen by the hypervisor`);
  const verdict = busy
    ? `busy, past LAB_BUSY_PERCENT=${busyPercent} %: something else is using the CPU. The run goes on; each scenario says how much of the CPU went elsewhere, and a busy one is no verdict`
    : `quiet enough (LAB_BUSY_PERCENT=${busyPercent} %)`;
  return { window, busy, line: `the machine before the start: ${facts.join(', ')}: ${verdict}` };
}

module.exports = { machineBeforeStart };
