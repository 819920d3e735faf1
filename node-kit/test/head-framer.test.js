'use strict';
// The head framer (Node 14's guard against bare LF and folded header lines) on bytes cut every way a socket may cut
// them: it finds the byte that broke a head, and nothing in a body (whose bare LFs are data) or in a sound head.
const test = require('node:test');
const assert = require('node:assert');
const { headFramer } = require('../head-framer');

const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n';

/** Pushes text in pieces of `size` bytes; returns the offset in the whole text of the byte that broke a head, or -1. */
function brokenAt(text, size) {
  const framer = headFramer();
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += size) {
    const cut = framer.push(bytes.subarray(at, at + size));
    if (cut >= 0) return at + cut;
  }
  return -1;
}

const everyCut = (text) => [1, 2, 3, 7, text.length].map((size) => brokenAt(text, size));
const same = (value) => [value, value, value, value, value];

test('sound heads, and bodies full of bare LFs (by Content-Length and chunked), are read to the end', () => {
  const lengthBody = 'a\nb\n\n';
  const chunkedBody = '5\r\na\nb\n\n\r\n3;ext=1\r\n\n\n\n\r\n0\r\nTrailer: x\r\n\r\n';
  const text = `\r\n${HEALTHZ}POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: ${lengthBody.length}\r\n\r\n${lengthBody}` +
    `POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${chunkedBody}${HEALTHZ}`;
  assert.deepStrictEqual(everyCut(text), same(-1));
});

test('a bare LF ending the request line, a header line or the head is found at that LF, after any body', () => {
  const before = `${HEALTHZ}POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n\n\n\n`;
  for (const head of ['GET /healthz HTTP/1.1\nHost: a\r\n\r\n', 'GET /healthz HTTP/1.1\r\nHost: a\nX: b\r\n\r\n', 'GET /healthz HTTP/1.1\r\nHost: a\r\n\n']) {
    const lf = before.length + head.search(/[^\r]\n/) + 1;
    assert.deepStrictEqual(everyCut(before + head), same(lf), JSON.stringify(head));
  }
});

test('a folded header line is found at the end of the fold', () => {
  const text = `${HEALTHZ}GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\tfolded\r\n\r\n`;
  assert.deepStrictEqual(everyCut(text), same(text.indexOf('folded') + 'folded\r'.length));
  const framer = headFramer();
  framer.push(Buffer.from(text));
  assert.match(framer.broken.reason, /folded/);
});

test('after CONNECT the framer stops reading: the connection is no longer HTTP', () => {
  assert.deepStrictEqual(everyCut('CONNECT a:80 HTTP/1.1\r\nHost: a\r\n\r\nanything\n\n'), same(-1));
});
