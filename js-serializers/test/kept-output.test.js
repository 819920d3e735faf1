'use strict';
// kept-output.js: what a stringify run keeps is its output's UTF-8 bytes exactly, whatever the chunks (a surrogate pair
// split between two, characters of one to four bytes, a buffer outgrown), outside V8's heap, in a buffer the next run
// reuses.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { createKeptOutput, MAX_FREE, MAX_KEPT_BYTES } = require('../kept-output');

/** Chunks of sizes (characters), each its own repeated letter, so that order and content are both checked. */
const chunksOf = (sizes) => sizes.map((size, i) => String.fromCharCode(97 + (i % 26)).repeat(size));

/** The bytes kept for chunks, copied out of the run's buffer (released before returning), and the output's stats. */
function keep(chunks) {
  const output = createKeptOutput();
  for (const chunk of chunks) output.add(chunk);
  const bytes = Buffer.from(output.take());
  output.release();
  return { bytes, stats: output.stats };
}

const utf8 = (chunks) => Buffer.from(chunks.join(''), 'utf8');

test('chunks of 64 Ki characters are kept as their UTF-8 bytes, in order', () => {
  const chunks = chunksOf(Array.from({ length: 40 }, () => 1 << 16));
  const { bytes, stats } = keep(chunks);
  assert.ok(bytes.equals(utf8(chunks)));
  assert.strictEqual(stats.bytes, 40 << 16);
});

test('characters of two, three and four bytes, a surrogate pair split between chunks and empty chunks: the same bytes', () => {
  const chunks = ['a\u00e9', '', '\u4e2d\ud83d', '\ude00b', '', '\ud83d', '\ude01', 'z'];
  assert.ok(keep(chunks).bytes.equals(utf8(chunks)));
});

test('a chunk whose bytes outgrow the buffer is written again whole, not cut', () => {
  // 4 Mi characters of three bytes each: room for their count of characters (the first guess) is a third of it.
  const chunks = ['x'.repeat(100), '\u4e2d'.repeat(4 << 20), 'tail'];
  const { bytes, stats } = keep(chunks);
  assert.ok(bytes.equals(utf8(chunks)));
  assert.ok(stats.grownBytes > 0, 'the buffer grew');
});

test('a lone high surrogate at the end is encoded as any UTF-8 encoding of the text encodes it', () => {
  const chunks = ['ok', '\ud83d'];
  assert.ok(keep(chunks).bytes.equals(utf8(chunks)));
});

test('a released buffer is the next run\'s, and two runs at once write to two buffers', () => {
  const first = createKeptOutput();
  first.add('x'.repeat(3 << 20));
  const used = first.take().buffer;
  first.release();
  const second = createKeptOutput();
  const third = createKeptOutput();
  second.add('second');
  third.add('third');
  assert.strictEqual(second.take().buffer, used, 'the released buffer was reused');
  assert.notStrictEqual(third.take().buffer, used);
  assert.strictEqual(second.stats.grownBytes, 0);
  assert.strictEqual(Buffer.from(second.take()).toString(), 'second');
  assert.strictEqual(Buffer.from(third.take()).toString(), 'third');
  second.release();
  third.release();
  assert.ok(MAX_FREE >= 2);
});

test('a buffer past MAX_KEPT_BYTES is let go at release', () => {
  const big = createKeptOutput();
  const half = 'y'.repeat(MAX_KEPT_BYTES / 2 + 1);
  big.add(half);
  big.add(half);
  const used = big.take().buffer;
  assert.ok(used.byteLength > MAX_KEPT_BYTES);
  big.release();
  const next = [createKeptOutput(), createKeptOutput(), createKeptOutput()];
  for (const output of next) {
    output.add('z');
    assert.notStrictEqual(output.take().buffer, used);
  }
  for (const output of next) output.release();
});

test('the output is kept outside V8\'s heap: the heap does not grow by it, the process\' buffers do', () => {
  // In a child of its own, after a full collection, so that nothing else allocates meanwhile.
  const child = `
    const { createKeptOutput } = require(${JSON.stringify(path.join(__dirname, '..', 'kept-output.js'))});
    // Flat strings (repeat() makes ropes, which a write flattens into the heap: the test's own chunks, not the output).
    const chunks = Array.from({ length: 32 }, (_, i) => Buffer.alloc(1 << 16, 97 + (i % 26)).toString('latin1'));
    const usage = () => { gc(); const m = process.memoryUsage(); return { heap: m.heapUsed, buffers: m.arrayBuffers }; };
    const before = usage();
    const output = createKeptOutput();
    for (const chunk of chunks) output.add(chunk);
    const kept = output.take();
    const after = usage();
    console.log(JSON.stringify({ heap: after.heap - before.heap, buffers: after.buffers - before.buffers, bytes: kept.length }));`;
  const grown = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', child], { encoding: 'utf8' }));
  assert.strictEqual(grown.bytes, 32 << 16);
  assert.ok(grown.buffers >= grown.bytes, `the process' buffers grew by ${grown.buffers} bytes for ${grown.bytes} kept`);
  assert.ok(grown.heap < grown.bytes / 8, `V8's heap grew by ${grown.heap} bytes for ${grown.bytes} kept`);
});
