'use strict';
// A stop signal lets in-flight requests finish, however many times it comes: a server started by make gets SIGTERM
// from its process group and once more from make, and a second one must not cut its graceful stop short.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');

const SERVER = path.join(__dirname, 'fixtures', 'held-request-server.js');

/** The fixture as a child: lineMatching(re) resolves to the first output line matching re, rejects if it exits first. */
function startServer(t) {
  const child = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  const lines = [];
  const waiting = [];
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let rest = '';
  child.stdout.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    lines.push(...parts);
    for (const w of waiting.splice(0)) w();
  });
  function lineMatching(re) {
    return new Promise((resolve, reject) => {
      const look = () => {
        const line = lines.find((l) => re.test(l));
        if (line !== undefined) resolve(line);
        else waiting.push(look);
      };
      look();
      exited.then((how) => reject(new Error(`the server exited (${how.signal || how.code}) before printing ${re}; it printed:\n${lines.join('\n')}`)));
    });
  }
  return { child, exited, lineMatching };
}

test('a second SIGTERM while in-flight requests finish does not kill the server; the request completes', async (t) => {
  const server = startServer(t);
  const port = Number((await server.lineMatching(/^listening on \d+$/)).split(' ').pop());
  const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'Content-Length': '10' } });
  // Settles either way, so a server that dies is reported by what it printed rather than as a hung-up socket.
  const answer = new Promise((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', (err) => resolve({ error: err.message }));
  });
  req.write('01234');
  await server.lineMatching(/^request arrived$/);

  server.child.kill('SIGTERM');
  await server.lineMatching(/^SIGTERM: finishing in-flight requests$/);
  server.child.kill('SIGTERM');
  await server.lineMatching(/^SIGTERM again: still stopping$/);

  req.end('56789');
  assert.deepStrictEqual(await answer, { status: 200, body: 'finished' });
  assert.deepStrictEqual(await server.exited, { code: 0, signal: null });
});
