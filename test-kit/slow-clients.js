'use strict';
// A slowloris: connections that send the start of a request head and then nothing, holding whatever a server gives
// a connection whose head has not arrived (a thread, on a server that reads heads on its pool's threads).
const net = require('net');

const HALF_A_HEAD = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n';

/**
 * Opens `count` such connections to port. Resolves once all have sent their half head, to {sockets, release}: each
 * socket keeps what the server answered in `received` (and `closed` turns true when the server cuts it); release()
 * closes them all.
 */
async function holdSlowConnections(port, count) {
  const sockets = [];
  await Promise.all(Array.from({ length: count }, () => new Promise((resolve, reject) => {
    let sent = false;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(HALF_A_HEAD, () => {
        sent = true;
        resolve();
      });
    });
    socket.received = '';
    socket.on('data', (chunk) => (socket.received += chunk));
    // Before the head went out: the server refused the connection. After: the server cut it (its head timeout).
    socket.on('error', (err) => (sent ? undefined : reject(err)));
    sockets.push(socket);
  })));
  return { sockets, release: () => sockets.forEach((socket) => socket.destroy()) };
}

module.exports = { holdSlowConnections };
