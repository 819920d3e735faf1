'use strict';
// A user's CSV document on node-async: PUT /documents with Content-Type: text/csv keeps it with the reference
// parser's rows hash (csv-parsers/user-document.js), every approach of the csv workload runs it (document=<sha256>)
// validated against that hash, and what is not a CSV document the csv workload can run is refused clearly.
const test = require('node:test');
const assert = require('node:assert');
const { startService, request } = require('@lab/test-kit');
const { put } = require('@lab/test-kit/document-uploads');
const { makeService } = require('../src/service');
const { csvDocument } = require('@lab/csv-parsers/csv-document');

// Generated rows as a user would send them: quoted fields, `""`, quoted line breaks, non-ASCII and astral characters.
// Their hash comes from the generated rows, never from a parser, so the reference computed at upload is checked too.
const GENERATED = csvDocument({ seed: 5, rows: 300, chunkChars: 1024 });
const CSV_TEXT = GENERATED.chunks.join('');
const putCsv = (url, body, headers = {}) => put(url, body, Object.assign({ 'Content-Type': 'text/csv' }, headers));

async function csvService(t, options = {}) {
  const server = await startService(makeService(options));
  t.after(server.close);
  return server;
}

test('a CSV document is stored with its reference rows hash, and every csv approach runs it, validated', async (t) => {
  const { url } = await csvService(t);
  assert.deepStrictEqual((await request(`${url}/info`)).json.documents.kinds, ['json', 'csv']);
  const created = await putCsv(url, CSV_TEXT);
  assert.strictEqual(created.status, 201, JSON.stringify(created.json));
  assert.strictEqual(created.json.kind, 'csv');
  assert.strictEqual(created.json.rows, GENERATED.rows);
  const { sha256 } = created.json;
  assert.strictEqual((await putCsv(url, CSV_TEXT)).status, 200, 'the same document again: kept once');
  const approaches = (await request(`${url}/info`)).json.workloads.csv.approaches;
  assert.strictEqual(approaches.length, 10, approaches.join(', '));
  for (const approach of approaches) {
    const answer = await request(`${url}/run/csv?approach=${approach}&document=${sha256}&chunkChars=1024`);
    assert.strictEqual(answer.status, 200, `${approach}: ${answer.text}`);
    assert.strictEqual(answer.json.validated, true, `${approach}: ${answer.text}`);
    assert.strictEqual(answer.json.hash, GENERATED.rowsHash, `${approach}: the rows as generated`);
    assert.strictEqual(answer.json.rows, GENERATED.rows, approach);
    assert.strictEqual(answer.json.bytes, GENERATED.bytes, approach);
    assert.strictEqual(answer.json.case, 'document', approach);
    assert.strictEqual(answer.json.reference, 'memory', approach);
  }
  assert.deepStrictEqual((await request(`${url}/documents`)).json.documents, [{ sha256, kind: 'csv', bytes: GENERATED.bytes, inUse: false }], 'released after the runs');
});

test('a CSV document runs only as csv, a JSON one never as csv, an unknown one is a 404', async (t) => {
  const { url } = await csvService(t);
  const csv = (await putCsv(url, 'a,b\n1,2\n')).json.sha256;
  const json = (await put(url, '{"a": [1, 2]}')).json.sha256;
  const asJson = await request(`${url}/run/stringify?document=${csv}`);
  assert.strictEqual(asJson.status, 400, asJson.text);
  assert.match(asJson.json.error, /CSV, not JSON/);
  const asCsv = await request(`${url}/run/csv?document=${json}`);
  assert.strictEqual(asCsv.status, 400, asCsv.text);
  assert.match(asCsv.json.error, /JSON, not CSV/);
  assert.strictEqual((await request(`${url}/run/csv?document=${'0'.repeat(64)}`)).status, 404);
  assert.ok((await request(`${url}/documents`)).json.documents.every((d) => !d.inUse), 'a refused run holds nothing');
});

test('a CSV document that is not UTF-8, not CSV, empty or over the cells cap is refused, and nothing is kept', async (t) => {
  const { url } = await csvService(t, { upload: { maxCells: 64 } });
  const cases = [
    ['not UTF-8', Buffer.from('a,b\n1,\xff\n', 'latin1'), 400, (j) => j.byteOffset === 6],
    ['an open quote', 'a,b\n1,2\n3,"open\n', 400, (j) => j.row === 3 && /not CSV/.test(j.error)],
    ['a quote inside an unquoted field', 'a,b\nx"y,2\n', 400, (j) => j.row === 2],
    ['empty', '', 400, (j) => /empty/.test(j.error)],
    ['more cells than CSV_MAX_CELLS', 'a,b\n'.repeat(40), 413, (j) => j.limitCells === 64],
  ];
  for (const [name, body, status, detail] of cases) {
    const answer = await putCsv(url, body);
    assert.strictEqual(answer.status, status, `${name}: ${JSON.stringify(answer.json)}`);
    assert.ok(typeof answer.json.error === 'string' && detail(answer.json), `${name}: ${JSON.stringify(answer.json)}`);
  }
  assert.deepStrictEqual((await request(`${url}/documents`)).json.documents, [], 'nothing was kept');
  assert.strictEqual((await request(`${url}/healthz`)).status, 200);
});
