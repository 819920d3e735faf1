'use strict';
// Raw results as JSON under results/<run-id>/: one file per scenario (autocannon's result object and the response
// checks) and run.json with what ran where. Tables are a separate step that reads these files.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cpuLayout } = require('@lab/node-kit/cpus');

/** Fails at start, with the fix, when results could not be written (a bind mount owned by another user, say). */
function assertWritable(resultsDir) {
  try {
    fs.mkdirSync(resultsDir, { recursive: true });
    fs.accessSync(resultsDir, fs.constants.W_OK);
  } catch (err) {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 'this user';
    throw new Error(`results directory ${resultsDir} is not writable by uid ${uid} (${err.code || err.message}): ` +
      'make it writable for that uid, or in docker compose set LAB_UID/LAB_GID to its owner (docker/README.md)', { cause: err });
  }
}

function newRunDir(resultsDir, suite) {
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${suite}`;
  const dir = path.join(resultsDir, id);
  fs.mkdirSync(dir, { recursive: true });
  return { id, dir };
}

/** The machine, and the CPUs the driver itself may use (its cpuset and quota: the client's share of the CPUs). */
function machine() {
  return { cpus: os.cpus().length, cpuModel: (os.cpus()[0] || {}).model, memoryBytes: os.totalmem(), platform: `${os.platform()} ${os.release()}`, loadDriverNode: process.versions.node, loadDriverCpus: cpuLayout() };
}

function writeJson(dir, file, value) {
  fs.writeFileSync(path.join(dir, file), JSON.stringify(value, null, 2) + '\n');
}

module.exports = { assertWritable, newRunDir, machine, writeJson };
