'use strict';
// A request written by hand on a socket, in parts, for the tests that need what a client library would not do:
// send a body in steps with checks between them, send bytes that are not UTF-8, announce a body and never send it.
const net = require('node:net');

/**
 * Opens a connection to 127.0.0.1:port and writes `head` (request line and headers, without the blank line) with
 * `Connection: close`, so that the server's close marks the end of its answer.
 * Returns {send(bytes) -> Promise (resolves once written, or at once if the server closed the connection),
 * nextLine(prefix) -> Promise<string> (the first response line starting with prefix, such as 'HTTP/1.1 100'),
 * answer: Promise<{status, headers, body}> (status 0 and the socket's error if the connection ended with no answer),
 * close()}.
 */
function openUpload(port, head) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let failure = '';
  const waiting = [];
  const answer = new Promise((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      for (const waiter of waiting.splice(0)) waiter();
    });
    socket.on('error', (error) => (failure = error.message));
    socket.on('close', () => resolve(finalAnswer(received, failure)));
  });
  socket.write(`${head}\r\nConnection: close\r\n\r\n`);
  return {
    send: (bytes) =>
      new Promise((resolve) => {
        if (socket.destroyed || socket.writableEnded) resolve();
        else socket.write(bytes, () => resolve());
      }),
    nextLine: (prefix) =>
      new Promise((resolve) => {
        const check = () => {
          const line = received.split('\r\n').find((l) => l.startsWith(prefix));
          if (line !== undefined) resolve(line);
          else waiting.push(check);
        };
        check();
      }),
    answer,
    close: () => socket.destroy(),
  };
}

/** The last (final) response on the connection: a 100 Continue before it is skipped. */
function finalAnswer(text, failure) {
  const interim = /^HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n/;
  let rest = text;
  while (interim.test(rest)) rest = rest.replace(interim, '');
  const headEnd = rest.indexOf('\r\n\r\n');
  if (headEnd < 0) return { status: 0, headers: {}, body: null, failure: failure || 'the connection closed with no answer' };
  const lines = rest.slice(0, headEnd).split('\r\n');
  const headers = {};
  for (const line of lines.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  const bodyText = Buffer.from(rest.slice(headEnd + 4), 'latin1').toString('utf8');
  return { status: Number(lines[0].split(' ')[1]), headers, body: bodyText ? JSON.parse(bodyText) : null };
}

module.exports = { openUpload };
