'use strict';
// Raw results as JSON under results/<run-id>/: one file per scenario (autocannon's result object and the response
// checks) and run.json with what ran where. Tables are a separate step that reads these files.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function newRunDir(resultsDir, suite) {
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${suite}`;
  const dir = path.join(resultsDir, id);
  fs.mkdirSync(dir, { recursive: true });
  return { id, dir };
}

function machine() {
  return { cpus: os.cpus().length, cpuModel: (os.cpus()[0] || {}).model, memoryBytes: os.totalmem(), platform: `${os.platform()} ${os.release()}`, loadDriverNode: process.versions.node };
}

function writeJson(dir, file, value) {
  fs.writeFileSync(path.join(dir, file), JSON.stringify(value, null, 2) + '\n');
}

module.exports = { newRunDir, machine, writeJson };
