'use strict';
// The calling thread's time on a CPU and its time waiting for one, from Linux's /proc/thread-self/schedstat (the
// scheduler's own accounting, in nanoseconds): what splits a block of the event loop into the part its code ran and
// the part the machine made it wait (issue 59: a 27.8 ms block of a 10.5 ms run was the scheduler, not the approach).
// One pread of an open file a reading (about a microsecond), so a 1 ms timer can take one every tick. Node 14 syntax.
// In the agent's package, which depends on nothing, so that the agent reads it for its metrics and loop-kit (a run's
// blocks) and node-kit (the services' metrics) read the same one.
const fs = require('fs');

const PATH = '/proc/thread-self/schedstat';

/**
 * Opens the clock of the calling thread: read() -> {runMs, waitMs} since the thread started, or null where there is
 * no such file (not Linux, or a kernel before 3.17); close() lets the file go.
 */
function openThreadClock() {
  let fd;
  try {
    fd = fs.openSync(PATH, 'r');
  } catch (err) {
    return null;
  }
  const buffer = Buffer.alloc(64);
  return {
    read() {
      // "<ns on a CPU> <ns runnable, waiting for one> <timeslices>"; read from offset 0 each time, which makes the
      // kernel write it anew.
      const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
      const text = buffer.toString('latin1', 0, length);
      const space = text.indexOf(' ');
      return { runMs: Number(text.slice(0, space)) / 1e6, waitMs: Number(text.slice(space + 1, text.indexOf(' ', space + 1))) / 1e6 };
    },
    close() {
      fs.closeSync(fd);
    },
  };
}

// The calling thread's clock, opened on its first use and kept: module state is a worker thread's own, so each
// thread that asks gets its own (null where there is none).
let shared;
const threadClock = () => (shared === undefined ? (shared = openThreadClock()) : shared);

module.exports = { openThreadClock, threadClock };
