'use strict';
// The async-char-streams experiment over HTTP: the csv workload validates for every approach, and POST /csv parses a
// streamed body, refusing what it must (unknown approach, malformed CSV, an oversized body, too many uploads at once)
// while it keeps serving.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const { startService } = require('@lab/test-kit');
const { makeService } = require('../src/service');
const { csvDocument } = require('@lab/csv-parsers/csv-document');
const { sendRaw } = require('@lab/test-kit/bad-requests');
const { openUpload } = require('./raw-upload');

const SMALL = { seed: 3, rows: 400, chunkChars: 1024 }; // a few chunks, so boundaries fall inside records

const postCsv = (url, body, query = '') => fetch(`${url}/csv${query}`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body });

async function withService(options, body) {
  const server = await startService(makeService(options));
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

test('GET /run/csv validates every approach against the generated rows', async () => {
  await withService({}, async (server) => {
    const info = await (await fetch(`${server.url}/info`)).json();
    const { approaches } = info.workloads.csv;
    assert.deepStrictEqual(approaches.slice(-2), ['csv-parse', 'fast']);
    assert.strictEqual(approaches.length, 10);
    for (const approach of approaches) {
      const result = await (await fetch(`${server.url}/run/csv?approach=${approach}&seed=3&rows=400&chunkChars=1024`)).json();
      assert.strictEqual(result.validated, true, approach);
      assert.strictEqual(result.rows, 400, approach);
      assert.strictEqual(result.reference, 'generated');
    }
    const refused = await fetch(`${server.url}/run/csv?rows=100001`);
    assert.strictEqual(refused.status, 400);
  });
});

test('POST /csv parses a streamed body into the generated rows, with any approach', async () => {
  await withService({}, async (server) => {
    const document = csvDocument(SMALL);
    for (const query of ['', '?approach=fast', '?approach=csv-parse', '?approach=memory', '?approach=async']) {
      const response = await postCsv(server.url, document.chunks.join(''), query);
      assert.strictEqual(response.status, 200, query);
      const answer = await response.json();
      assert.strictEqual(answer.rows, SMALL.rows, query);
      assert.strictEqual(answer.hash, document.rowsHash, query);
      assert.strictEqual(answer.bytes, document.bytes, query);
      assert.strictEqual(answer.approach, query ? query.split('=')[1] : 'fast');
    }
  });
});

test('POST /csv refuses an unknown approach and malformed CSV with 400, and keeps serving', async () => {
  await withService({}, async (server) => {
    const unknown = await postCsv(server.url, 'a,b\n', '?approach=split');
    assert.strictEqual(unknown.status, 400);
    assert.ok((await unknown.json()).allowed.includes('fast'));
    for (const text of ['a,"b\n', 'a,b"c\n', 'a,"b"c\n']) {
      const malformed = await postCsv(server.url, text);
      assert.strictEqual(malformed.status, 400, JSON.stringify(text));
      assert.match((await malformed.json()).error, /row 1/, JSON.stringify(text));
    }
    const ok = await postCsv(server.url, 'a,b\n1,2\n');
    assert.strictEqual((await ok.json()).rows, 2);
  });
});

test('POST /csv stops reading an oversized body with 413 and closes the connection', async () => {
  await withService({ upload: { maxBytes: 1000 } }, async (server) => {
    const response = await postCsv(server.url, 'a,b\n'.repeat(10000));
    assert.strictEqual(response.status, 413);
    assert.strictEqual(response.headers.get('connection'), 'close');
    assert.match((await response.json()).error, /larger than 1000 bytes/);
    // A length announced over the cap is refused before a byte is read, and the rest is never waited for.
    const announced = await sendRaw(Number(new URL(server.url).port), { method: 'POST', target: '/csv', body: 'a,b\n', declaredLength: 50 * 1024 * 1024 });
    assert.strictEqual(announced.status, 413);
    assert.strictEqual(announced.headers.connection, 'close');
    assert.strictEqual((await (await postCsv(server.url, 'a,b\n')).json()).rows, 1);
  });
});

test('POST /csv answers 503 past CSV_MAX_UPLOADS, and a departing client frees its place', async () => {
  await withService({ upload: { maxUploads: 1 } }, async (server) => {
    // An upload that sends its first packet and then waits: it holds the only place.
    const slow = http.request(`${server.url}/csv`, { method: 'POST', headers: { 'content-type': 'text/csv' } });
    slow.on('error', () => {}); // destroyed below on purpose
    slow.write('a,b\n');
    let busy;
    for (let i = 0; i < 3000 && !busy; i++) {
      const response = await postCsv(server.url, 'a,b\n');
      if (response.status === 503) busy = response;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(busy, 'a second upload was refused while the first was in progress');
    assert.strictEqual(busy.headers.get('retry-after'), '1');
    slow.destroy();
    let freed = false;
    for (let i = 0; i < 3000 && !freed; i++) {
      freed = (await postCsv(server.url, 'a,b\n')).status === 200;
      if (!freed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(freed, 'the departed upload gave its place back');
  });
});

test('POST /csv: uploads that announced a body and send nothing hold no place; a place is taken by the first bytes', async () => {
  await withService({ upload: { maxUploads: 2 } }, async (server) => {
    const port = Number(new URL(server.url).port);
    const head = 'POST /csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: 8\r\nExpect: 100-continue';
    // As many clients as places get their 100 Continue, then send nothing (until REQUEST_TIMEOUT_MS would cut them).
    const waiting = [openUpload(port, head), openUpload(port, head), openUpload(port, head)];
    try {
      for (const client of waiting) assert.match(await client.nextLine('HTTP/1.1 100'), /^HTTP\/1\.1 100 Continue$/);
      const answer = await postCsv(server.url, 'a,b\n1,2\n');
      assert.strictEqual(answer.status, 200, 'an upload that sends its body is parsed while the silent ones wait');
      // Those that finally send are parsed too, each taking a place only now.
      await Promise.all(waiting.slice(0, 2).map((client) => client.send('a,b\n1,2\n')));
      for (const client of waiting.slice(0, 2)) {
        const late = await client.answer;
        assert.deepStrictEqual([late.status, late.body.rows], [200, 2]);
      }
    } finally {
      for (const client of waiting) client.close();
    }
  });
});
