'use strict';
// A user's document is checked and its reference taken without holding the event loop (issue 57: a 32 MB upload
// held node-async's for 8.5 s): the check reads at most a slice's characters between turns (a bound in work, not in
// time), and the reference is taken in a worker, the loop turning all the while; a value too large for the heap the
// budget allows is refused by the worker running out of memory, not the process.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('node:crypto');
const { checkJsonDocument } = require('../document-check');
const { nativeReference } = require('../native-reference');
const { countTurns } = require('@lab/test-kit/count-turns');
const { maxSliceChars } = require('@lab/loop-kit/slices');

const THIN = 1e-6; // yieldMs: every slice as thin as the work bound allows (loop-kit's MIN_SLICE_CHARS)
const records = (count) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: i, name: `record ${i}`, tags: ['a', 'b'], price: i / 4, note: 'naïve ☃ "quoted"' })));

test('the check reads at most a slice of characters between turns, and finds what the one reading finds', async () => {
  const text = records(20000);
  const stats = { yields: 0 };
  const stop = countTurns();
  const checked = await checkJsonDocument(text, { maxDepth: 10, yieldMs: THIN, stats });
  const turns = stop();
  const most = maxSliceChars(THIN);
  assert.ok(stats.maxSliceChars <= most + 6, `${stats.maxSliceChars} characters in one slice, at most ${most}`);
  assert.ok(stats.yields >= Math.floor(text.length / (most + 6)) && turns >= stats.yields, `${stats.yields} yields, ${turns} turns for ${text.length} characters`);
  assert.deepStrictEqual([checked.depth, checked.nodes, checked.counts.members], [3, 1 + 20000 * 8, 20000 * 5]);
});

test('not JSON is refused before too deep, each with its fields', async () => {
  const broken = await checkJsonDocument('['.repeat(2001), { maxDepth: 2000 }).catch((err) => err);
  assert.strictEqual(broken.status, 400);
  assert.deepStrictEqual(broken.toJSON(), { error: "the document is not JSON: the end of the text where a value or ']' was expected at line 1, column 2002", line: 1, column: 2002, excerpt: '['.repeat(24) });
  const deep = await checkJsonDocument(`${'['.repeat(2001)}${']'.repeat(2001)}`, { maxDepth: 2000 }).catch((err) => err);
  assert.deepStrictEqual([deep.status, deep.details], [400, { depth: 2001, maxDepth: 2000 }]);
});

test("the reference is native JSON's, taken in a worker while the loop turns; a value past the heap cap is a 413", async () => {
  const text = records(30000);
  const stop = countTurns();
  const reference = await nativeReference(Buffer.from(text), 512 * 2 ** 20);
  const turns = stop();
  const canonical = JSON.stringify(JSON.parse(text));
  assert.deepStrictEqual(reference, { hash: crypto.createHash('sha256').update(canonical).digest('hex'), bytes: Buffer.byteLength(canonical) });
  assert.ok(turns > 10, `${turns} turns of the event loop while the worker worked`);
  // 12 MB of `{}` is four million objects, about 250 MB of heap: far past what a 32 MB cap lets the worker hold, which
  // is 64 MB of old generation (native-reference.js' least). A million (64 MB) was too close to it: on a loaded
  // machine the worker once held them all and answered.
  const tooLarge = await nativeReference(Buffer.from(`[${'{},'.repeat(4e6)}{}]`), 32 * 2 ** 20).catch((err) => err);
  assert.strictEqual(tooLarge.status, 413, String(tooLarge.stack));
  assert.strictEqual(tooLarge.details.limitBytes, 32 * 2 ** 20);
});
