'use strict';
// The machine's CPU outside the lab, from the series a scenario's server section holds: each second the machine's
// busy cores less every lab job's, of all its CPUs; a scenario past the limit is busy and says its figures are no
// verdict; a run names its busy scenarios. Pure figures: the real path (driver, Prometheus, hogs) is
// busy-machine-hogs.test.js'.
const test = require('node:test');
const assert = require('node:assert');
const { machineShares, machineFigures, busyWords, machineBusyOfRun, busyPercentSetting, DEFAULT_BUSY_PERCENT } = require('../src/machine/busy-machine');

const series = (values) => values.map((v, i) => [100 + i, v]);

test("each second: the machine's busy cores less the lab's, of its CPUs, never below 0; seconds missing a figure left out", () => {
  const machine = { busyCores: series([2, 1.5, 0.5, 1]), labCores: [[100, 0.5], [101, 1.5], [102, 0.7]], cpus: series([2, 2, 2, 2]), stealCores: series([0.2, 0, 0, 0]) };
  const { elsewhereShare, stealShare } = machineShares(machine);
  assert.deepStrictEqual(elsewhereShare, [[100, 0.75], [101, 0], [102, 0]]);
  assert.deepStrictEqual(stealShare, [[100, 0.1], [101, 0], [102, 0], [103, 0]]);
});

test('a scenario past the limit is busy, with its mean, worst second, steal and load; one under it is not; no series gives null', () => {
  const machine = { busyCores: series([2, 2, 1]), labCores: series([0.5, 0.5, 0.5]), cpus: series([2, 2, 2]), stealCores: series([0, 0.1, 0]), load1: series([1.5, 2.5, 2]), frequencyHertz: series([2.3e9, 2.3e9, 2.3e9]) };
  const busy = machineFigures(machine, 25, { throttledRatio: series([0, 0.25, 0.5]) });
  assert.deepStrictEqual(busy, { cpus: 2, elsewherePercent: 58.3, elsewherePeakPercent: 75, stealPercent: 1.7, load1Max: 2.5, frequencyMHz: 2300, targetThrottledSeconds: 0.75, busyLimitPercent: 25, busy: true });
  assert.strictEqual(busyWords(busy), "the machine was busy: 58.3 % of its CPU went to processes outside the lab (worst second 75 %, load 2.5 on 2 CPUs, 1.7 % stolen by the hypervisor, the target's CPU quota held it back 0.75 s); these figures are not a verdict");
  assert.strictEqual(machineFigures(machine, 25).targetThrottledSeconds, null, 'a target that exports no throttling');
  assert.strictEqual(machineFigures(machine, 60).busy, false);
  assert.strictEqual(machineFigures({ busyCores: [] }, 25), null);
  assert.strictEqual(machineFigures(undefined, 25), null);
});

test("the scenario's share is the mean of the seconds' differences, clamped once: a second the lab's figure ran ahead is not zero", () => {
  // The lab's CPU is read at other instants than the machine's: +0.5, -0.5, +0.5 cores of 2 CPUs is 8.3 % elsewhere,
  // where clamping each second first would say 16.7 %.
  const machine = { busyCores: series([1, 0.5, 1.5]), labCores: series([0.5, 1, 1]), cpus: series([2, 2, 2]) };
  const figures = machineFigures(machine, 10);
  assert.strictEqual(figures.elsewherePercent, 8.3);
  assert.strictEqual(figures.elsewherePeakPercent, 25, "the worst second's own share");
  assert.strictEqual(figures.busy, false);
  assert.strictEqual(machineFigures({ busyCores: series([0.5, 0.5]), labCores: series([1, 1]), cpus: series([2, 2]) }, 10).elsewherePercent, 0, 'never below 0');
});

test('a run names its busy scenarios and its busiest; a run none of whose scenarios was watched has none', () => {
  const figures = (elsewherePercent) => ({ cpus: 2, elsewherePercent, elsewherePeakPercent: elsewherePercent, stealPercent: 0, load1Max: 1, frequencyMHz: null, busyLimitPercent: 25, busy: elsewherePercent > 25 });
  const run = machineBusyOfRun([{ name: 'a', machineBusy: figures(5) }, { name: 'b', machineBusy: figures(40) }, { name: 'c', machineBusy: null }, { name: 'd', machineBusy: figures(30) }]);
  assert.deepStrictEqual(run.busyScenarios, ['b', 'd']);
  assert.strictEqual(run.worst.scenario, 'b');
  assert.deepStrictEqual([run.watched, run.scenarios, run.busy, run.busyLimitPercent], [3, 4, true, 25]);
  assert.strictEqual(machineBusyOfRun([{ name: 'a', machineBusy: null }]), null);
});

test('LAB_BUSY_PERCENT: a number in [0, 100], else a clear error; unset, the default', () => {
  assert.strictEqual(busyPercentSetting({}), DEFAULT_BUSY_PERCENT);
  assert.strictEqual(busyPercentSetting({ LAB_BUSY_PERCENT: '12.5' }), 12.5);
  for (const bad of ['-1', '101', 'lots']) assert.throws(() => busyPercentSetting({ LAB_BUSY_PERCENT: bad }), /LAB_BUSY_PERCENT must be a number in \[0, 100\], got/);
});
