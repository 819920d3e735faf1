'use strict';
// The machine's figures read from Linux's own files: /proc/stat's CPU time by mode, /proc/loadavg, a cgroup's cpu.stat
// (v1 and v2) and where this process's is; and, on this machine, a window's busy CPU holding at least the CPU time this
// process spent in it (its own busy loop is part of the machine's busy time). Counts, not durations.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { readMachine, machineBetween, parseProcStat, parseLoadAverage, parseCgroupCpuStat, cpuStatCandidates, processStatFields, processCpuSeconds } = require('../machine');

test("/proc/stat's cpu line: seconds by mode summed over CPUs, the CPUs counted from their own lines", () => {
  const text = 'cpu  3395559 455 386192 899393 4930 0 10851 9499 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\ncpu1 1 2 3 4 5 6 7 8 0 0\nintr 1 2\n';
  const { modes, cpus } = parseProcStat(text);
  assert.strictEqual(cpus, 2);
  assert.deepStrictEqual(modes, { user: 33955.59, nice: 4.55, system: 3861.92, idle: 8993.93, iowait: 49.3, irq: 0, softirq: 108.51, steal: 94.99 });
  assert.strictEqual(parseProcStat('intr 1 2\n'), null);
});

test('the load average and a cgroup\'s throttling, v2 and v1; a cpu.stat without throttling counts is null', () => {
  assert.strictEqual(parseLoadAverage('0.08 2.14 3.80 1/89 27142\n'), 0.08);
  assert.deepStrictEqual(parseCgroupCpuStat('usage_usec 100\nnr_periods 40\nnr_throttled 3\nthrottled_usec 250000\n'), { periods: 40, throttledPeriods: 3, throttledSeconds: 0.25 });
  assert.deepStrictEqual(parseCgroupCpuStat('nr_periods 10\nnr_throttled 2\nthrottled_time 1500000000\n'), { periods: 10, throttledPeriods: 2, throttledSeconds: 1.5 });
  assert.strictEqual(parseCgroupCpuStat('usage_usec 100\n'), null);
});

test("where a process's cpu.stat is: its own cgroup's, v2 or v1, most specific first, the mounted root last", () => {
  assert.deepStrictEqual(cpuStatCandidates('0::/user.slice/session-1.scope\n', '/cg'), ['/cg/user.slice/session-1.scope/cpu.stat', '/cg/cpu.stat', '/cg/cpu/cpu.stat']);
  const v1 = cpuStatCandidates('4:memory:/x\n2:cpu,cpuacct:/docker/abc\n0::/\n', '/cg');
  assert.deepStrictEqual(v1.slice(0, 3), ['/cg/cpu,cpuacct/docker/abc/cpu.stat', '/cg/cpu/docker/abc/cpu.stat', '/cg/cpu.stat']);
  assert.ok(v1.includes('/cg/cpu/cpu.stat'));
  assert.deepStrictEqual(cpuStatCandidates(null, '/cg'), ['/cg/cpu.stat', '/cg/cpu/cpu.stat']);
});

test('on this machine: a window holds at least the CPU this process spent in it, and shares stay within the machine', { skip: process.platform === 'linux' ? false : 'Linux only' }, () => {
  const before = readMachine();
  assert.ok(before.cpus > 0 && before.cpuSeconds.user > 0, JSON.stringify(before));
  const ownBefore = process.cpuUsage();
  // Spin until this process has used 0.3 s of CPU: busy time the machine must count, however slow or loaded it is.
  while (process.cpuUsage(ownBefore).user < 300000);
  const own = process.cpuUsage(ownBefore);
  const window = machineBetween(before, readMachine());
  const ownSeconds = (own.user + own.system) / 1e6;
  // /proc/stat counts in hundredths of a second per CPU: one tick each of slack.
  assert.ok(window.busyCores * window.seconds >= ownSeconds - 0.01 * window.cpus, `machine busy ${window.busyCores * window.seconds} s, this process ${ownSeconds} s`);
  assert.ok(window.busyShare > 0 && window.busyShare <= 1 && window.stealShare >= 0 && window.stealShare <= window.busyShare, JSON.stringify(window));
});

test("another process's CPU time grows with the work it does, as that process' own clock says", { skip: !fs.existsSync('/proc/self/stat') && 'no /proc here' }, async () => {
  // A child that spins until its own CPU clock has moved 300 ms, then reports that clock and waits: no wall time in it.
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, ['-e', "const from = process.cpuUsage(); let u; do { u = process.cpuUsage(from); } while (u.user + u.system < 300000); const n = process.cpuUsage(); console.log((n.user + n.system) / 1e6); setInterval(() => {}, 1000);"], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const ownSeconds = Number(await new Promise((resolve) => child.stdout.once('data', resolve)));
    const seen = processCpuSeconds(child.pid);
    // /proc counts in hundredths: the two clocks agree to a couple of ticks.
    assert.ok(seen >= 0.3 - 0.02 && Math.abs(seen - ownSeconds) <= 0.05, `/proc says ${seen} s, the process ${ownSeconds} s`);
  } finally {
    child.kill();
  }
  assert.throws(() => processCpuSeconds(2 ** 22 + 1), /no process 4194305/);
});

test("a process's stat fields start after its name, whatever the name holds", () => {
  const fields = processStatFields('4242 (node (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0');
  assert.deepStrictEqual([fields[0], fields[1], fields[2], fields[11], fields[12]], ['S', '1', '4242', '250', '75']);
});
