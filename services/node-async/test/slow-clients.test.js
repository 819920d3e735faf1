'use strict';
// Clients that stall cannot hold node-async's run slots or upload places: a streamed run whose client reads nothing
// is cut after STALLED_CLIENT_TIMEOUT_MS, an upload that trickles is answered 408 at REQUEST_TIMEOUT_MS, and the
// places are then free again while those clients are still connected. Nothing here asserts how long anything took.
const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { startService, sumOf, until } = require('@lab/test-kit');
const { makeService } = require('../src/service');

const SLOTS = 2;
// node-kit reads its settings when a service is made: short timeouts, so the test does not wait the defaults.
const SETTINGS = { MAX_CONCURRENT_RUNS: String(SLOTS), STALLED_CLIENT_TIMEOUT_MS: '3000', REQUEST_TIMEOUT_MS: '3000' };

async function withSettings(body) {
  const saved = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, process.env[name]]));
  Object.assign(process.env, SETTINGS);
  const service = makeService({ upload: { maxUploads: SLOTS } });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const server = await startService(service);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** Opens a raw connection and sends text; the socket keeps what comes back in `received`, and never reads on demand. */
function openRaw(port, text) {
  const socket = net.connect(port, '127.0.0.1');
  socket.received = '';
  socket.on('data', (chunk) => (socket.received += chunk));
  socket.on('error', () => {}); // the server cuts it: that is the point
  socket.write(text);
  return socket;
}

/** Resolves once the server has received `count` more requests (its 'request' events). */
function requestsArrive(server, count) {
  return new Promise((resolve) => {
    let seen = 0;
    const onRequest = () => {
      if (++seen < count) return;
      server.server.removeListener('request', onRequest);
      resolve();
    };
    server.server.on('request', onRequest);
  });
}

const status = async (url, init) => (await fetch(url, init)).status;

test('streamed runs whose client reads nothing are cut, and free their slots', async () => {
  await withSettings(async (server) => {
    const arrived = requestsArrive(server, SLOTS);
    const stalled = Array.from({ length: SLOTS }, () => {
      const socket = openRaw(server.server.address().port, 'GET /run/stringify?approach=fast&size=20000&body=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      socket.pause(); // never reads: the run fills the socket's buffers and waits
      return socket;
    });
    await arrived;
    assert.strictEqual(await status(`${server.url}/run/stringify?size=10`), 503, 'the stalled runs hold every slot');
    await until('a run answered while the stalled clients are still connected', 120000, async () => ({ done: (await status(`${server.url}/run/stringify?size=10`)) === 200 }));
    assert.ok(stalled.every((socket) => !socket.destroyed), 'the test closed a stalled client itself');
    // One free slot answers that run; the other stalled run may be cut a little later on a loaded machine (each has
    // its own timer), so wait for both to be counted rather than assume they were cut together.
    const interrupted = async () => sumOf(await (await fetch(`${server.url}/metrics`)).text(), 'lab_runs_total', { approach: 'fast', outcome: 'interrupted' });
    await until('both stalled runs counted as interrupted', 120000, async () => ({ done: (await interrupted()) >= SLOTS }));
    assert.strictEqual(await interrupted(), SLOTS);
    stalled.forEach((socket) => socket.destroy());
  });
});

test('uploads that trickle are answered 408 at the request timeout, and free their places', async () => {
  await withSettings(async (server) => {
    const arrived = requestsArrive(server, SLOTS);
    const port = server.server.address().port;
    const trickling = Array.from({ length: SLOTS }, () => openRaw(port, 'POST /csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: 1000000\r\n\r\na,b\n'));
    const drips = trickling.map((socket) => setInterval(() => socket.write('1,2\n'), 200));
    try {
      await arrived;
      const upload = { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b\n1,2\n' };
      assert.strictEqual(await status(`${server.url}/csv`, upload), 503, 'the trickling uploads hold every place');
      await until('an upload answered while the trickling clients are still sending', 120000, async () => ({ done: (await status(`${server.url}/csv`, upload)) === 200 }));
      // The place is freed as the 408 is written; on a loaded machine its bytes may reach the trickling client after
      // the new upload's answer reached this one, so wait for them rather than assume an order between two sockets.
      for (const socket of trickling) {
        // Until the whole answer is there: JSON.parse throws on a missing or partial body, and until asks again.
        const answer = await until('the 408 reached the trickling client', 120000, async () => {
          const [head, body] = socket.received.split('\r\n\r\n');
          return { done: true, value: { head, error: JSON.parse(body).error } };
        });
        assert.match(answer.head, /^HTTP\/1\.1 408 /, socket.received);
        assert.strictEqual(typeof answer.error, 'string');
      }
    } finally {
      drips.forEach(clearInterval);
      trickling.forEach((socket) => socket.destroy());
    }
  });
});
