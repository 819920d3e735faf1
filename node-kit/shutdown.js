'use strict';
// Graceful shutdown for an http.Server on every Node line the lab runs (Node 14 has no closeIdleConnections):
// stop accepting, let in-flight requests finish, close idle keep-alive sockets, give up after a timeout.

function trackConnections(server) {
  const idle = new Set();
  const all = new Set();
  server.on('connection', (socket) => {
    all.add(socket);
    idle.add(socket);
    socket.on('close', () => {
      all.delete(socket);
      idle.delete(socket);
    });
  });
  server.on('request', (req, res) => {
    idle.delete(req.socket);
    res.on('finish', () => {
      if (server.shuttingDown) req.socket.end();
      else idle.add(req.socket);
    });
  });
  return { idle, all };
}

/**
 * Returns close(): resolves once every in-flight request has finished, rejects if that takes longer than timeoutMs
 * (then the remaining sockets are destroyed).
 */
function gracefulCloser(server, timeoutMs) {
  const sockets = trackConnections(server);
  let closing = null;
  return function close() {
    if (closing) return closing;
    server.shuttingDown = true;
    closing = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        for (const socket of sockets.all) socket.destroy();
        reject(new Error(`in-flight requests still running after ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      for (const socket of sockets.idle) socket.end();
    });
    return closing;
  };
}

/** Exits 0 after a graceful close on SIGTERM or SIGINT, 1 if it timed out. */
function closeOnSignals(close, log) {
  const onSignal = (signal) => {
    log(`${signal}: finishing in-flight requests`);
    close().then(
      () => process.exit(0),
      (err) => {
        log(`forced exit: ${err.message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

module.exports = { gracefulCloser, closeOnSignals };
