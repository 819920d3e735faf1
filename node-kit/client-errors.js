'use strict';
// The answer to a request Node's parser refused, or whose head or body did not arrive in time (Node's 'clientError'):
// the contract's JSON refusal (CONTRACT.md "Errors", rows 1 and 2; "Clients that stall") as raw HTTP bytes, since
// there is no request object to answer through. Node 14 and 24.
const http = require('http');
const { MAX_TARGET_BYTES } = require('./request-target');
const { VERSIONS } = require('./request-head');

const TIMED_OUT = ['ERR_HTTP_REQUEST_TIMEOUT', 'HPE_HEADER_TIMEOUT'];
// A method token and a space, then the start of a path or an absolute URL: the start of a request line. A header
// line cannot look like it: its name is followed by ':' (Node 14 lets a space into a name, but the next word then
// ends in ':' or is the value, never a path).
const REQUEST_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ (?:\/|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/;

/**
 * Whether a head overflow (HPE_HEADER_OVERFLOW: the target and the header lines together passed Node's 16 KB) was
 * the target's: row 2 (414) applies to a target of any length. Node counts the bytes of the piece (target, header
 * name or value) it was reading whenever that piece ends or the bytes that arrived do, and reports the overflow at
 * that point (err.bytesParsed in err.rawPacket, the bytes of that read). A target ends at the space before its
 * version; a header piece at ':' or the line end. When the overflow came at the end of a read, the line it was in
 * decides: its start is after the last line feed of the read, or the read's start when it is the connection's first.
 * Only a line that began in an earlier read and spans the whole of this one cannot be told (no bytes of that
 * earlier read are kept): that overflow stays 431.
 */
function targetOverflowed(err, socket) {
  const packet = err.rawPacket;
  const at = err.bytesParsed;
  if (!Buffer.isBuffer(packet) || !(at >= 0) || at > packet.length) return false;
  if (at < packet.length) return packet[at] === 0x20;
  const lineStart = packet.lastIndexOf(0x0a, at - 1) + 1;
  if (lineStart === 0 && socket.bytesRead !== packet.length) return false;
  return REQUEST_LINE.test(packet.toString('latin1', lineStart, Math.min(at, lineStart + 64)));
}

/** {status, body} for a parser's error; anything not recognised is a malformed request. */
function refusalOf(err, socket) {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return targetOverflowed(err, socket)
      ? { status: 414, body: { error: `the request target is longer than ${MAX_TARGET_BYTES} bytes`, limitBytes: MAX_TARGET_BYTES } }
      : { status: 431, body: { error: 'the request head is larger than the server accepts' } };
  }
  if (TIMED_OUT.includes(err.code)) return { status: 408, body: { error: 'the request did not arrive in time' } };
  // Node 24 reads "HTTP/1.2" as a broken version, and a bare LF after the version as one too ("Expected CRLF after
  // version"): only the first is about the version.
  if (err.code === 'HPE_INVALID_VERSION' && /^Invalid HTTP version/.test(err.reason || '')) {
    return { status: 505, body: { error: 'the request line must end in HTTP/1.0 or HTTP/1.1', allowed: VERSIONS } };
  }
  const reason = err.reason ? ` (${String(err.reason).slice(0, 100)})` : '';
  return { status: 400, body: { error: `malformed request: a method HTTP does not define, or a broken request line or header${reason}` } };
}

/** The raw HTTP answer to a parser's error; the connection closes after it. */
function clientErrorAnswer(err, socket) {
  const { status, body } = refusalOf(err, socket);
  const text = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`;
}

module.exports = { clientErrorAnswer, refusalOf };
