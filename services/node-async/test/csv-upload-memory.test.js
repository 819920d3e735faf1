'use strict';
// POST /csv cannot take the service out of memory: a body is capped in cells as well as bytes (rows of one character
// hold ~100 bytes of heap per byte of body in the character-loop approaches, where the old cap counted bytes only),
// and caps whose worst case does not fit half the heap are refused at start-up. The service under test runs in a
// process of its own with a 256 MB heap, so that what would exhaust it takes megabytes, not gigabytes.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startService } = require('@lab/test-kit');
const { makeService } = require('../src/service');
const { csvDocument } = require('@lab/csv-parsers/csv-document');
const { openUpload } = require('./raw-upload');

const SERVER = path.join(__dirname, '..', 'src', 'server.js');
const SMALL_HEAP = ['--max-old-space-size=256', '--max-semi-space-size=16'];
const CHUNK_BYTES = 64 * 1024;
// Two uploads of 1.5 MiB and 16 Ki cells fit half of that heap (csv-upload-settings.js). 1.5 MiB of empty lines
// are 1.5 million rows: the sync approach held ~300 MB for each before the cell cap.
const CAPS = { CSV_MAX_BYTES: String(1.5 * 1024 * 1024), CSV_MAX_CELLS: String(16 * 1024), CSV_MAX_UPLOADS: '2' };

/** Starts server.js in a child with a small heap; resolves {port, child, output()} once it listens, or {exit}. */
function startChild(settings) {
  const env = Object.assign({}, process.env, { PORT: '0', HOST: '127.0.0.1', OFFLOAD_WORKERS: '1' }, settings);
  for (const name of ['CSV_MAX_BYTES', 'CSV_MAX_CELLS', 'CSV_MAX_UPLOADS']) if (!(name in settings)) delete env[name];
  const child = spawn(process.execPath, [...SMALL_HEAP, SERVER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    const onData = () => {
      const listening = /listening on [\d.]+:(\d+)/.exec(output);
      if (listening) resolve({ port: Number(listening[1]), child, output: () => output });
    };
    child.stdout.on('data', onData);
    child.on('exit', (code, signal) => resolve({ exit: { code, signal }, child, output: () => output }));
  });
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
  await exited;
  clearTimeout(timer);
}

async function healthz(port, when, started) {
  let status;
  try {
    status = (await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: 'close' } })).status;
  } catch (error) {
    status = error.cause ? error.cause.code : error.message;
  }
  assert.strictEqual(status, 200, `/healthz ${when}; the service said: ${started.output().slice(-2000)}`);
}

/** Sends two uploads side by side in 64 KiB chunks, asking /healthz between each pair of chunks; their answers. */
async function twoUploads(port, started, [first, second]) {
  const uploads = [first, second].map(({ query, body }) => openUpload(port, `POST /csv?${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: ${body.length}`));
  const longest = Math.max(first.body.length, second.body.length);
  for (let at = 0; at < longest; at += CHUNK_BYTES) {
    await Promise.all(uploads.map((upload, i) => upload.send([first, second][i].body.subarray(at, at + CHUNK_BYTES))));
    await healthz(port, `answered between the uploads' chunks (at byte ${at})`, started);
  }
  return Promise.all(uploads.map((upload) => upload.answer));
}

test('two uploads of empty lines in a 256 MB heap: refused past CSV_MAX_CELLS, /healthz answered throughout, the service lives on', async () => {
  const started = await startChild(CAPS);
  assert.ok(started.port, `the service started with caps that fit: ${started.output()}`);
  try {
    const lines = Buffer.alloc(Number(CAPS.CSV_MAX_BYTES), '\n');
    const answers = await twoUploads(started.port, started, [{ query: 'approach=sync', body: lines }, { query: 'approach=fast', body: lines }]);
    for (const answer of answers) {
      assert.strictEqual(answer.status, 413, `an upload of 1.5 million rows answered 413, not ${answer.status} (${answer.failure}); the service said: ${started.output().slice(-2000)}`);
      assert.deepStrictEqual(answer.body, { error: 'the CSV body has more than 16384 cells (counted as its commas and line breaks, plus one)', limitCells: 16384 });
    }
    // Uploads under both caps parse side by side, /healthz still answered between their chunks.
    const document = csvDocument({ seed: 3, rows: 1500, chunkChars: 1024 });
    const text = Buffer.from(document.chunks.join(''), 'utf8');
    const parsed = await twoUploads(started.port, started, [{ query: 'approach=sync', body: text }, { query: 'approach=async', body: text }]);
    for (const answer of parsed) {
      assert.strictEqual(answer.status, 200, JSON.stringify(answer.body));
      assert.strictEqual(answer.body.hash, document.rowsHash);
      assert.ok(answer.body.cells <= 16384 && answer.body.cells >= 1500, `cells ${answer.body.cells}`);
    }
    assert.strictEqual(started.child.exitCode, null, 'the service is still running');
  } finally {
    await stopChild(started.child);
  }
});

test('caps whose worst case does not fit half the heap are refused at start-up, naming the settings', async () => {
  // The defaults (two uploads of 8 MiB and 512 Ki cells) need a heap of about 1.8 GB: not 256 MB.
  const defaults = await startChild({});
  try {
    assert.ok(defaults.exit, `the service refused to start with the default caps in a 256 MB heap; it said: ${defaults.output()}`);
    assert.strictEqual(defaults.exit.code, 1);
    assert.match(defaults.output(), /CSV_MAX_UPLOADS=2 uploads of CSV_MAX_BYTES=8388608 bytes and CSV_MAX_CELLS=524288 cells may hold 2 × \d+ MiB, more than 50% of the heap limit \(\d+ MiB\)/);
  } finally {
    await stopChild(defaults.child);
  }
  // In the same process: a cap below 1, and too many uploads for this heap (named with how many fit).
  assert.throws(() => makeService({ upload: { maxCells: 0 } }), /^Error: CSV_MAX_CELLS must be a positive integer, not 0$/);
  assert.throws(() => makeService({ upload: { maxUploads: 1000 } }), /CSV_MAX_UPLOADS=1000 uploads .* at most \d+ such uploads fit; lower CSV_MAX_UPLOADS, CSV_MAX_BYTES or CSV_MAX_CELLS/);
});

test('POST /csv counts cells as its commas and line breaks plus one: at the cap a body parses, one past it is a 413', async () => {
  const server = await startService(makeService({ upload: { maxCells: 1000 } }));
  try {
    const post = (body) => fetch(`${server.url}/csv`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body });
    const atCap = await post(`${'a,b\n'.repeat(499)}a,b`); // 999 separators + 1
    const parsed = await atCap.json();
    assert.strictEqual(atCap.status, 200, JSON.stringify(parsed));
    assert.deepStrictEqual([parsed.rows, parsed.cells], [500, 1000]);
    const overCap = await post('a,b\n'.repeat(500)); // 1000 separators + 1
    assert.strictEqual(overCap.status, 413);
    assert.strictEqual((await overCap.json()).limitCells, 1000);
    // A quoted comma or line break counts too: the count is a bound, never short of the cells.
    const quoted = await post(`"${','.repeat(1000)}"`);
    assert.strictEqual(quoted.status, 413);
    assert.strictEqual((await post('a,b\n')).status, 200);
  } finally {
    await server.close();
  }
});
