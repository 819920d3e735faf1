'use strict';
const test = require('test');
const assert = require('assert');
const { fiberStringify } = require('../src/fiber-stringify');
const { generate } = require('@lab/payloads');
const { readVectors, sha256 } = require('@lab/payloads/js/vectors');

test('runs on Node 14, the line node-fibers supports', () => {
  assert.strictEqual(process.versions.node.split('.')[0], '14');
});

test('fiberStringify matches the pinned records vector', async () => {
  const pinned = readVectors().documents.find((v) => v.document === 'records' && v.size === 100);
  const { text } = await fiberStringify(generate(pinned));
  assert.strictEqual(sha256(text), pinned.sha256);
});

test('fiberStringify equals JSON.stringify on values the records document does not have', async () => {
  const date = new Date(Date.UTC(2020, 1, 29));
  const value = { d: date, u: undefined, f: () => 1, a: [undefined, NaN, -0, Infinity], b: [Object(1), Object('x')], s: 'q"\\\n\ud800', 2: 'two' };
  assert.strictEqual((await fiberStringify(value)).text, JSON.stringify(value));
  assert.strictEqual((await fiberStringify(undefined)).text, undefined);
});

test('fiberStringify yields and lets timers run while it works', async () => {
  const big = generate({ document: 'records', seed: 9, size: 3000 });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const { yields } = await fiberStringify(big, { yieldMs: 1 });
  clearInterval(timer);
  assert.ok(yields > 0, 'no yield on a 6 MB document');
  assert.ok(ticks > 0, 'no timer ran during the serialization');
});

test('fiberStringify rejects with the native TypeError on a cycle', async () => {
  const cyclic = {};
  cyclic.self = cyclic;
  await assert.rejects(fiberStringify(cyclic), /circular/);
});

// WeakRef is ES2021, beyond the Node 14 lint profile's ES2020, but Node 14.6 and later have it.
/* global WeakRef */
// A full collection on demand (node --expose-gc, set from here so the test runner needs no flag).
require('v8').setFlagsFromString('--expose_gc');
const collectGarbage = require('vm').runInNewContext('gc');
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Whether ref's target is still alive after five turns of the event loop, each followed by a full collection (what a
 * turn leaves behind, the last immediate callback for one, can hold it through the first).
 */
async function survives(ref) {
  for (let i = 0; i < 5; i++) {
    await nextTurn();
    collectGarbage();
  }
  return ref.deref() !== undefined;
}

test('a finished fiber keeps neither its input nor its output alive', async () => {
  let refs;
  await (async () => {
    const input = generate({ document: 'records', seed: 3, size: 50 });
    const output = await fiberStringify(input, { yieldMs: 1 });
    refs = [new WeakRef(input), new WeakRef(output)];
  })();
  assert.deepStrictEqual(await Promise.all(refs.map(survives)), [false, false]);
});

test('a fiber stopped by its signal keeps its input alive no longer', async () => {
  let ref;
  await (async () => {
    const input = generate({ document: 'records', seed: 3, size: 3000 });
    ref = new WeakRef(input);
    const signal = { aborted: false, reason: new Error('stopped') };
    const running = fiberStringify(input, { yieldMs: 1, signal });
    setImmediate(() => {
      signal.aborted = true;
    });
    await assert.rejects(running, /stopped/);
  })();
  assert.strictEqual(await survives(ref), false);
});
