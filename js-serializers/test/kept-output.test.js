'use strict';
// kept-output.js: what a stringify run keeps is its output exactly, in strings of at least JOIN_CHARS but the last,
// with each character copied at most once, and a large chunk (native's whole output) not copied at all.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { createKeptOutput, JOIN_CHARS } = require('../kept-output');

/** Chunks of sizes (characters), each its own repeated letter, so that order and content are both checked. */
const chunksOf = (sizes) => sizes.map((size, i) => String.fromCharCode(97 + (i % 26)).repeat(size));

function keep(chunks) {
  const output = createKeptOutput();
  for (const chunk of chunks) output.add(chunk);
  return { kept: output.take(), stats: output.stats, output };
}

test('chunks of 64 Ki characters are kept as strings of at least JOIN_CHARS, each character copied once', () => {
  const chunks = chunksOf(Array.from({ length: 40 }, () => 1 << 16));
  const { kept, stats } = keep(chunks);
  assert.strictEqual(kept.join(''), chunks.join(''));
  for (const piece of kept.slice(0, -1)) assert.ok(piece.length >= JOIN_CHARS, `a kept string of ${piece.length} characters`);
  assert.ok(kept.length <= Math.ceil((40 << 16) / JOIN_CHARS), `${kept.length} strings kept`);
  assert.ok(stats.joinedChars <= 40 << 16, `${stats.joinedChars} characters copied for ${40 << 16}`);
});

test('the strings it keeps are V8 large objects, which no collection copies: the young generation keeps none of them', () => {
  // In a child of its own, after a full collection, so that nothing else allocates or frees large objects meanwhile.
  const child = `
    const v8 = require('v8');
    const { createKeptOutput } = require(${JSON.stringify(path.join(__dirname, '..', 'kept-output.js'))});
    const large = () => v8.getHeapSpaceStatistics().filter((s) => /large_object/.test(s.space_name)).reduce((n, s) => n + s.space_used_size, 0);
    const chunks = Array.from({ length: 32 }, (_, i) => String.fromCharCode(97 + i).repeat(1 << 16));
    gc();
    const before = large();
    const output = createKeptOutput();
    for (const chunk of chunks) output.add(chunk);
    const kept = output.take();
    console.log(JSON.stringify({ grown: large() - before, keptChars: kept.reduce((n, k) => n + k.length, 0) }));`;
  const { grown, keptChars } = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', child], { encoding: 'utf8' }));
  assert.strictEqual(keptChars, 32 << 16);
  assert.ok(grown >= keptChars, `large-object spaces grew by ${grown} bytes for ${keptChars} one-byte characters kept`);
});

test('one chunk of JOIN_CHARS or more is kept as it is, with nothing copied', () => {
  const whole = 'x'.repeat(JOIN_CHARS * 3);
  const { kept, stats } = keep([whole]);
  assert.deepStrictEqual(kept, [whole]);
  assert.strictEqual(stats.joinedChars, 0);
});

test('uneven chunks, a surrogate pair split between two, and empty ones come back as the same text', () => {
  const chunks = chunksOf([5, 0, JOIN_CHARS - 3, 7, 1, JOIN_CHARS * 2, 0, 3]);
  chunks.splice(3, 0, 'a\ud83d', '\ude00b');
  const { kept } = keep(chunks);
  assert.strictEqual(kept.join(''), chunks.join(''));
});

test('take() empties it: a second take() is empty, and chunks added after it are kept alone', () => {
  const { output } = keep(chunksOf([10, 20]));
  assert.deepStrictEqual(output.take(), []);
  output.add('late');
  assert.deepStrictEqual(output.take(), ['late']);
});
