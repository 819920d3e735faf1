'use strict';
// A lab server (a service's src/server.js, the load driver's src/main.js) as a child process on port 0, for tests of
// what only a process can show: that it outlives what is thrown at it. Node 14 syntax.
const { spawn } = require('child_process');

/** Starts entry under this Node with env added to this process's; resolves the child with .port and .url once it listens. */
function startProcess(entry, env) {
  const child = spawn(process.execPath, [entry], { env: Object.assign({}, process.env, { PORT: '0', HOST: '127.0.0.1' }, env), stdio: ['ignore', 'pipe', 'inherit'] });
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
    child.on('exit', (code) => reject(new Error(`${entry} exited ${code}: ${output}`)));
  });
}

/** Stops the child (SIGTERM) and resolves to its exit code once it has exited. */
function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

module.exports = { startProcess, stopProcess };
