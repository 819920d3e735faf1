'use strict';
// The Node services that serialize, and a child process on each one's own Node line with the options it starts with:
// what fibers-to-async-table.js and after-collection.js run their children on (`make bench-stringify` exports the
// versions).
const fs = require('fs');
const path = require('path');
const { execFile } = require('child_process');
const { readManifests, nodeServicesOf } = require('@lab/lab-topology/manifests');

const ROOT = path.join(__dirname, '..', '..');

/**
 * Every Node service (lab-topology's manifests) whose src/approaches.js has stringify approaches, each on the Node
 * line its Makefile runs it on (`NODE_BIN := $(NODE14_BIN)`, mk/node-component.mk) and with the options it starts
 * with (`NODE_FLAGS := $(NODE24_OPTIONS)`: they set its young generation).
 */
function serializationServices() {
  return nodeServicesOf(readManifests())
    .map((m) => ({ name: m.name, approaches: path.join(m.dir, 'src', 'approaches.js'), makefile: path.join(m.dir, 'Makefile') }))
    .filter((s) => fs.existsSync(s.approaches) && /stringify\s*:/.test(fs.readFileSync(s.approaches, 'utf8')))
    .map((s) => {
      const line = /^NODE_BIN := \$\(NODE(\d+)_BIN\)$/m.exec(fs.readFileSync(s.makefile, 'utf8'));
      if (!line) throw new Error(`${s.makefile} does not say which Node line runs ${s.name} (NODE_BIN := $(NODE<n>_BIN))`);
      const flags = /^NODE_FLAGS := \$\((\w+)\)$/m.exec(fs.readFileSync(s.makefile, 'utf8'));
      return { name: s.name, nodeVersion: `NODE${line[1]}_VERSION`, nodeOptions: flags ? flags[1] : null, approaches: path.relative(ROOT, s.approaches) };
    });
}

/**
 * Runs `script args...` on the service's Node line with its options (and extraFlags), its stderr passed through;
 * resolves to {service, node, nodeFlags, rows}, rows being the child's stdout lines parsed as JSON.
 */
function runOnServiceNode(service, script, args, extraFlags = []) {
  const nodeVersion = process.env[service.nodeVersion];
  const runtimes = process.env.RUNTIMES || path.join(ROOT, '.runtimes');
  if (!nodeVersion) throw new Error(`${service.nodeVersion} is not set: run this through \`make bench-stringify\``);
  const options = service.nodeOptions === null ? '' : process.env[service.nodeOptions];
  if (options === undefined) throw new Error(`${service.nodeOptions} is not set: run this through \`make bench-stringify\``);
  const flags = options.split(/\s+/).filter(Boolean);
  const node = path.join(runtimes, `node-${nodeVersion}`, 'bin', 'node');
  console.error(`${service.name} on Node ${nodeVersion}${flags.length ? ` ${flags.join(' ')}` : ''}:`);
  return new Promise((resolve, reject) => {
    const proc = execFile(node, [...flags, ...extraFlags, script, ...args], { cwd: ROOT, maxBuffer: 1 << 26 }, (err, stdout) => {
      if (err) return reject(new Error(`${service.name}: ${err.message}`));
      resolve({ service: service.name, node: nodeVersion, nodeFlags: flags, rows: stdout.trim().split('\n').map((line) => JSON.parse(line)) });
    });
    proc.stderr.pipe(process.stderr);
  });
}

module.exports = { serializationServices, runOnServiceNode, ROOT };
