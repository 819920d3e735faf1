'use strict';
// The `worker` approaches (src/documents/): the reference's output on documents of every kind, the settings refused by
// name, the bounded queue, a signal that drops a queued task and stops a running one, and a pool that closes with
// no thread left. Properties only: which task settles how, never how fast.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('node:crypto');
const { generate } = require('@lab/payloads');
const { createDocumentPool, documentPoolSettings } = require('../src/documents/document-pool');
const { workerApproaches } = require('../src/documents/worker-approaches');

const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');
const nested = (depth) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
const DOCUMENTS = {
  'generated records': JSON.stringify(generate({ document: 'records', seed: 3, size: 200 })),
  unicode: JSON.stringify({ 'clé': 'naïve – “quoted” 漢字 😀', lone: '\ud800', escapes: '\u0000\n\t"\\', emoji: ['👩‍👩‍👧', '\u2028\u2029'] }),
  'big and odd numbers': '[12345678901234567890123,-0,1e308,5e-324,0.1,-1.5e-7,9007199254740993,1E+2]',
  'deep nesting, 1400 levels': nested(700),
  'scalars and empties': '[null,true,false,"",{},[],{"":0}]',
};

async function withPool(settings, body) {
  const pool = createDocumentPool(documentPoolSettings(settings, {}));
  try {
    return await body(pool, workerApproaches(pool));
  } finally {
    await pool.close();
  }
}

async function stringified(stringify, value, options) {
  let text = '';
  for await (const chunk of stringify(value, options)) text += chunk;
  return text;
}

test('worker: parse and stringify give the reference on every document, each run one turn of the loop', async () => {
  await withPool({}, async (pool, worker) => {
    for (const [name, text] of Object.entries(DOCUMENTS)) {
      const reference = JSON.stringify(JSON.parse(text));
      const parseStats = {};
      const value = await worker.parse(text, { yieldMs: 5, stats: parseStats });
      assert.strictEqual(sha256(JSON.stringify(value)), sha256(reference), `parse: ${name}`);
      assert.strictEqual(parseStats.yields, 1);
      const stringifyStats = {};
      assert.strictEqual(sha256(await stringified(worker.stringify, JSON.parse(text), { yieldMs: 5, stats: stringifyStats })), sha256(reference), `stringify: ${name}`);
      assert.strictEqual(stringifyStats.yields, 1);
    }
    assert.ok(Object.is(JSON.parse(JSON.stringify(await worker.parse('[-0]', { stats: {} })))[0], 0));
    assert.ok(Object.is((await worker.parse('[-0]', { stats: {} }))[0], -0), 'the clone keeps -0, as JSON.parse gives it');
  });
});

test('worker: a parse error and a value too deep to clone reject the run; the pool goes on', async () => {
  await withPool({}, async (pool, worker) => {
    await assert.rejects(worker.parse('{"a":', { stats: {} }), SyntaxError);
    await assert.rejects(worker.parse(nested(20000), { stats: {} }), RangeError);
    await assert.rejects(stringified(worker.stringify, JSON.parse(nested(20000)), { stats: {} }), RangeError);
    assert.deepStrictEqual(await worker.parse('{"ok":1}', { stats: {} }), { ok: 1 });
    assert.strictEqual(pool.running, 0);
  });
});

test('worker: settings come from the environment with defaults, and a bad one is refused by name and range', () => {
  assert.deepStrictEqual(documentPoolSettings({}, {}), { workers: 1, maxQueue: 8 });
  assert.deepStrictEqual(documentPoolSettings({}, { DOCUMENT_WORKERS: '2', DOCUMENT_MAX_QUEUE: '0' }), { workers: 2, maxQueue: 0 });
  assert.throws(() => documentPoolSettings({}, { DOCUMENT_WORKERS: '0' }), /DOCUMENT_WORKERS must be an integer from 1 to 16 \(got 0\)/);
  assert.throws(() => documentPoolSettings({}, { DOCUMENT_WORKERS: 'two' }), /DOCUMENT_WORKERS must be an integer from 1 to 16 \(got two\)/);
  assert.throws(() => documentPoolSettings({}, { DOCUMENT_MAX_QUEUE: '1.5' }), /DOCUMENT_MAX_QUEUE must be an integer from 0 to 1024/);
  assert.throws(() => documentPoolSettings({ maxQueue: -1 }, {}), /DOCUMENT_MAX_QUEUE must be an integer from 0 to 1024 \(got -1\)/);
});

test('worker: past its threads and queue, a run is refused with 503 naming the settings', async () => {
  await withPool({ workers: 1, maxQueue: 1 }, async (pool, worker) => {
    const runs = [1, 2].map((n) => worker.parse(`[${n}]`, { stats: {} }));
    await assert.rejects(worker.parse('[3]', { stats: {} }), (err) => err.status === 503 && /DOCUMENT_WORKERS, DOCUMENT_MAX_QUEUE/.test(err.message));
    assert.deepStrictEqual(await Promise.all(runs), [[1], [2]]);
  });
});

test('worker: an aborted signal drops a queued task and stops a running one; the pool answers after', async () => {
  await withPool({ workers: 1, maxQueue: 2 }, async (pool, worker) => {
    // Aborted before it is posted: never runs.
    await assert.rejects(worker.parse('[1]', { signal: AbortSignal.abort(), stats: {} }), { name: 'AbortError' });
    // A long parse whose thread is stopped once the abort comes; the run behind it, queued, is dropped first.
    const big = JSON.stringify(generate({ document: 'records', seed: 1, size: 3000 }));
    const running = new AbortController();
    const queued = new AbortController();
    const first = worker.parse(big, { signal: running.signal, stats: {} });
    const second = worker.parse(big, { signal: queued.signal, stats: {} });
    queued.abort();
    await assert.rejects(second, { name: 'AbortError' });
    running.abort();
    await assert.rejects(first, { name: 'AbortError' });
    assert.strictEqual(pool.running, 0);
    assert.deepStrictEqual(await worker.parse('[true]', { stats: {} }), [true]);
  });
});

test('worker: close stops every thread; a run after it starts them again', async () => {
  const pool = createDocumentPool(documentPoolSettings({ workers: 2 }, {}));
  const worker = workerApproaches(pool);
  assert.strictEqual(pool.threads, 0, 'no thread before the first run');
  await worker.parse('[1]', { stats: {} });
  assert.strictEqual(pool.threads, 2);
  await pool.close();
  assert.strictEqual(pool.threads, 0);
  assert.deepStrictEqual(await worker.parse('[2]', { stats: {} }), [2]);
  await pool.close();
  assert.strictEqual(pool.threads, 0);
});

test('worker-pieces: the value comes back in pieces of bounded weight, a turn of the loop between them, and validates', async () => {
  const { cutValue, assembleValue, weigh, PIECE_UNITS } = require('../src/documents/value-pieces');
  const v8 = require('node:v8');
  const { records } = generate({ document: 'records', seed: 5, size: 2000 });
  const text = JSON.stringify({ meta: { n: 1 }, __proto__x: [1], versions: Object.fromEntries(records.map((r, i) => [`v${i}`, r])), tail: records.slice(0, 300) });
  const cut = cutValue(JSON.parse(text));
  assert.ok(cut.pieces.length > 10, `${cut.pieces.length} pieces`);
  for (const piece of cut.pieces) {
    const members = v8.deserialize(piece);
    // A run of members weighs at most PIECE_UNITS, or is one member that cannot be cut (a leaf).
    assert.ok(members.length <= 2 || weigh(members, null) <= PIECE_UNITS + 1 + members.length, `a piece of ${members.length} members`);
  }
  const stats = { yields: 0 };
  const pieces = cut.pieces.length;
  const value = await assembleValue(cut, { yieldMs: 0, stats });
  assert.strictEqual(stats.yields, pieces, 'a turn before every piece when yieldMs has always passed');
  assert.strictEqual(sha256(JSON.stringify(value)), sha256(text));
  const own = JSON.parse('{"__proto__":{"a":1},"b":[' + Array.from({ length: 40000 }, (_, i) => i).join(',') + ']}');
  const back = await assembleValue(cutValue(own), { yieldMs: 5, stats: { yields: 0 } });
  assert.strictEqual(Object.getPrototypeOf(back), Object.prototype);
  assert.deepStrictEqual(Object.keys(back), ['__proto__', 'b']);
  assert.strictEqual(JSON.stringify(back), JSON.stringify(own));
});

test('worker-pieces: through the pool, the reference on every document; an abort between pieces stops the assembly', async () => {
  await withPool({}, async (pool, worker) => {
    for (const [name, text] of Object.entries(DOCUMENTS)) {
      const value = await worker.parsePieces(text, { yieldMs: 5, stats: { yields: 0 } });
      assert.strictEqual(sha256(JSON.stringify(value)), sha256(JSON.stringify(JSON.parse(text))), name);
    }
    const controller = new AbortController();
    const text = JSON.stringify(generate({ document: 'records', seed: 2, size: 2000 }));
    const stats = { yields: 0 };
    const cut = await pool.run('parsePieces', text);
    const { assembleValue } = require('../src/documents/value-pieces');
    controller.abort(new Error('gone'));
    await assert.rejects(assembleValue(cut, { yieldMs: 0, signal: controller.signal, stats }), /gone/);
    assert.strictEqual(stats.yields, 1, 'stopped at its first turn');
  });
});

test('worker: a service started with a bad DOCUMENT_WORKERS exits with the setting named', async () => {
  const { execFile } = require('node:child_process');
  const path = require('node:path');
  const server = path.join(__dirname, '..', 'src', 'server.js');
  const outcome = await new Promise((resolve) => {
    execFile(process.execPath, [server], { env: Object.assign({}, process.env, { DOCUMENT_WORKERS: '0', PORT: '0' }) }, (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stderr }));
  });
  assert.notStrictEqual(outcome.code, 0);
  assert.match(outcome.stderr, /DOCUMENT_WORKERS must be an integer from 1 to 16 \(got 0\)/);
});
