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

/**
 * Calls stop(signal) on the first SIGTERM or SIGINT, and only logs the ones after it. A server started by make gets a
 * stop twice: once with its process group and once more from make, which passes its own on to its child; a second
 * signal must not kill a server that is still finishing its in-flight requests (its shutdown timeout bounds that).
 */
function onStopSignals(stop, log) {
  let stopping = false;
  const onSignal = (signal) => {
    if (stopping) {
      log(`${signal} again: still stopping`);
      return;
    }
    stopping = true;
    stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** Exits 0 after a graceful close on SIGTERM or SIGINT, 1 if it timed out. */
function closeOnSignals(close, log) {
  onStopSignals((signal) => {
    log(`${signal}: finishing in-flight requests`);
    close().then(
      () => process.exit(0),
      (err) => {
        log(`forced exit: ${err.message}`);
        process.exit(1);
      },
    );
  }, log);
}

module.exports = { gracefulCloser, closeOnSignals, onStopSignals };
