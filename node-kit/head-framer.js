'use strict';
// Follows the requests in a connection's bytes, chunk by chunk, to find the first head that breaks a rule only its
// raw bytes show: a line ended by a bare LF (no CR before it), or a folded header line (obs-fold: a line starting with
// a space or tab, continuing the header before it). It reads heads line by line and skips bodies by their
// Content-Length or their chunked framing, as a server's parser does; it checks nothing else (the parser does). Used
// by lenient-head-guard.js on Node 14. Node 14 syntax.

const LF = 0x0a;
const CR = 0x0d;
const SP = 0x20;
const HTAB = 0x09;
// What the framer keeps of a line: a longer head passes Node's 16 KB head limit, which its parser refuses.
const MAX_KEPT_LINE = 16384;

/**
 * A framer for one connection. push(chunk) returns -1 while every head so far is sound, or the offset in chunk of
 * the byte that broke a head ({offset, reason} through .broken); after that, or after a head that hands the
 * connection over (CONNECT), it reads nothing more and push returns -1 (.done is true).
 */
function headFramer() {
  let mode = 'head';
  let line = ''; // the current line's start (up to MAX_KEPT_LINE characters), across chunks
  let lastByte = -1;
  let firstLine = true;
  let contentLength = 0;
  let chunked = false;
  let handsOver = false;
  let remaining = 0; // bytes of a body, or of a chunk's data, still to skip
  const framer = { done: false, broken: null, push };

  function startHead() {
    mode = 'head';
    firstLine = true;
    contentLength = 0;
    chunked = false;
    handsOver = false;
  }

  function endOfHead() {
    if (handsOver) {
      framer.done = true;
    } else if (chunked) {
      mode = 'chunk-size';
    } else if (contentLength > 0) {
      mode = 'body';
      remaining = contentLength;
    } else {
      startHead();
    }
  }

  function headerLine(text) {
    if (firstLine) {
      firstLine = false;
      if (/^CONNECT /i.test(text)) handsOver = true;
      return;
    }
    const colon = text.indexOf(':');
    const name = text.slice(0, colon).toLowerCase();
    const value = text.slice(colon + 1).trim();
    if (name === 'content-length') contentLength = Number(value) || 0;
    if (name === 'transfer-encoding') chunked = /(^|,)\s*chunked$/i.test(value);
  }

  // One line of a head (or of a chunked body's framing, in those modes): returns the reason it is broken, or ''.
  function lineEnded(crBefore) {
    const text = line;
    line = '';
    if (mode === 'head') {
      if (!crBefore) return 'a line of the head ends in LF without CR';
      if (text === '') {
        if (!firstLine) endOfHead();
        return ''; // empty lines before a request line are skipped, as the parser does
      }
      if (text.charCodeAt(0) === SP || text.charCodeAt(0) === HTAB) return 'a folded header line (obs-fold)';
      headerLine(text);
    } else if (mode === 'chunk-size') {
      const size = parseInt(text, 16);
      if (!(size >= 0)) framer.done = true; // the parser refuses it
      else if (size === 0) mode = 'trailers';
      else {
        mode = 'chunk-data';
        remaining = size;
      }
    } else if (mode === 'chunk-end') {
      mode = 'chunk-size'; // the line end after a chunk's data
    } else if (mode === 'trailers' && text === '') {
      startHead();
    }
    return '';
  }

  function push(chunk) {
    let at = 0;
    while (at < chunk.length && !framer.done) {
      if (mode === 'body' || mode === 'chunk-data') {
        const skipped = Math.min(remaining, chunk.length - at);
        remaining -= skipped;
        at += skipped;
        lastByte = chunk[at - 1];
        if (remaining === 0) {
          if (mode === 'body') startHead();
          else mode = 'chunk-end';
        }
        continue;
      }
      const lf = chunk.indexOf(LF, at);
      const end = lf < 0 ? chunk.length : lf;
      if (line.length < MAX_KEPT_LINE) line += chunk.toString('latin1', at, Math.min(end, at + MAX_KEPT_LINE - line.length));
      if (lf < 0) {
        lastByte = chunk[chunk.length - 1];
        return -1;
      }
      const crBefore = lf > at ? chunk[lf - 1] === CR : lastByte === CR;
      if (crBefore) line = line.slice(0, line.length - (line.endsWith('\r') ? 1 : 0));
      const reason = lineEnded(crBefore);
      if (reason) {
        framer.broken = { offset: lf, reason };
        framer.done = true;
        return lf;
      }
      lastByte = LF;
      at = lf + 1;
    }
    return -1;
  }

  return framer;
}

module.exports = { headFramer };
