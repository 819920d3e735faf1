'use strict';
// PUT /documents on a Node service over real HTTP, registered with the service's own test runner (node:test, or the
// `test` package on Node 14) and Node line: a user's JSON document kept by its sha256, listed by GET /documents and
// its caps in /info; every bad upload refused with the contract's JSON (415, 413 before the body is read or as soon as
// it passes the cap, 400 naming where the text stops being UTF-8 or JSON or how deep it nests), other sites' pages
// kept out, and the service serving after each. Not a test file: each service's documents.test.js calls it, and the
// load driver's test sends the same bad uploads (badUploads) to the driver's PUT /documents.
const crypto = require('crypto');
const http = require('http');
const { startService, request } = require('./index');
const { NODE_DETAILS } = require('@lab/node-kit/document-findings');


// Small caps for the test, read by node-kit when the service is made.
const SETTINGS = { DOCUMENT_MAX_BYTES: '4096', DOCUMENTS_MAX_BYTES: '8192', DOCUMENTS_MAX_COUNT: '3', DOCUMENT_MAX_DEPTH: '50' };

/** The service made with SETTINGS and more (settings beside them), started; {url, close, server, service}. */
async function documentService(t, makeService, more = {}) {
  const saved = {};
  for (const [name, value] of Object.entries(Object.assign({}, SETTINGS, more))) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  try {
    // Awaited inside the try: a service made asynchronously (wasm-runner) reads the settings before they are restored.
    const service = await makeService();
    const server = await startService(service);
    t.after(server.close);
    return Object.assign(server, { service });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** PUT /documents with body (a string, or an array of chunks sent without a length) and headers. */
function put(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const chunks = Array.isArray(body) ? body : [body];
    const req = http.request(`${url}/documents`, { method: 'PUT', agent: false, headers: Object.assign({ 'Content-Type': 'application/json' }, Array.isArray(body) ? {} : { 'Content-Length': Buffer.byteLength(body) }, headers) }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(parts).toString('utf8')) }));
    });
    req.on('error', (err) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

// A document none of the lab's generators writes, inside what every approach agrees with native on
// (library-departures.js): pretty-printed, non-ASCII, -0, an integer past 2^53, empty containers, numeric keys.
const USER_DOCUMENT = `{
  "orders": [
    {"id": 9007199254740993, "total": -0, "lines": [], "note": "naïve ☃", "meta": {}},
    {"id": 2, "total": 1e-7, "tags": ["a", "b"], "10": "numeric key", "a": null}
  ],
  "deep": [[[[[[{"k": true}]]]]]]
}`;
// yieldable-json's parse makes "__proto__" the prototype, where native keeps an own key: a wrong answer on a
// user's document is reported as one (validated false), never timed as a result.
const PROTO_DOCUMENT = '{"a": 1, "__proto__": {"x": 1}}';

/**
 * Every bad upload with its one answer, for a server at url with SETTINGS' caps (4096 bytes, 50 levels):
 * [[what, send() -> {status, json}, status, detail(json) -> true when the answer names what it must]].
 */
function badUploads(url) {
  return [
    ['not sent as JSON', () => put(url, '{}', { 'Content-Type': 'text/plain' }), 415, (j) => j.accepted.includes('application/json')],
    ['compressed', () => put(url, '{}', { 'Content-Encoding': 'gzip' }), 415, (j) => j.accepted.contentEncoding.includes('identity')],
    ['declared over the cap', () => put(url, '{}', { 'Content-Length': '5000' }), 413, (j) => j.limitBytes === 4096],
    ['growing past the cap, no length declared', () => put(url, ['[', '1,'.repeat(3000), '1]']), 413, (j) => j.limitBytes === 4096],
    ['not JSON', () => put(url, '{\n  "a": 1,\n  "b": [1 2]\n}'), 400, (j) => j.line === 3 && j.column === 11 && j.excerpt.includes('[1 2]')],
    ['empty', () => put(url, ''), 400, (j) => j.line === 1 && j.column === 1],
    ['nested too deep', () => put(url, '['.repeat(51) + ']'.repeat(51)), 400, (j) => j.depth === 51 && j.maxDepth === 50],
    ['not UTF-8', () => put(url, Buffer.from([0x22, 0xff, 0x22])), 400, (j) => j.byteOffset === 1],
    ["another site's page", () => put(url, '{}', { Origin: 'http://evil.example' }), 403, (j) => Array.isArray(j.allowed)],
    ['a rebound DNS name', () => put(url, '{}', { Host: 'evil.example' }), 403, (j) => Array.isArray(j.allowed)],
  ];
}

/**
 * Every route of the service at url (its 404's `routes`, a workload put in for `:workload`) sent with headers:
 * [[route, answer]].
 */
async function everyRoute(url, headers) {
  const { routes } = (await request(`${url}/no-such-route`)).json;
  const workload = Object.keys((await request(`${url}/info`)).json.workloads)[0];
  const answers = [];
  for (const route of routes) {
    const [method, pattern] = route.split(' ');
    answers.push([route, await request(`${url}${pattern.replace(':workload', workload)}`, { method, headers })]);
  }
  return answers;
}

/** A stored document through every stringify and parse approach (the serialization services'). */
function serializationRunsSuite(test, assert, makeService) {
  test('every stringify and parse approach runs a stored document, validated against native, and holds it while it runs', async (t) => {
    const { url } = await documentService(t, makeService);
    const { sha256 } = (await put(url, USER_DOCUMENT)).json;
    const info = (await request(`${url}/info`)).json;
    for (const workload of ['stringify', 'parse']) {
      for (const approach of info.workloads[workload].approaches) {
        const answer = await request(`${url}/run/${workload}?approach=${approach}&document=${sha256}`);
        assert.strictEqual(answer.status, 200, `${workload} ${approach}: ${answer.text}`);
        assert.strictEqual(answer.json.validated, true, `${workload} ${approach}: ${answer.text}`);
        assert.strictEqual(answer.json.case, 'document', `${workload} ${approach}`);
      }
    }
    const proto = (await put(url, PROTO_DOCUMENT)).json.sha256;
    const wrong = await request(`${url}/run/parse?approach=yieldable&document=${proto}`);
    assert.strictEqual(wrong.status, 200, wrong.text);
    assert.strictEqual(wrong.json.validated, false, 'a departure from native is a failed run');
    assert.strictEqual((await request(`${url}/run/parse?approach=native&document=${proto}`)).json.validated, true);
    const unknown = await request(`${url}/run/stringify?document=${'0'.repeat(64)}`);
    assert.strictEqual(unknown.status, 404, unknown.text);
    assert.match(unknown.json.error, /PUT \/documents/);
    const malformed = await request(`${url}/run/parse?document=ABC`);
    assert.strictEqual(malformed.status, 400, malformed.text);
    assert.strictEqual(malformed.json.parameter, 'document');
    assert.deepStrictEqual((await request(`${url}/documents`)).json.documents.map((d) => d.inUse), [false, false], 'released after the runs');
  });

  test('a stored document is never sent back: body=1 on it is refused', async (t) => {
    const { url } = await documentService(t, makeService);
    const { sha256 } = (await put(url, USER_DOCUMENT)).json;
    const streamed = await request(`${url}/run/stringify?approach=native&document=${sha256}&body=1`);
    assert.strictEqual(streamed.status, 400, streamed.text);
    assert.deepStrictEqual([streamed.json.parameter, streamed.json.allowed], ['body', [0]]);
    assert.ok(!streamed.text.includes('orders'), 'nothing of the document in the refusal');
    assert.strictEqual((await request(`${url}/run/stringify?approach=native&size=10&body=1`)).status, 200, 'a generated document still streams');
  });
}

/**
 * Runs on a stored document are admitted by the memory they will hold (node-kit/document-memory.js; issue 57: four
 * parses of a 64 MiB `[{},…]` took node14-fibers down with every stored document): a document whose value could not
 * fit is refused at upload with 413, a run while others hold the budget gets 503 with Retry-After, and the cached value
 * of the document stringified last gives way to a run that needs its room. Nothing here depends on timing: the test
 * holds the budget itself, as runs in flight would.
 */
function memorySuite(test, assert, makeService) {
  const objects = `[${'{},'.repeat(1300)}{}]`; // 1 301 objects: about 90 KB of heap as the model prices it

  test("a run is admitted by the memory it will hold: 503 while the budget is held, 413 for a value that never fits", async (t) => {
    const small = await documentService(t, makeService, { DOCUMENT_MEMORY_BYTES: '50000' });
    const refused = await put(small.url, objects);
    assert.strictEqual(refused.status, 413, JSON.stringify(refused.json));
    assert.strictEqual(refused.json.nodes, 1302);
    assert.ok(refused.json.limitNodes > 0 && refused.json.limitNodes < 1302, JSON.stringify(refused.json));
    assert.deepStrictEqual((await request(`${small.url}/documents`)).json.documents, [], 'nothing was kept');

    const { url, service } = await documentService(t, makeService, { DOCUMENT_MEMORY_BYTES: '300000' });
    const memory = service.documents.memory;
    const { sha256 } = (await put(url, objects)).json;
    const held = memory.reserve(250000, 'what the test holds, as runs in flight would');
    for (const workload of ['parse', 'stringify']) {
      const busy = await request(`${url}/run/${workload}?approach=native&document=${sha256}`);
      assert.strictEqual(busy.status, 503, busy.text);
      assert.ok(busy.headers['retry-after'], 'says when to come back');
      assert.strictEqual(busy.json.limitBytes, 300000);
    }
    held();
    assert.strictEqual(memory.reservedBytes(), 0, 'the refused runs hold nothing');
    const stringified = await request(`${url}/run/stringify?approach=native&document=${sha256}`);
    assert.strictEqual(stringified.json.validated, true, stringified.text);
    assert.ok(memory.reservedBytes() > 0, 'the value stringified last is kept, and counted');
    const room = memory.reserve(250000, 'a run that needs the cached value gone');
    assert.strictEqual(memory.reservedBytes(), 250000, 'the cached value gave way');
    room();
    assert.strictEqual((await request(`${url}/run/parse?approach=native&document=${sha256}`)).json.validated, true);
    assert.strictEqual(memory.reservedBytes(), 0, 'every run released what it held');
  });
}

/**
 * yieldable-json's parse, which no timeoutMs stops, bounded (issue 57): its runs take turns, since it keeps its place
 * in a global and two at once break each other ("Bad array"), and a document whose escapes it would take minutes over
 * (it rebuilds a string at each) is refused for it, naming the approaches that can.
 */
function yieldableSuite(test, assert, makeService) {
  test('yieldable parse: runs at once all validate, taking turns; a document of many escapes is refused for it alone', async (t) => {
    const { url } = await documentService(t, makeService, { DOCUMENT_MAX_BYTES: '200000', DOCUMENTS_MAX_BYTES: '400000' });
    const records = JSON.stringify(Array.from({ length: 140 }, (_, i) => ({ id: i, name: `n${i}"q"` })));
    const { sha256 } = (await put(url, records)).json;
    const together = await Promise.all([1, 2, 3].map(() => request(`${url}/run/parse?approach=yieldable&document=${sha256}`)));
    for (const answer of together) assert.deepStrictEqual([answer.status, answer.json.validated], [200, true], answer.text);

    const escaped = JSON.stringify(['\n'.repeat(64000)]); // 64 000 escapes in a string of 128 000 characters
    const many = (await put(url, escaped)).json.sha256;
    const refused = await request(`${url}/run/parse?approach=yieldable&document=${many}`);
    assert.strictEqual(refused.status, 400, refused.text.slice(0, 300));
    assert.strictEqual(refused.json.parameter, 'approach');
    assert.ok(refused.json.allowed.includes('native') && !refused.json.allowed.includes('yieldable'), refused.text);
    assert.match(refused.json.error, /rebuilds a string at each of its escapes/);
    assert.strictEqual((await request(`${url}/run/parse?approach=native&document=${many}`)).json.validated, true);
  });
}

/**
 * A rebound DNS name reaches no route but /healthz and /metrics, whatever the route (a run naming a document the
 * service lacks listed every stored sha256, and body=1 sent a document back, through a rebound name: issue 57); and
 * another site's page cannot make the browser start anything, not even with a GET it cannot read.
 */
function sameSiteSuite(test, assert, makeService) {
  test('a rebound name reaches no route but /healthz and /metrics, and no route answers it with a stored document', async (t) => {
    const { url } = await documentService(t, makeService);
    const { sha256 } = (await put(url, USER_DOCUMENT)).json;
    const answers = await everyRoute(url, { Host: 'rebound.example' });
    assert.ok(answers.length >= 6, answers.map(([route]) => route).join(', '));
    for (const [route, answer] of answers) {
      if (route === 'GET /healthz' || route === 'GET /metrics') {
        assert.strictEqual(answer.status, 200, `${route}: scrapers and health checks use names the service cannot know`);
      } else {
        assert.strictEqual(answer.status, 403, `${route}: ${answer.text.slice(0, 200)}`);
        assert.ok(Array.isArray(answer.json.allowed), route);
      }
    }
    const workloads = Object.keys((await request(`${url}/info`)).json.workloads);
    const runs = workloads.flatMap((w) => [`/run/${w}?document=${'f'.repeat(64)}`, `/run/${w}?document=${sha256}&body=1`]);
    for (const target of runs.concat('/info?bogus=1')) {
      const answer = await request(`${url}${target}`, { headers: { Host: 'rebound.example:80' } });
      assert.strictEqual(answer.status, 403, `${target}: ${answer.text.slice(0, 200)}`);
      assert.ok(!answer.text.includes(sha256) && !answer.text.includes('orders'), `${target}: nothing stored in the refusal`);
    }
    assert.strictEqual((await request(`${url}/no-such-route`, { headers: { Host: 'rebound.example' } })).status, 404, 'an unknown path is a 404 before the Host is read');
    assert.strictEqual((await request(`${url}/info`, { headers: { Host: 'localhost' } })).status, 200, 'its own names pass');
  });

  test("another site's page cannot start a run with a GET it cannot read; a link the user follows still opens", async (t) => {
    const { url } = await documentService(t, makeService);
    const blind = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' };
    for (const [route, answer] of await everyRoute(url, blind)) {
      assert.strictEqual(answer.status, route === 'GET /healthz' || route === 'GET /metrics' ? 200 : 403, `${route}: ${answer.text.slice(0, 200)}`);
    }
    const followed = await request(`${url}/info`, { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' } });
    assert.strictEqual(followed.status, 200, followed.text);
    for (const site of ['same-site', 'same-origin', 'none']) assert.strictEqual((await request(`${url}/info`, { headers: { 'Sec-Fetch-Site': site } })).status, 200, site);
  });
}

/**
 * Registers the checks; makeService() makes the service with its own express and prom-client. runtime: findingDetails
 * (what the service says it does with each finding; Node's by default), serialization (false for a service without
 * the stringify and parse workloads, whose own tests run its workloads on a document).
 */
function documentUploadSuite(test, assert, makeService, { findingDetails = NODE_DETAILS, serialization = true } = {}) {
  if (serialization) {
    serializationRunsSuite(test, assert, makeService);
    memorySuite(test, assert, makeService);
    yieldableSuite(test, assert, makeService);
  }
  sameSiteSuite(test, assert, makeService);

  test('a JSON document is kept by its sha256, listed, and its caps are in /info', async (t) => {
    const { url } = await documentService(t, makeService);
    const text = '{"orders": [{"id": 1, "total": 9.5, "note": "naïve ☃"}, {"id": 2, "total": -0, "tags": []}]}';
    const sha256 = crypto.createHash('sha256').update(text).digest('hex');
    const created = await put(url, text);
    assert.strictEqual(created.status, 201);
    const findings = [{ topic: 'negative-zero', path: '/orders/1/total', count: 1, detail: findingDetails['negative-zero'] }];
    assert.deepStrictEqual(created.json, { sha256, kind: 'json', bytes: Buffer.byteLength(text), depth: 4, findings, run: `document=${sha256}` });
    assert.strictEqual((await put(url, text)).status, 200, 'the same document again: kept once');
    const listed = (await request(`${url}/documents`)).json;
    assert.deepStrictEqual(listed.documents, [{ sha256, kind: 'json', bytes: Buffer.byteLength(text), inUse: false }]);
    assert.deepStrictEqual((await put(url, '{"a": [1, "-0"]}')).json.findings, [], 'no findings: an empty list');
    const documents = (await request(`${url}/info`)).json.documents;
    assert.ok(documents.kinds[0] === 'json' && documents.kinds.every((k) => ['json', 'csv'].includes(k)), JSON.stringify(documents.kinds));
    assert.deepStrictEqual(documents, { maxCount: 3, maxBytes: 8192, maxDocumentBytes: 4096, maxDepth: 50, kinds: documents.kinds, memoryBytes: documents.memoryBytes, maxNodes: documents.maxNodes });
    assert.ok(Number.isSafeInteger(documents.memoryBytes) && Number.isSafeInteger(documents.maxNodes) && documents.maxNodes > 0 && documents.maxNodes < documents.memoryBytes, JSON.stringify(documents));
  });

  test('a CSV document is stored where the service runs CSV (its /info documents.kinds), else refused with 415', async (t) => {
    const { url } = await documentService(t, makeService);
    const { kinds } = (await request(`${url}/info`)).json.documents;
    const answer = await put(url, 'id,name\n1,"Zoë, Jr."\n', { 'Content-Type': 'text/csv; charset=utf-8' });
    if (kinds.includes('csv')) {
      assert.strictEqual(answer.status, 201, JSON.stringify(answer.json));
      assert.strictEqual(answer.json.kind, 'csv');
      assert.strictEqual(answer.json.rows, 2);
    } else {
      assert.strictEqual(answer.status, 415, JSON.stringify(answer.json));
      assert.deepStrictEqual(answer.json.accepted, ['application/json']);
      assert.match(answer.json.error, /no CSV/);
      assert.deepStrictEqual((await request(`${url}/documents`)).json.documents, [], 'nothing was kept');
    }
  });

  test('bad uploads get a clear refusal, the store is unchanged and the service keeps serving', async (t) => {
    const { url } = await documentService(t, makeService);
    for (const [name, send, status, detail] of badUploads(url)) {
      const answer = await send();
      assert.strictEqual(answer.status, status, `${name}: ${JSON.stringify(answer.json)}`);
      assert.ok(typeof answer.json.error === 'string' && detail(answer.json), `${name}: ${JSON.stringify(answer.json)}`);
      assert.strictEqual((await request(`${url}/healthz`)).status, 200, `/healthz after ${name}`);
    }
    assert.deepStrictEqual((await request(`${url}/documents`)).json.documents, [], 'nothing was kept');
    assert.strictEqual((await request(`${url}/documents`, { headers: { Host: 'evil.example' } })).status, 403, 'the list is not for other sites');
    const deepest = await put(url, '['.repeat(50) + ']'.repeat(50));
    assert.strictEqual(deepest.status, 201, 'exactly the depth cap is taken');
  });
}

module.exports = { documentUploadSuite, badUploads, put, SETTINGS, USER_DOCUMENT };
