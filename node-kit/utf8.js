'use strict';
// A body read strictly as UTF-8: the first byte sequence that is not UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF, no sequence cut short by the end of the body) is refused with a 400 naming its
// byte offset, where a decoder would have put U+FFFD in its place and the parse would have gone on with other text
// than the client sent. Checked packet by packet, a sequence split between packets included. Node 14 syntax.
const buffer = require('buffer');
const { badRequest } = require('./errors');

// Node 18.14+ checks a whole buffer natively (simdutf), about ten times faster than a loop over its bytes here; Node
// 14 has no such call and takes the loop. Either way the loop names the offset, and handles a packet's edges.
const nativeIsUtf8 = typeof buffer.isUtf8 === 'function' ? buffer.isUtf8 : null;

const invalidUtf8 = (byteOffset) => badRequest(`the body is not valid UTF-8: the byte sequence at byte offset ${byteOffset} is not a UTF-8 character`, { byteOffset });

class Utf8Check {
  constructor() {
    this.seen = 0; // bytes of the earlier packets
    this.need = 0; // continuation bytes the current sequence still needs
    this.lower = 0x80; // the range its next continuation byte must fall in (narrower after E0, ED, F0, F4)
    this.upper = 0xbf;
    this.start = 0; // the body offset of the current sequence's first byte
  }

  /** Takes the next packet (a Buffer); throws HttpError 400 at the first invalid sequence. */
  write(bytes) {
    let i = 0;
    while (this.need > 0 && i < bytes.length) this.step(bytes[i], i++); // a sequence the last packet left open
    if (nativeIsUtf8 !== null && i < bytes.length) {
      const tail = lastSequenceStart(bytes, i);
      if (nativeIsUtf8(bytes.subarray(i, tail))) i = tail; // else the loop below finds where
    }
    for (; i < bytes.length; i++) this.step(bytes[i], i);
    this.seen += bytes.length;
  }

  step(byte, i) {
    if (this.need > 0) {
      if (byte < this.lower || byte > this.upper) throw invalidUtf8(this.start);
      this.lower = 0x80;
      this.upper = 0xbf;
      this.need--;
    } else if (byte >= 0x80) {
      this.start = this.seen + i;
      this.lead(byte);
    }
  }

  lead(byte) {
    if (byte >= 0xc2 && byte <= 0xdf) this.need = 1;
    else if (byte >= 0xe0 && byte <= 0xef) {
      this.need = 2;
      if (byte === 0xe0) this.lower = 0xa0; // overlong
      if (byte === 0xed) this.upper = 0x9f; // surrogates
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      this.need = 3;
      if (byte === 0xf0) this.lower = 0x90; // overlong
      if (byte === 0xf4) this.upper = 0x8f; // past U+10FFFF
    } else throw invalidUtf8(this.start); // a continuation byte with no lead, C0, C1, F5-FF
  }

  /** At the end of the body: throws if it ends inside a sequence. */
  end() {
    if (this.need > 0) throw invalidUtf8(this.start);
  }
}

/**
 * Where the packet's last character may start and be cut short by the packet's end: the last lead byte within its
 * final three, else the end (an ASCII byte, or continuation bytes the native check judges with what precedes them).
 */
function lastSequenceStart(bytes, from) {
  for (let k = bytes.length - 1; k >= Math.max(from, bytes.length - 3); k--) {
    if (bytes[k] < 0x80) return bytes.length;
    if (bytes[k] >= 0xc0) return k;
  }
  return bytes.length;
}

module.exports = { Utf8Check };
