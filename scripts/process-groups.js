'use strict';
// Stopping what `make native` started, all of it: each component runs as its own process group (make and the server
// it starts), and a group is gone only when none of its processes is left, not when its leader (make) has exited: a
// server whose make was stopped first lives on with parent 1 and keeps its port. So the stop signals every group,
// waits for every group to be empty, and kills what is left after a grace period.
const fs = require('node:fs');
const { processStatFields } = require('@lab/node-kit/machine');

const POLL_MS = 100;
// After SIGKILL a process is gone as soon as the kernel has torn it down; this only bounds a wait that cannot hang.
const KILL_WAIT_MS = 5000;

/** pid, state and process group of every process, from /proc (Linux); null where there is no /proc. */
function processTable() {
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const table = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const fields = processStatFields(stat); // state ppid pgrp ...
    table.push({ pid: Number(entry), state: fields[0], pgid: Number(fields[2]) });
  }
  return table;
}

/** The groups among pgids that still have a live process (a zombie waits only to be reaped: it holds nothing). */
function liveGroups(pgids) {
  const table = processTable();
  if (table === null) return pgids.filter(groupExists);
  const live = new Set(table.filter((p) => p.state !== 'Z' && p.state !== 'X').map((p) => p.pgid));
  return pgids.filter((pgid) => live.has(pgid));
}

function groupExists(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function signalGroups(pgids, signal) {
  for (const pgid of pgids) {
    try {
      process.kill(-pgid, signal);
    } catch (err) {
      if (err.code !== 'ESRCH') throw err; // the group is already gone
    }
  }
}

async function waitGone(pgids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let live = liveGroups(pgids);
  while (live.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    live = liveGroups(live);
  }
  return live;
}

/**
 * SIGTERM to every group, then waits until all are empty; whatever is left after graceMs gets SIGKILL. `hurry()`
 * (a second Ctrl-C) sends SIGKILL at once. Resolves to {killed: the groups that had to be killed, left: groups still
 * alive after that (none, unless a process is stuck in the kernel)}.
 */
function stopGroups(pgids, graceMs) {
  let hurried = null;
  const hurry = new Promise((resolve) => (hurried = resolve));
  const done = (async () => {
    signalGroups(liveGroups(pgids), 'SIGTERM');
    const graceful = waitGone(pgids, graceMs);
    const lingering = await Promise.race([graceful, hurry.then(() => liveGroups(pgids))]);
    if (lingering.length === 0) return { killed: [], left: [] };
    signalGroups(lingering, 'SIGKILL');
    return { killed: lingering, left: await waitGone(lingering, KILL_WAIT_MS) };
  })();
  return { done, hurry: () => hurried() };
}

module.exports = { stopGroups };
