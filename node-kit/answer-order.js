'use strict';
// The last answer on a connection goes out after the answers before it. A client may pipeline requests (send the next
// before the answer to the last); when one of them is broken, Node reports it ('clientError', 'connect') while the
// answers to the valid ones before it are still being computed or written. Writing the refusal then would put it
// first (a client reads it as the answer to its valid request), and closing would lose those answers. So each
// connection counts the answers it owes, and the refusal waits for that count to reach zero. Node 14 and 24.
const OWED = Symbol('answers owed');
const LAST = Symbol('last answer');
const SETTLE = Symbol('settle this answer');
const ANSWER = Symbol('the answer to this request');

function settled(socket) {
  socket[OWED] -= 1;
  if (socket[OWED] === 0 && socket[LAST]) socket[LAST]();
}

/** Counts res as owed on its request's connection until it has been handed to the socket (or the socket closed). */
function owe(req, res) {
  const socket = req.socket;
  socket[OWED] = (socket[OWED] || 0) + 1;
  let done = false;
  const settle = () => {
    if (done) return;
    done = true;
    settled(socket);
  };
  req[SETTLE] = settle;
  req[ANSWER] = res;
  res.once('finish', settle);
  res.once('close', settle);
}

/**
 * Runs answer() once every answer owed on socket has gone out (at once if none is), and only once per connection
 * (further calls are ignored: the first refusal ends the connection). A request Node was still reading when its
 * connection broke (the parser's incoming request, incomplete) is not waited for, unless its handler has already
 * answered it: the refusal is its answer.
 */
function answerLast(socket, answer) {
  if (socket[LAST]) return;
  let answered = false;
  socket[LAST] = () => {
    if (answered) return;
    answered = true;
    answer();
  };
  const reading = socket.parser && socket.parser.incoming;
  if (reading && !reading.complete && reading[SETTLE] && !reading[ANSWER].writableEnded) reading[SETTLE]();
  if (!socket[OWED]) socket[LAST]();
}

/**
 * Writes text (a whole raw HTTP answer) as the connection's last answer and closes it; nothing if an answer before it
 * has already closed it (Connection: close); cuts it if it cannot be written to.
 */
function endWith(socket, text) {
  answerLast(socket, () => {
    if (socket.writable) socket.end(text);
    else if (!socket.writableEnded) socket.destroy();
  });
}

module.exports = { owe, answerLast, endWith };
