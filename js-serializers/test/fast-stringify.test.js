'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Writable } = require('node:stream');
const { stringify, chunks, pipeTo } = require('../fast-stringify');
const { maxSliceChars } = require('@lab/loop-kit/slices');
const { cases, shapes } = require('../conformance/torture-corpus');
const { SHAPES } = require('../bench/shapes');
const { abortAfterYields } = require('./abort-after-yields');
const { keepingSink } = require('../bench/keeping-sink');
const { generate } = require('@lab/payloads');

const CHUNK_MIN_CHARS = 1 << 16; // documented: every chunk but the last holds at least this many characters

// Responsiveness is the feature, so it is asserted, as a property no machine's speed or load can break: the output of
// one slice stays within its characters plus one batch, which is sized from the characters its container's batches
// produced so far (twice the slice's characters covers a first batch sized on the prior). The times are the
// benchmark's (bench/fast-stringify-bench.js).
const sliceBound = (yieldMs) => 2 * maxSliceChars(yieldMs);

function outcomeOf(run) {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
}

async function settle(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

/** actual must be native's outcome: the same text, or an error of the same class. */
function assertSameOutcome(actual, expected, testCase) {
  if (expected.error === undefined) {
    if (actual.error !== undefined) throw actual.error;
    assert.ok(actual.value === expected.value, `output differs from JSON.stringify in "${testCase.name}"`);
    return;
  }
  // Past native's stack, a serializer that does not run out of stack must produce the correct text.
  if (testCase.text && expected.error instanceof RangeError && actual.error === undefined) {
    assert.ok(actual.value === testCase.text(), `output past native's depth is wrong in "${testCase.name}"`);
    return;
  }
  assert.ok(actual.error !== undefined, `expected a ${expected.error.constructor.name}, got a result`);
  assert.strictEqual(actual.error.constructor, expected.error.constructor, String(actual.error && actual.error.stack));
}

async function collect(iterable) {
  const list = [];
  for await (const chunk of iterable) list.push(chunk);
  return list;
}

/** A Writable that buffers little and completes each write on a later turn, so pipeTo meets backpressure. */
function slowWritable(options) {
  const received = [];
  const writable = new Writable({
    highWaterMark: 1024,
    write(chunk, encoding, callback) {
      received.push(chunk);
      setImmediate(callback);
    },
    ...options,
  });
  return { writable, received, bytes: () => Buffer.concat(received) };
}

for (const testCase of cases) {
  test(`stringify, chunks and pipeTo equal JSON.stringify: ${testCase.name}`, async () => {
    const expected = outcomeOf(() => JSON.stringify(testCase.make()));

    assertSameOutcome(await settle(stringify(testCase.make())), expected, testCase);

    const listed = await settle(collect(chunks(testCase.make())));
    if (listed.value) {
      listed.value.slice(0, -1).forEach((chunk) => assert.ok(chunk.length >= CHUNK_MIN_CHARS, 'a chunk is too small'));
      if (expected.value === undefined && expected.error === undefined) assert.deepStrictEqual(listed.value, []);
    }
    assertSameOutcome(listed.value ? { value: listed.value.length ? listed.value.join('') : undefined } : listed, expected, testCase);

    const sink = slowWritable();
    const piped = await settle(pipeTo(testCase.make(), sink.writable));
    if (piped.value) {
      const bytes = sink.bytes();
      assert.strictEqual(piped.value.bytes, bytes.length);
      assertSameOutcome({ value: bytes.length === 0 ? undefined : bytes.toString('utf8') }, expected, testCase);
      // Byte equality also catches a chunk that ended inside a surrogate pair (each half would encode as U+FFFD).
      if (typeof expected.value === 'string') assert.ok(bytes.equals(Buffer.from(expected.value)), 'piped bytes differ');
    } else {
      assertSameOutcome(piped, expected, testCase);
    }
  });
}

test('random documents and the corpus, sliced very thin, equal JSON.stringify', async () => {
  // A tiny yieldMs puts slice and batch boundaries everywhere, where a wrong comma or a wrong key would show.
  for (let seed = 1; seed <= 40; seed++) {
    const value = shapes.randomValue(seed, 5000);
    const expected = JSON.stringify(value);
    assert.ok((await stringify(value, { yieldMs: 0.02 })) === expected, `random document ${seed}`);
    const list = await collect(chunks(value, { yieldMs: 0.2 }));
    assert.ok((list.length ? list.join('') : undefined) === expected, `random document ${seed} as chunks`);
  }
  for (const testCase of cases) {
    const expected = outcomeOf(() => JSON.stringify(testCase.make()));
    assertSameOutcome(await settle(stringify(testCase.make(), { yieldMs: 0.1 })), expected, testCase);
  }
});

test('the corpus is run on Node 14 too, when that runtime is installed', (t) => {
  const node14 = path.join(__dirname, '../../.runtimes/node-14.21.3/bin/node');
  if (!fs.existsSync(node14)) return t.skip('no Node 14 runtime in .runtimes/');
  const script = `
    const { stringify } = require(${JSON.stringify(path.join(__dirname, '../fast-stringify'))});
    const { cases } = require(${JSON.stringify(path.join(__dirname, '..', 'conformance', 'torture-corpus'))});
    const outcome = (f) => { try { return { text: f() }; } catch (e) { return { error: e.constructor.name }; } };
    (async () => {
      const failures = [];
      for (const c of cases) {
        const expected = outcome(() => JSON.stringify(c.make()));
        let actual;
        try { actual = { text: await stringify(c.make()) }; } catch (e) { actual = { error: e.constructor.name }; }
        const past = c.text && expected.error === 'RangeError' && actual.text === c.text();
        if (!past && (actual.text !== expected.text || actual.error !== expected.error)) failures.push(c.name);
      }
      process.stdout.write(JSON.stringify({ version: process.version, cases: cases.length, failures }));
    })();`;
  const report = JSON.parse(execFileSync(node14, ['-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 }));
  assert.strictEqual(report.version, 'v14.21.3');
  assert.deepStrictEqual(report.failures, []);
});

const bigDocument = () => generate({ document: 'records', seed: 1, size: 10000 }); // ~19.8 MB of JSON

test('the 20 MB records document equals native, as a string, as chunks and through pipeTo', async () => {
  const doc = bigDocument();
  const expected = JSON.stringify(doc);
  const stats = {};
  assert.ok((await stringify(doc, { stats })) === expected);
  assert.ok(stats.yields > 0 && stats.nativeCalls > 0 && stats.maxSliceMs > 0, JSON.stringify(stats));
  const list = await collect(chunks(doc));
  assert.ok(list.length > 1, 'one chunk for 20 MB');
  assert.ok(list.join('') === expected);
  const sink = slowWritable({ highWaterMark: 64 * 1024 });
  const result = await pipeTo(doc, sink.writable);
  assert.strictEqual(result.bytes, Buffer.byteLength(expected));
  assert.strictEqual(result.chunks, sink.received.length);
  assert.ok(result.yields > 0);
  assert.ok(sink.bytes().equals(Buffer.from(expected)));
});

test('a long piece is handed over as a chunk of its own once it completes the one before, never splitting a pair', async () => {
  // Before the long string's text come 7 characters, ["ab"," : the piece that completes their chunk is cut after an
  // odd number of its characters, inside a pair, unless the cut moves past it.
  for (const value of [['ab', '\ud83d\ude00'.repeat(300000)], ['ab', 'plain text '.repeat(100000), 'x']]) {
    const expected = JSON.stringify(value);
    const list = await collect(chunks(value));
    assert.strictEqual(list.join(''), expected);
    list.slice(0, -1).forEach((chunk) => assert.ok(chunk.length >= CHUNK_MIN_CHARS, `a chunk of ${chunk.length} characters`));
    list.forEach((chunk, i) => assert.strictEqual(Buffer.from(chunk).toString(), chunk, `chunk ${i} ends inside a surrogate pair`));
    assert.ok(list.some((chunk) => chunk.length > 2 * CHUNK_MIN_CHARS), 'the long piece was cut into chunks or joined');
  }
});

test('the 20 MB document is serialized in slices bounded in characters', async () => {
  const doc = bigDocument();
  for (const yieldMs of [5, 0.5]) {
    const stats = {};
    const list = await collect(chunks(doc, { stats, yieldMs }));
    const length = list.reduce((sum, chunk) => sum + chunk.length, 0);
    assert.strictEqual(stats.chars, length);
    assert.ok(stats.yields > 3, JSON.stringify(stats));
    assert.ok(stats.maxSliceChars <= sliceBound(yieldMs), `yieldMs ${yieldMs}: a slice wrote ${stats.maxSliceChars} characters (${JSON.stringify(stats)})`);
    assert.ok(stats.maxSliceChars < length / 3, `a slice wrote ${stats.maxSliceChars} of ${length} characters`);
  }
  // stringify() ends with the join of its pieces, one step, which it reports apart.
  const stats = {};
  const text = await stringify(doc, { stats });
  assert.strictEqual(stats.joinChars, text.length);
  assert.ok(stats.maxSliceChars <= sliceBound(5), JSON.stringify(stats));
});

test('every corpus case is serialized in slices bounded in characters, however thin', async () => {
  for (const testCase of cases) {
    for (const yieldMs of [5, 0.05]) {
      const stats = {};
      const outcome = await settle(collect(chunks(testCase.make(), { stats, yieldMs })));
      if (outcome.error) continue; // native's errors are the conformance test's
      assert.ok(stats.maxSliceChars <= sliceBound(yieldMs), `${testCase.name} (yieldMs ${yieldMs}): a slice wrote ${stats.maxSliceChars} characters`);
    }
  }
});

test('every shape of the benchmark is serialized in slices bounded in characters, however thin', async () => {
  // A sixteenth of their size: the bushy tree keeps 13 levels, whose upper nodes each hold most of the tree below
  // a small container, and the deep tree its 2000 levels.
  for (const shape of SHAPES) {
    const value = shape.make(1 / 16);
    for (const yieldMs of [5, 0.05]) {
      const stats = {};
      await collect(chunks(value, { stats, yieldMs }));
      assert.ok(stats.maxSliceChars <= sliceBound(yieldMs), `${shape.name} (yieldMs ${yieldMs}): a slice wrote ${stats.maxSliceChars} characters`);
    }
  }
});

test('no slice of a document of several runs in the caller\'s turn of the loop, so the caller\'s own work and the first slice are two blocks', async () => {
  // Run at once, the first slice would share the caller's phase of the loop with the second slice's turn, and timers
  // would wait for both. Promises alone never give the loop a turn: only a slice's own turn can let it start.
  const doc = generate({ document: 'records', seed: 1, size: 1000 }); // ~2 MB: more than a 1 ms slice's characters
  const stats = {};
  const pending = [stringify(doc, { stats, yieldMs: 1 }), collect(chunks(doc, { stats: {}, yieldMs: 1 }))];
  for (let i = 0; i < 50; i++) await null;
  assert.strictEqual(stats.chars, 0, JSON.stringify(stats));
  const [text, pieces] = await Promise.all(pending);
  assert.ok(text === JSON.stringify(doc) && pieces.join('') === text);
  assert.ok(stats.yields > 0, JSON.stringify(stats));
});

test('a document native does within one slice is one native call in the caller\'s turn, with no turn waited for', async () => {
  // It has no second slice for its first to share a turn with, and a turn of the loop cost more than native's whole
  // run on documents under 0.1 MB. Promises alone never give the loop a turn: the immediate runs only after one.
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  const stats = {};
  const chunkStats = {};
  const pipeStats = {};
  const { sink, kept } = keepingSink();
  const results = await Promise.all([
    stringify([1, 2, 3], { stats }),
    collect(chunks({ a: [1] }, { stats: chunkStats })),
    pipeTo({ b: 'x' }, sink, { stats: pipeStats }).then(() => kept.join('')),
  ]);
  assert.strictEqual(turned, false, 'a turn of the loop ran before the results');
  assert.deepStrictEqual(results, ['[1,2,3]', ['{"a":[1]}'], '{"b":"x"}']);
  for (const s of [stats, chunkStats, pipeStats]) assert.deepStrictEqual([s.nativeCalls, s.yields], [1, 0], JSON.stringify(s));
});

test('abort rejects with AbortError at the next slice boundary, and nothing is written after it', async () => {
  const doc = bigDocument();
  const controller = new AbortController();
  const stats = {};
  const atAbort = abortAfterYields(controller, stats, 2);
  await assert.rejects(stringify(doc, { signal: controller.signal, stats }), { name: 'AbortError' });
  const seen = await atAbort;
  assert.strictEqual(stats.chars, seen.chars, 'output was produced after the abort');
  assert.strictEqual(stats.nativeCalls, seen.nativeCalls, 'native calls after the abort');

  const piping = new AbortController();
  const sink = slowWritable({ highWaterMark: 256 * 1024 });
  // pipeTo's own writes are counted (the sink still takes in, after the abort, what was written before it).
  let writes = 0;
  const write = sink.writable.write.bind(sink.writable);
  sink.writable.write = (...args) => {
    writes++;
    return write(...args);
  };
  const pipeStats = {};
  let writesAtAbort = -1;
  abortAfterYields({ abort: () => {
    writesAtAbort = writes;
    piping.abort();
  } }, pipeStats, 2);
  await assert.rejects(pipeTo(doc, sink.writable, { signal: piping.signal, stats: pipeStats }), { name: 'AbortError' });
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.ok(writesAtAbort >= 0);
  assert.strictEqual(writes, writesAtAbort, 'a chunk was written after the abort');
  assert.ok(!sink.writable.writableEnded, 'pipeTo ended the writable');
});

test('abort uses the signal reason, and an aborted signal does no work at all', async () => {
  const reason = new Error('stop now');
  const controller = new AbortController();
  controller.abort(reason);
  const stats = {};
  await assert.rejects(stringify(generate({ document: 'records', seed: 1, size: 100 }), { signal: controller.signal, stats }), (err) => err === reason);
  assert.strictEqual(stats.nativeCalls, 0);
  await assert.rejects(collect(chunks([1], { signal: AbortSignal.abort() })), { name: 'AbortError' });
});

test('concurrent calls each produce their own document', async () => {
  const docs = [
    ...[11, 12, 13, 14, 15].map((seed) => generate({ document: 'records', seed, size: 1500 })),
    generate({ document: 'objects', seed: 2, size: 3000 }),
    cases.find((c) => c.name === 'wide object').make(),
    cases.find((c) => c.name === 'huge array of numbers').make(),
  ];
  const texts = await Promise.all(docs.map((doc) => stringify(doc, { yieldMs: 2 })));
  texts.forEach((text, i) => assert.ok(text === JSON.stringify(docs[i]), `document ${i} differs`));
});

test('pipeTo rejects when the writable fails or closes early, and ends it only when asked', async () => {
  const doc = generate({ document: 'records', seed: 2, size: 2000 });
  const failure = new Error('disk full');
  let writes = 0;
  const failing = new Writable({
    highWaterMark: 1024,
    write(chunk, encoding, callback) {
      setImmediate(() => callback(++writes === 1 ? failure : null));
    },
  });
  failing.on('error', () => {}); // the rejection is what is tested
  await assert.rejects(pipeTo(doc, failing), (err) => err === failure);

  const closing = slowWritable();
  setTimeout(() => closing.writable.destroy(), 2);
  await assert.rejects(pipeTo(doc, closing.writable));

  const destroyed = slowWritable();
  destroyed.writable.destroy();
  await assert.rejects(pipeTo(doc, destroyed.writable));

  const ending = slowWritable();
  const result = await pipeTo(doc, ending.writable, { end: true });
  assert.ok(ending.writable.writableFinished);
  assert.strictEqual(result.bytes, Buffer.byteLength(JSON.stringify(doc)));
  assert.ok(ending.bytes().equals(Buffer.from(JSON.stringify(doc))));
});

test('pipeTo counts the bytes of a document written in one piece only when they are read, and counts them right', async () => {
  const doc = { word: 'caf\u00e9', sign: '\u20ac', face: '\ud83d\ude00', lone: '\ud800', list: [1, 2, 3] };
  const { sink, kept } = keepingSink();
  const counted = [];
  const byteLength = Buffer.byteLength;
  Buffer.byteLength = (...args) => {
    counted.push(args[0]);
    return byteLength(...args);
  };
  let result;
  try {
    const stats = {};
    result = await pipeTo(doc, sink, { stats });
    assert.strictEqual(stats.yields, 0, 'a document this small is done in one step');
    assert.strictEqual(counted.length, 0, 'nothing counted before the figure is read');
    assert.strictEqual(result.bytes, byteLength(JSON.stringify(doc)));
    assert.strictEqual(result.bytes, byteLength(JSON.stringify(doc)));
    assert.strictEqual(counted.length, 1, 'counted once, when first read');
  } finally {
    Buffer.byteLength = byteLength;
  }
  assert.deepStrictEqual(JSON.parse(JSON.stringify(result)), { bytes: byteLength(JSON.stringify(doc)), chunks: 1, yields: 0 });
  assert.deepStrictEqual(kept, [JSON.stringify(doc)]);
});

test('options are validated', async () => {
  await assert.rejects(stringify(1, { yieldMs: 0 }), RangeError);
  await assert.rejects(stringify(1, { yieldMs: 'fast' }), RangeError);
  await assert.rejects(stringify(1, { signal: {} }), TypeError);
  await assert.rejects(stringify(1, { stats: 3 }), TypeError);
});
