'use strict';
// utf8-bytes.js: the count equals Buffer.byteLength on every kind of text, and its work stays bounded: few encodeInto
// calls on ASCII, none after a chunk that was not ASCII.
const test = require('node:test');
const assert = require('node:assert');
const { utf8Counter } = require('../utf8-bytes');

/** The encodeInto calls made while run() runs. */
function encodeCalls(run) {
  const encodeInto = TextEncoder.prototype.encodeInto;
  let calls = 0;
  TextEncoder.prototype.encodeInto = function countedEncodeInto(...args) {
    calls++;
    return encodeInto.apply(this, args);
  };
  try {
    run();
  } finally {
    TextEncoder.prototype.encodeInto = encodeInto;
  }
  return calls;
}

test('each text counts what Buffer.byteLength counts, whatever its characters and wherever they fall', () => {
  const ascii = (n) => 'a'.repeat(n);
  const texts = ['', 'x', '{"a":1}', ascii(1023), ascii(1024), ascii(1025), ascii(70000), ascii(300000)];
  // characters past ASCII at the start, at the edges of the first blocks, and late
  for (const at of [0, 1, 1023, 1024, 1025, 2047, 2048, 9000, 65536, 200000]) {
    for (const odd of ['\u00e9', '\u20ac', '\ud83d\ude00', '\ud800', '\udc00', '\u007f\u0080']) {
      texts.push(ascii(at) + odd + ascii(3000));
      texts.push(ascii(at) + odd);
    }
  }
  texts.push('\ud83d\ude00'.repeat(40000), '\u00e9'.repeat(5000), ascii(1023) + '\ud83d\ude00' + ascii(10));
  for (const text of texts) {
    assert.strictEqual(utf8Counter()(text), Buffer.byteLength(text), `a text of ${text.length} characters`);
  }
});

test('a counter keeps counting right across chunks, before and after one that is not ASCII', () => {
  const chunks = ['a'.repeat(70000), 'b'.repeat(100) + '\u00e9' + 'c'.repeat(5000), 'd'.repeat(70000), '\ud83d', '\ude00'];
  const count = utf8Counter();
  for (const chunk of chunks) assert.strictEqual(count(chunk), Buffer.byteLength(chunk));
});

test('ASCII is read in few blocks, and nothing is encoded once a chunk was not ASCII', () => {
  const count = utf8Counter();
  const megabytes = 'a'.repeat(4 << 20);
  const calls = encodeCalls(() => count(megabytes));
  // blocks of 1 Ki characters up to 8 Ki read, then an eighth of what was read, at most 64 Ki: 100 for 4 Mi
  assert.ok(calls > 0 && calls <= 120, `${calls} encodeInto calls for 4 Mi ASCII characters`);
  assert.ok(encodeCalls(() => count('a'.repeat(1000) + '\u00e9')) === 1, 'one block for a short text');
  assert.strictEqual(encodeCalls(() => count(megabytes)), 0, 'after a chunk past ASCII, byteLength alone');
});
