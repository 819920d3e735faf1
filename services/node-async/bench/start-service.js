'use strict';
// node-async as its own process for a benchmark: on this Node, a free loopback port, the service's own output on
// stderr. nodeOptions: the Node options to start it with (NODE24_OPTIONS gives the lab's); env: settings added.
const { spawn } = require('node:child_process');
const path = require('node:path');

/** Resolves to {url, pid, stop()} once it listens. */
function startService(nodeOptions = [], env = {}) {
  const child = spawn(process.execPath, nodeOptions.concat(path.join(__dirname, '..', 'src', 'server.js')), {
    env: Object.assign({}, process.env, env, { PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`node-async exited with ${code} before listening`)));
    child.stdout.on('data', (chunk) => {
      const match = /listening on [\d.]+:(\d+)/.exec(String(chunk));
      if (match) resolve({ url: `http://127.0.0.1:${match[1]}`, pid: child.pid, stop: () => child.kill('SIGTERM') });
    });
  });
}

module.exports = { startService };
