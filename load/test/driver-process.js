'use strict';
// The real driver (src/main.js) as a child process on port 0, for the tests that talk HTTP to it. Not a test file:
// the Makefile runs test/*.test.js only.
const path = require('node:path');
const { spawn } = require('node:child_process');

/** Starts the driver with env added to this process's; resolves the child with .port and .url once it listens. */
function startDriver(env) {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'src', 'main.js')], { env: Object.assign({}, process.env, env), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on [^:]+:(\d+)/.exec(output);
      if (match && !child.port) {
        child.port = Number(match[1]);
        child.url = `http://127.0.0.1:${child.port}`;
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`driver exited ${code}: ${output}`)));
  });
}

/** Stops the driver (SIGTERM) and resolves to its exit code once it has exited. */
function stopDriver(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

module.exports = { startDriver, stopDriver };
