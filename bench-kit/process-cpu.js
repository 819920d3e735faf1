'use strict';
// The CPU time a process other than this one has used (a service a benchmark started), from Linux's /proc/<pid>/stat:
// a benchmark that shares the machine with its own load generator, or with anything else, can divide it by the work
// the process did, a figure other processes' CPU use moves far less than throughput or wall time. Node 14 syntax.
const fs = require('fs');

// The kernel's clock ticks per second (USER_HZ), in which /proc gives CPU times: 100 on every Linux the lab runs on
// (getconf CLK_TCK), a kernel constant user space cannot change.
const TICKS_PER_SECOND = 100;

/** Seconds of CPU (user and system) process pid has used so far; null where there is no /proc (not Linux). */
function processCpuSeconds(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT' && !fs.existsSync('/proc/self/stat')) return null;
    throw err;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses: the fields after it start past
  // the last ')'. utime and stime are fields 14 and 15, so the 12th and 13th after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

module.exports = { processCpuSeconds };
