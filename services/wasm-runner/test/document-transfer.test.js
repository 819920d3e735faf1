'use strict';
// /run/transfer on a user's document (PUT /documents), over HTTP on port 0: every JSON value through every approach
// and op, validated against native JSON.stringify and the C++ tree taken when it was stored; what an approach
// cannot carry refused with the value's JSON pointer; runs that name no document, or one not a sha256, refused; a
// document a run uses never dropped for another.
const http = require('node:http');
const test = require('node:test');
const assert = require('node:assert');
const { startService, request, until } = require('@lab/test-kit');
const { put } = require('@lab/test-kit/document-uploads');
const { createWasmRunner } = require('../lib/server');

const APPROACHES = ['json', 'embind', 'msgpack', 'msgpackr', 'typed', 'worker'];
const OPS = ['roundtrip', 'count', 'create'];

// Every kind of JSON value, and every finding but a lone surrogate (its own test): null, booleans, negative and
// large integers (past 2^53 and past 2^64), doubles that round-trip exactly, non-ASCII and astral strings, escapes,
// empty and deep containers, a duplicate key, -0, numbers not in their shortest form.
const deep = (depth) => '['.repeat(depth) + '{"bottom": true}' + ']'.repeat(depth);
const EVERY_VALUE = `{
  "null": null, "yes": true, "no": false,
  "integers": [0, -1, 2147483647, -2147483648, 4294967296, 9007199254740991, -9007199254740991],
  "large": [9007199254740993, -12345678901234567890, 123456789012345678901234567890],
  "doubles": [0.1, -2.5, 0.3333333333333333, 1.5e+300, -1e-300, 5e-324, 1.7976931348623157e+308, 2.220446049250313e-16],
  "strings": ["", "ascii", "grüße 日本 Ελληνικά", "🎉𝄞😀", "\\u00e9\\ud83d\\ude00", "quote \\" backslash \\\\ tab \\t nul \\u0000"],
  "empty": {"object": {}, "array": [], "string": ""},
  "deep": ${deep(400)},
  "dup": 1, "dup": "last",
  "zero": -0, "formats": [1.0, 1e2, 1E+21, 2.50],
  "🔑 astral key": [[], {}]
}`;

async function server(t) {
  const s = await startService(await createWasmRunner());
  t.after(s.close);
  return s;
}

const run = (url, query) => request(`${url}/run/transfer?${query}`);

test('every JSON value crosses every approach in every op, validated, with one C++ tree for all', async (t) => {
  const { url } = await server(t);
  const stored = await put(url, EVERY_VALUE);
  assert.strictEqual(stored.status, 201, JSON.stringify(stored.json));
  assert.deepStrictEqual(stored.json.findings.map((f) => [f.topic, f.path]), [
    ['large-integer', '/large/0'], ['negative-zero', '/zero'], ['duplicate-key', '/dup'], ['number-format', '/formats/0'],
  ]);
  const trees = new Set();
  for (const approach of APPROACHES) {
    for (const op of OPS) {
      const answer = await run(url, `approach=${approach}&op=${op}&document=${stored.json.sha256}&iterations=2`);
      assert.strictEqual(answer.status, 200, answer.text);
      assert.strictEqual(answer.json.validated, true, `${approach} ${op}: ${answer.text}`);
      assert.strictEqual(answer.json.case, op === 'roundtrip' ? 'document' : `${op}:document`);
      assert.strictEqual(answer.json.reference, op === 'count' ? 'node-count' : 'native');
      trees.add(answer.json.treeHash);
    }
  }
  assert.strictEqual(trees.size, 1, [...trees].join(', '));
  assert.deepStrictEqual((await request(`${url}/documents`)).json.documents.map((d) => d.inUse), [false], 'released after the runs');
  const metrics = (await request(`${url}/metrics`)).text;
  assert.match(metrics, /lab_transfer_op_seconds_count\{family="document",case="document",approach="typed",op="create"\} 2/);
});

test('a lone surrogate is refused by every approach, a __proto__ key by the MessagePack ones, Infinity by all but json and worker, each naming its path', async (t) => {
  const { url } = await server(t);
  const lone = (await put(url, '{"ok": "fine", "names": ["x", "a\\ud800b"]}')).json;
  assert.deepStrictEqual(lone.findings.map((f) => [f.topic, f.path]), [['lone-surrogate', '/names/1']]);
  for (const approach of APPROACHES) {
    const answer = await run(url, `approach=${approach}&document=${lone.sha256}`);
    assert.strictEqual(answer.status, 400, `${approach}: ${answer.text}`);
    assert.deepStrictEqual([answer.json.parameter, answer.json.path, answer.json.allowed], ['approach', '/names/1', []], approach);
    assert.match(answer.json.error, new RegExp(`^${approach} cannot carry this document: a lone surrogate .* at /names/1; no approach can$`));
  }
  const proto = (await put(url, '{"a": [{"__proto__": {"x": 1}}]}')).json;
  for (const approach of APPROACHES) {
    const answer = await run(url, `approach=${approach}&op=roundtrip&document=${proto.sha256}&iterations=1`);
    if (approach.startsWith('msgpack')) {
      assert.strictEqual(answer.status, 400, `${approach}: ${answer.text}`);
      assert.deepStrictEqual([answer.json.path, answer.json.allowed], ['/a/0/__proto__', ['json', 'embind', 'typed', 'worker']], approach);
      assert.match(answer.json.error, /the key __proto__/);
    } else {
      assert.strictEqual(answer.json.validated, true, `${approach}: ${answer.text}`);
    }
  }
  // Past the double range: Infinity to JSON.parse, which json and worker (JSON text in) carry as the null
  // JSON.stringify writes, as native does.
  const huge = (await put(url, '{"n": [1, 1e400]}')).json;
  assert.deepStrictEqual(huge.findings.map((f) => [f.topic, f.path]), [['number-format', '/n/1']]);
  for (const approach of APPROACHES) {
    const answer = await run(url, `approach=${approach}&document=${huge.sha256}&iterations=1`);
    if (approach === 'json' || approach === 'worker') {
      assert.strictEqual(answer.json.validated, true, answer.text);
    } else {
      assert.strictEqual(answer.status, 400, `${approach}: ${answer.text}`);
      assert.deepStrictEqual([answer.json.path, answer.json.allowed], ['/n/1', ['json', 'worker']], approach);
      assert.match(answer.json.error, /a number past the double range/);
    }
  }
  assert.deepStrictEqual((await request(`${url}/documents`)).json.documents.map((d) => d.inUse), [false, false, false], 'a refused run holds nothing');
});

test('a run naming a document not stored, or not a sha256, is refused with what is allowed', async (t) => {
  const { url } = await server(t);
  const missing = await run(url, `document=${'0'.repeat(64)}`);
  assert.strictEqual(missing.status, 404, missing.text);
  assert.deepStrictEqual([missing.json.parameter, missing.json.stored], ['document', []]);
  assert.match(missing.json.error, /PUT \/documents/);
  const malformed = await run(url, 'document=ABC');
  assert.strictEqual(malformed.status, 400, malformed.text);
  assert.deepStrictEqual([malformed.json.parameter, malformed.json.allowed], ['document', { pattern: '[0-9a-f]{64}' }]);
});

test('a document a run is using is never dropped: a new one gets 503 with Retry-After until that run ends', async (t) => {
  const saved = process.env.DOCUMENTS_MAX_COUNT;
  process.env.DOCUMENTS_MAX_COUNT = '1'; // read when the service is made
  let service;
  try {
    service = await createWasmRunner();
  } finally {
    if (saved === undefined) delete process.env.DOCUMENTS_MAX_COUNT;
    else process.env.DOCUMENTS_MAX_COUNT = saved;
  }
  const { url, close } = await startService(service);
  t.after(close);
  const held = (await put(url, JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ i, s: `v${i}` }))))).json.sha256;
  // A run far longer than the test (10000 embind round trips of 40 000 values), stopped by its client going away.
  const client = http.request(`${url}/run/transfer?approach=embind&document=${held}&iterations=10000`, { agent: false });
  client.on('error', () => {}); // the hang-up this test causes
  client.end();
  const inUse = async (expected) => {
    const documents = (await request(`${url}/documents`)).json.documents;
    return { done: documents.length === 1 && documents[0].inUse === expected, why: JSON.stringify(documents) };
  };
  await until('the run holds its document', 60000, () => inUse(true));
  const refused = await fetch(`${url}/documents`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"b": 1}' });
  assert.strictEqual(refused.status, 503);
  assert.ok(Number(refused.headers.get('retry-after')) > 0, refused.headers.get('retry-after'));
  assert.match((await refused.json()).error, /in use by runs/);
  client.destroy();
  await until('the interrupted run released its document', 60000, () => inUse(false));
  const stored = await put(url, '{"b": 1}');
  assert.strictEqual(stored.status, 201, JSON.stringify(stored.json));
  assert.deepStrictEqual((await request(`${url}/documents`)).json.documents.map((d) => d.sha256), [stored.json.sha256]);
});
