'use strict';
// Node 14's parser (llhttp 2.1) accepts two things in a request head that the contract refuses (CONTRACT.md
// "Errors", rows 1 and 1b) and that the request it produces no longer shows: a bare LF ending the request line or the
// head's final empty line, and a folded header line (which it joins to the value before it: "a\r\n  b" reads as
// "a  b"). Only the bytes show them. Node's server normally hands a socket's bytes to its parser in C++
// (parser.consume); once a 'data' listener is added to the socket it stops that (unconsume) and its own 'data'
// listener (socketOnData) feeds the parser each chunk from JS. The guard takes that listener's place: each chunk
// goes through a head framer (head-framer.js), then on to Node's listener, in one call as before, cut before the
// byte that broke a head, so that head never reaches the parser; the requests before it are answered, and then
// the broken head gets the 400 as the connection's last answer. The cost, on Node 14 only: every chunk passes
// through JS, and the framer reads each head line by line. llhttp 9 (Node 24) refuses both itself: there the guard
// is not installed and the parser keeps its C++ path.
const { headFramer } = require('./head-framer');
const { endWith } = require('./answer-order');
const { clientErrorAnswer } = require('./client-errors');

const LENIENT_PARSER = Number(process.versions.llhttp.split('.')[0]) < 9;

function guardConnection(socket) {
  const [feedParser] = socket.listeners('data'); // Node's socketOnData, added by its own 'connection' listener
  if (typeof feedParser !== 'function') return;
  socket.removeListener('data', feedParser);
  const framer = headFramer();
  socket.on('data', function readChunk(chunk) {
    if (framer.broken || !socket.parser) return; // refused, or handed over (CONNECT): Node's parser reads no more
    const cut = framer.push(chunk);
    if (cut < 0) {
      feedParser(chunk);
      return;
    }
    if (cut > 0) feedParser(chunk.slice(0, cut));
    endWith(socket, clientErrorAnswer({ code: 'LAB_BROKEN_HEAD', reason: framer.broken.reason }, socket));
  });
}

/** Installs the guard on server's connections where Node's parser is lenient (Node 14); elsewhere does nothing. */
function guardLenientHeads(server) {
  if (LENIENT_PARSER) server.on('connection', guardConnection);
}

module.exports = { guardLenientHeads };
