'use strict';
// HTTP/1.1 over a bare socket, for requests no client would send (broken heads, pipelined ones) and for reading every
// answer the server writes on the connection, in order. Node 14 syntax: the Node 14 service's tests load it.
const net = require('net');

// A connection the server keeps open this long after its answers is reported as open (a refusal must close it).
const CLOSE_WAIT_MS = 30000;

/**
 * Sends bytes (a string, sent as latin1, or a Buffer; or a list of them, each written once the one before has been
 * handed to the socket) on a new connection and resolves, once the server closes it (or CLOSE_WAIT_MS passed),
 * {answers: [{status, headers, body}] in order, closed: bool}.
 */
function exchange(port, bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks = [];
    const finish = (closed) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers: parseResponses(Buffer.concat(chunks).toString('latin1')), closed });
    };
    const timer = setTimeout(() => finish(false), CLOSE_WAIT_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err) => (err.code === 'ECONNRESET' ? finish(true) : reject(err)));
    socket.on('end', () => finish(true));
    const pieces = [].concat(bytes).map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece));
    const write = (i) => (i < pieces.length ? socket.write(pieces[i], () => write(i + 1)) : undefined);
    write(0);
  });
}

/**
 * Sends one request ("Connection: close") and resolves {status, headers, body} once the server closes: raw (bytes,
 * as for exchange) as given, or one built from method, target and body. declaredLength (optional): the Content-Length
 * to announce for body, which may be less (the rest never comes).
 */
async function sendRaw(port, { raw, method, target, body, declaredLength }) {
  const { answers } = await exchange(port, raw === undefined ? buildRequest(method, target, body, declaredLength) : raw);
  return answers[0] || { status: NaN, headers: {}, body: '' };
}

function buildRequest(method, target, body, declaredLength) {
  const head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
  const length = declaredLength === undefined && body !== undefined ? Buffer.byteLength(body) : declaredLength;
  const headers = length === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${length}\r\n`;
  return Buffer.from(`${head}${headers}\r\n${body === undefined ? '' : body}`, 'utf8');
}

/** The answers in text (latin1), in order: each framed by its Content-Length or chunked encoding. */
function parseResponses(text) {
  const answers = [];
  let at = 0;
  while (at < text.length) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    const lines = text.slice(at, headEnd < 0 ? text.length : headEnd).split('\r\n');
    const status = Number((/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]) || [])[1]);
    const headers = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (headEnd < 0) {
      answers.push({ status, headers, body: '' });
      break;
    }
    const bodyStart = headEnd + 4;
    let body;
    if (/chunked/i.test(headers['transfer-encoding'] || '')) {
      [body, at] = unchunk(text, bodyStart);
    } else if (headers['content-length'] !== undefined) {
      at = bodyStart + Number(headers['content-length']);
      body = text.slice(bodyStart, at);
    } else {
      body = status === 100 || status === 204 || status === 304 ? '' : text.slice(bodyStart);
      at = body === '' ? bodyStart : text.length;
    }
    if (status !== 100) answers.push({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') });
  }
  return answers;
}

/** A chunked body starting at `at`: [its bytes, where the next answer starts]. */
function unchunk(text, at) {
  let out = '';
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) {
      const trailerEnd = text.indexOf('\r\n\r\n', lineEnd);
      return [out, trailerEnd < 0 ? text.length : trailerEnd + 4];
    }
    out += text.substr(lineEnd + 2, size);
    at = lineEnd + 2 + size + 2;
  }
}

module.exports = { exchange, sendRaw, parseResponses };
