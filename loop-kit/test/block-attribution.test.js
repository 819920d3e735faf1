'use strict';
// A block split into what ran and what waited (the thread's clock, event-loop.js), as properties, never against the
// clock: a run whose one synchronous piece is a fixed amount of its own CPU time (fixtures/cpu-piece.js), first
// alone, then on one CPU shared with two CPU hogs of the test's own. Alone, the piece is the longest block and it is
// attributed to running, whatever else the machine does. Beside the hogs, the scheduler gives each of the three a
// share of that CPU, so the piece's block grows by the hogs' turns: that growth is attributed to waiting, and the
// part the run is accountable for (maxOwnBlockMs) is still the piece. Linux only (the thread's schedstat).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { startLoopWatch } = require('../event-loop');
const { threadClock } = require('@lab/node-agent/thread-clock');

const PIECE_CPU_MS = 60;
// A thread's CPU time is added at the kernel's ticks (up to 4 ms apart), at each end of a gap.
const TICKS_MS = 10;
const FIXTURE = path.join(__dirname, 'fixtures', 'cpu-piece.js');

const hasTaskset = () => {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return false;
  }
};
const skip = !threadClock() ? 'no /proc/thread-self/schedstat (not Linux)' : !hasTaskset() ? 'no taskset (util-linux)' : false;

/** The first CPU this process may run on (its cpuset, in a container too). */
function firstCpu() {
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1];
  return list.split(/[,-]/)[0];
}

/** Runs argv to its end; resolves its stdout, rejects with its stderr on a non-zero exit. */
function output(argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(' ')} exited ${code}: ${err}`))));
  });
}

/** A CPU hog on cpu, resolved once it spins; killed by the test's end. */
function startHog(t, cpu) {
  const hog = spawn('taskset', ['-c', cpu, process.execPath, '-e', 'console.log("spinning"); for (;;);'], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.after(() => hog.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    hog.stdout.once('data', () => resolve(hog));
    hog.once('exit', (code) => reject(new Error(`the hog exited ${code} before it spun`)));
  });
}

const pieceRun = async (prefix) => JSON.parse(await output(prefix.concat(process.execPath, FIXTURE, String(PIECE_CPU_MS))));

test('a block made by the run itself is attributed to running; the turns CPU hogs took inside it, to waiting', { skip }, async (t) => {
  const alone = await pieceRun([]);
  assert.ok(alone.maxBlockCpuMs >= PIECE_CPU_MS - TICKS_MS, `alone: the piece ran in its block: ${JSON.stringify(alone)}`);
  assert.ok(alone.maxOwnBlockMs >= PIECE_CPU_MS - TICKS_MS, `alone: the run is accountable for its piece: ${JSON.stringify(alone)}`);

  const cpu = firstCpu();
  await Promise.all([startHog(t, cpu), startHog(t, cpu)]);
  const shared = await pieceRun(['taskset', '-c', cpu]);
  // Two hogs on its CPU take about two thirds of it while the piece wants it all.
  assert.ok(shared.maxBlockWaitMs >= PIECE_CPU_MS / 2, `beside the hogs: their turns are waiting: ${JSON.stringify(shared)}`);
  assert.ok(shared.maxBlockCpuMs >= PIECE_CPU_MS - TICKS_MS, `beside the hogs: the piece still ran in its block: ${JSON.stringify(shared)}`);
  assert.ok(shared.maxOwnBlockMs >= PIECE_CPU_MS - TICKS_MS && shared.maxOwnBlockMs <= shared.maxBlockMs - shared.maxBlockWaitMs + 0.002, JSON.stringify(shared)); // each rounded to the microsecond
  for (const figures of [alone, shared]) assert.ok(figures.maxBlockCpuMs <= figures.maxBlockMs && figures.maxBlockWaitMs >= 0, JSON.stringify(figures));
});

test('without attribution, or where the thread clock cannot be read, the split is null, not zero', () => {
  const stop = startLoopWatch({ attribute: false });
  const figures = stop();
  assert.deepStrictEqual([figures.maxBlockCpuMs, figures.maxBlockWaitMs, figures.maxOwnBlockMs], [null, null, null]);
  assert.strictEqual(typeof figures.maxBlockMs, 'number');
});
