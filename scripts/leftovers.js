'use strict';
// What a test run may leave behind, snapshotted before and after `make test` (scripts/test-stages.js) so that a test
// which forgets its cleanup fails the run, named: entries of the run's own temp folder, Docker containers, networks,
// volumes and swarm state, processes that carry the run's marker, and the lab's ports they still listen on.
// The machine is shared (other engineers, other labs), so each kind is narrowed to what this run can own: a private
// TMPDIR instead of the shared /tmp, processes by an environment marker instead of by name, ports of the lab only.
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

// The environment variable every stage of one `make test` inherits; a process still carrying it afterwards was
// started by the run and left running.
const MARKER = 'LAB_TEST_RUN';
// Started by the run where no engine answered (docker/ensure-engine.sh), and meant to stay: the engine itself.
const ENGINE_PROCESSES = /^(dockerd|containerd.*|docker-proxy|docker-init|runc)$/;
// Networks every engine has; docker_gwbridge stays behind a swarm only when the swarm check does not remove it.
const DEFAULT_NETWORKS = ['bridge', 'host', 'none'];

function docker(args) {
  const result = spawnSync('docker', args, { encoding: 'utf8', timeout: 60000 });
  if (result.status !== 0) return null;
  return result.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
}

/** The engine's containers, networks, volumes and swarm state; null where no engine answers. */
function dockerState() {
  const swarm = docker(['info', '--format', '{{.Swarm.LocalNodeState}}']);
  if (!swarm) return null;
  return {
    containers: docker(['ps', '-a', '--format', '{{.Names}}']) || [],
    networks: docker(['network', 'ls', '--format', '{{.Name}}']) || [],
    volumes: docker(['volume', 'ls', '--format', '{{.Name}}']) || [],
    swarm: swarm.concat(docker(['stack', 'ls', '--format', 'stack {{.Name}}']) || []),
  };
}

/** {pid, comm} of every process (but this one) whose environment holds MARKER=runId; [] where there is no /proc. */
function markedProcesses(runId) {
  const wanted = `${MARKER}=${runId}`;
  const found = [];
  let entries;
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid);
  } catch {
    return found;
  }
  for (const pid of entries) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(wanted)) continue;
      const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (!ENGINE_PROCESSES.test(comm)) found.push({ pid, comm });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** The inodes of the sockets a process holds open. */
function socketInodes(pid) {
  const inodes = new Set();
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    }
  } catch {
    // gone meanwhile
  }
  return inodes;
}

/**
 * "port (pid comm)" for each of `ports` listening (TCP, IPv4 or IPv6) on a socket one of `holders` holds, from /proc.
 * Only the run's own processes count: other labs on a shared machine use the same ports (seen: another checkout's
 * native lab test on 23001-23005 during a run here). A container's published ports go with the container.
 */
function listening(ports, holders) {
  const holderOf = new Map();
  for (const p of holders) for (const inode of socketInodes(p.pid)) holderOf.set(inode, p);
  const open = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // state 0A is LISTEN; local_address is HEX_IP:HEX_PORT; field 9 the socket's inode
      if (fields[3] !== '0A') continue;
      const port = parseInt(fields[1].split(':').pop(), 16);
      const holder = holderOf.get(fields[9]);
      if (ports.has(port) && holder) open.add(`${port} (${holder.pid} ${holder.comm})`);
    }
  }
  return [...open].sort();
}

/** Everything the run could leave: {tmp, docker, processes, ports}. */
function snapshot({ tmpDir, runId, ports }) {
  const marked = runId ? markedProcesses(runId) : [];
  return {
    tmp: fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).sort() : [],
    docker: dockerState(),
    processes: marked.map((p) => `${p.pid} ${p.comm}`),
    ports: listening(ports, marked),
  };
}

const added = (before, after) => after.filter((x) => !before.includes(x));

/**
 * What `after` holds that `before` did not, as lines naming each thing ("temp folder entry: suites-x1y2"); [] when
 * nothing was left. A `before` taken where no engine answered counts as a fresh engine's default networks.
 */
function leftovers(before, after) {
  const lines = [];
  const name = (kind, items) => items.forEach((item) => lines.push(`${kind}: ${item}`));
  name('entry in the temp folder', added(before.tmp, after.tmp));
  if (after.docker) {
    const was = before.docker || { containers: [], networks: DEFAULT_NETWORKS, volumes: [], swarm: ['inactive'] };
    name('container', added(was.containers, after.docker.containers));
    name('network', added(was.networks, after.docker.networks));
    name('volume', added(was.volumes, after.docker.volumes));
    name('swarm state', added(was.swarm, after.docker.swarm));
  }
  name('process', after.processes);
  name('listening port', added(before.ports, after.ports));
  return lines;
}

module.exports = { snapshot, leftovers, MARKER };
