'use strict';
// The driver's PUT /documents and the try suite, over real HTTP against the real driver (src/main.js on port 0) and
// real node-async services in this process: every bad upload gets the services' one answer and is kept nowhere; a
// good one is kept by its sha256 and handed to every target, each saying whether it stored it or why not; and
// POST /runs?suite=try runs it through every stringify and parse approach of the service that took it, validated,
// with the probe beside each, ending with the choice (an approach that failed listed, never picked) in /runs/latest,
// run.json and report.html. A CSV document is checked by the reference parser, handed only to the services whose
// /info takes CSV, and tried through every approach of their csv workload.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { startService, request, until, tempDir, freePort } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { badUploads, put, SETTINGS } = require('@lab/test-kit/document-uploads');
const { startDriver, stopDriver } = require('./driver-process');
const { NODE_DETAILS } = require('@lab/node-kit/document-findings');
const { serveOnPort0 } = require('./port0-server');

// yieldable-json's parse makes "__proto__" the prototype where native keeps an own key: that approach's answers are
// not validated, every other approach's are.
const DOCUMENT = '{"name": "lab", "versions": {"1.0.0": {"deps": {"a": "^1"}}}, "__proto__": {"x": 1}, "n": [1, -0, 1e-7]}';

/** A node-async service made with env set (its document caps), closed after the test. */
async function service(t, env) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const started = await startService(makeService());
    t.after(started.close);
    return started;
  } finally {
    for (const [k, v] of Object.entries(saved)) (v === undefined ? delete process.env[k] : (process.env[k] = v));
  }
}

async function driverWith(t, targets) {
  const dir = tempDir('load-documents-');
  const driver = await startDriver(Object.assign({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', PROMETHEUS_URL: 'none', RESULTS_DIR: path.join(dir, 'results'), LOAD_TARGETS: Object.entries(targets).map(([n, u]) => `${n}=${u}`).join(',') }, SETTINGS));
  t.after(() => stopDriver(driver));
  return driver;
}

test('every bad upload gets the one answer the services give, and nothing is kept or handed on', async (t) => {
  const svc = await service(t, {});
  const driver = await driverWith(t, { 'node-async': svc.url });
  for (const [name, send, status, detail] of badUploads(driver.url)) {
    const answer = await send();
    assert.strictEqual(answer.status, status, `${name}: ${JSON.stringify(answer.json)}`);
    assert.ok(typeof answer.json.error === 'string' && detail(answer.json), `${name}: ${JSON.stringify(answer.json)}`);
    assert.strictEqual((await request(`${driver.url}/healthz`)).status, 200, `/healthz after ${name}`);
  }
  assert.deepStrictEqual((await request(`${driver.url}/documents`)).json.documents, [], 'the driver kept nothing');
  assert.deepStrictEqual((await request(`${svc.url}/documents`)).json.documents, [], 'the service was handed nothing');
  assert.strictEqual((await request(`${driver.url}/documents`, { headers: { Host: 'evil.example' } })).status, 403, 'the list is not for other sites');
});

test('a document is kept by its sha256, handed to every target, and the try suite runs it through every approach', async (t) => {
  const takes = await service(t, {});
  const small = await service(t, { DOCUMENT_MAX_BYTES: '32' }); // refuses it: larger than its cap
  const driver = await driverWith(t, { 'node-async': takes.url, 'small-store': small.url, gone: `http://127.0.0.1:${await freePort()}` });
  const sha256 = crypto.createHash('sha256').update(DOCUMENT).digest('hex');

  const created = await put(driver.url, DOCUMENT);
  assert.strictEqual(created.status, 201, JSON.stringify(created.json));
  assert.strictEqual(created.json.sha256, sha256);
  assert.strictEqual(created.json.bytes, Buffer.byteLength(DOCUMENT));
  assert.strictEqual(created.json.run, `POST /runs?suite=try&document=${sha256}`);
  const { services } = created.json;
  // The service's findings, passed through: the -0 in "n", as Node treats it.
  const findings = [{ topic: 'negative-zero', path: '/n/1', count: 1, detail: NODE_DETAILS['negative-zero'] }];
  assert.deepStrictEqual(services['node-async'], { stored: true, status: 201, findings });
  assert.strictEqual(services['small-store'].stored, false);
  assert.strictEqual(services['small-store'].status, 413, JSON.stringify(services));
  assert.match(services['small-store'].error, /larger than 32 bytes/);
  assert.strictEqual(services.gone.stored, false);
  assert.match(services.gone.error, /ECONNREFUSED/);
  assert.deepStrictEqual((await request(`${takes.url}/documents`)).json.documents.map((d) => d.sha256), [sha256]);
  const again = await put(driver.url, DOCUMENT);
  assert.strictEqual(again.status, 200, 'the same document again: kept once');
  assert.deepStrictEqual((await request(`${driver.url}/documents`)).json.documents.map((d) => [d.sha256, d.bytes]), [[sha256, Buffer.byteLength(DOCUMENT)]]);

  // Refused before anything runs: no document, one the driver does not hold, a document for another suite.
  const post = (query) => request(`${driver.url}/runs?${query}`, { method: 'POST' });
  const noDocument = await post('suite=try');
  assert.strictEqual(noDocument.status, 400, noDocument.text);
  assert.strictEqual(noDocument.json.parameter, 'document');
  const unknown = await post(`suite=try&document=${'0'.repeat(64)}`);
  assert.strictEqual(unknown.status, 404, unknown.text);
  assert.deepStrictEqual(unknown.json.stored, [sha256]);
  assert.strictEqual((await post(`suite=smoke&document=${sha256}`)).status, 400);
  assert.strictEqual((await post(`suite=try&document=${sha256}&blockMs=-1`)).json.parameter, 'blockMs');
  assert.strictEqual((await post(`suite=try&document=${sha256}&rounds=11`)).json.parameter, 'rounds');
  assert.strictEqual((await post('suite=smoke&rounds=2')).json.parameter, 'rounds', 'rounds are a try run\'s');

  // Two rounds (the suite's 3 by default): enough to see them interleave and be compared, in half the time.
  const started = await post(`suite=try&document=${sha256}&durationSeconds=1&rounds=2&blockMs=60000`);
  assert.strictEqual(started.status, 202, started.text);
  const run = await until('the try run ended', 240000, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
  });

  // One scenario per approach of node-async's stringify and parse and round, on the document, validated, the probe
  // beside it: a workload's approaches once, then again, before the next workload.
  const info = (await request(`${takes.url}/info`)).json;
  const expected = ['stringify', 'parse'].flatMap((w) => ['', '-r2'].flatMap((round) => info.workloads[w].approaches.map((a) => `node-async-${w}-${a}${round}`)));
  assert.deepStrictEqual(run.completed.map((s) => s.name), expected);
  const scenarioFiles = fs.readdirSync(run.resultsDir).filter((f) => /^\d+-/.test(f));
  for (const file of scenarioFiles) {
    const { scenario } = JSON.parse(fs.readFileSync(path.join(run.resultsDir, file), 'utf8'));
    assert.strictEqual(scenario.expect, 'validated', file);
    assert.deepStrictEqual(scenario.probe, { path: '/healthz', ratePerSecond: 20 }, file);
    assert.match(scenario.path, new RegExp(`^/run/(stringify|parse)\\?approach=[a-z-]+&document=${sha256}&timeoutMs=\\d+$`), file);
  }
  for (const s of run.completed) {
    const failing = s.name.startsWith('node-async-parse-yieldable');
    assert.strictEqual(s.passed, !failing, `${s.name}: ${s.problems.join('; ')}`);
    assert.ok(failing || (s.runs > 0 && s.runMeanMs !== null && s.longestBlockMs !== null && s.probeP99Ms !== null), JSON.stringify(s));
  }
  assert.strictEqual(run.state, 'failed', 'a failed approach fails the run');
  assert.deepStrictEqual(run.try.handOff['node-async'], { stored: true, status: 200, findings }, 'handed again before the run: already stored');

  // The choice: a pick per workload among the approaches that passed, over both rounds; the failed one listed, never
  // picked; the pick compared with the others by their runs' times.
  assert.deepStrictEqual(run.choice.groups.map((g) => [g.target, g.workload, g.rounds]), [['node-async', 'stringify', 2], ['node-async', 'parse', 2]]);
  assert.strictEqual(run.choice.rounds, 2);
  assert.strictEqual(run.try.rounds, 2);
  for (const group of run.choice.groups) {
    const passed = group.rows.filter((r) => r.passed).map((r) => r.approach);
    assert.ok(passed.includes(group.pick), `${group.workload}: pick ${group.pick} of ${passed}`);
    assert.strictEqual(group.rows.length, info.workloads[group.workload].approaches.length);
    assert.ok(group.rows.every((r) => r.rounds.length === 2), JSON.stringify(group.rows.map((r) => r.rounds)));
    const others = group.rows.filter((r) => r.passed && r.approach !== group.pick).map((r) => r.approach);
    assert.deepStrictEqual(group.comparisons.map((c) => c.approach), others, 'every other passed approach against the pick');
    assert.ok(group.comparisons.every((c) => c.p >= 0 && c.p <= 1), JSON.stringify(group.comparisons));
  }
  const yieldable = run.choice.groups[1].rows.find((r) => r.approach === 'yieldable');
  assert.strictEqual(yieldable.passed, false);
  assert.match(yieldable.problems.join(), /not validated/);
  const saved = JSON.parse(fs.readFileSync(path.join(run.resultsDir, 'run.json'), 'utf8'));
  assert.deepStrictEqual(saved.choice, run.choice);
  assert.strictEqual(saved.try.document, sha256);
  assert.strictEqual(saved.try.blockMs, 60000);
  const html = fs.readFileSync(run.report, 'utf8');
  assert.match(html, /id="document-choice"/);
  // The -0 in the document is said as what node-async does with it, not as a failure.
  assert.match(html, /<li data-finding="negative-zero"><strong>negative-zero<\/strong> at <code>\/n\/1<\/code>/);
  assert.match(html, new RegExp(`data-pick="node-async/parse/${run.choice.groups[1].pick}"`));
  assert.match(html, /<h3 data-group="node-async\/parse" data-rounds="2"/);
});

test('targets narrows a try run to the services it names: the document is handed to them and only their approaches run', async (t) => {
  const one = await service(t, {});
  const other = await service(t, {});
  const driver = await driverWith(t, { 'node-async': one.url, 'other-async': other.url });
  const { sha256 } = (await put(driver.url, DOCUMENT)).json;
  const started = await request(`${driver.url}/runs?suite=try&document=${sha256}&targets=other-async&durationSeconds=1&rounds=1`, { method: 'POST' });
  assert.strictEqual(started.status, 202, started.text);
  // The plan is known once the run has left 'waiting'; what it ran so far is enough, and the rest is stopped.
  const run = await until('the try run planned', 60000, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: status.state !== 'waiting' && status.current !== null, value: status, why: status.state };
  });
  await request(`${driver.url}/runs/stop`, { method: 'POST' });
  const info = (await request(`${other.url}/info`)).json;
  assert.strictEqual(run.scenarios, info.workloads.stringify.approaches.length + info.workloads.parse.approaches.length, 'one service\'s approaches, not both');
  assert.deepStrictEqual(Object.keys(run.try.handOff), ['other-async'], 'handed to the named service only');
  assert.match(run.current, /^other-async-/);
});

test('a document is refused while a suite runs, since handing it over would disturb the measurement', async (t) => {
  const svc = await service(t, {});
  const driver = await driverWith(t, { 'node-async': svc.url });
  const sha256 = (await put(driver.url, DOCUMENT)).json.sha256;
  // Scenarios of two minutes: the run lasts until this test stops it.
  const started = await request(`${driver.url}/runs?suite=try&document=${sha256}&durationSeconds=120`, { method: 'POST' });
  assert.strictEqual(started.status, 202, started.text);
  const refused = await put(driver.url, '{"another": "document"}');
  assert.strictEqual(refused.status, 409, JSON.stringify(refused.json));
  assert.match(refused.json.error, /suite try is running.*POST \/runs\/stop/);
  assert.deepStrictEqual((await request(`${driver.url}/documents`)).json.documents.map((d) => d.sha256), [sha256], 'nothing more kept');
  assert.strictEqual((await request(`${driver.url}/runs/stop`, { method: 'POST' })).status, 200);
  await until('the run stopped', 120000, async () => {
    const { state } = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(state), why: state };
  });
  assert.strictEqual((await put(driver.url, '{"another": "document"}')).status, 201, 'taken once no suite runs');
});

/** A target whose /info keeps JSON documents only (as node14-fibers'), counting the PUTs it is sent. */
async function jsonOnlyTarget(t, documents) {
  const puts = [];
  const url = await serveOnPort0(t, (req, res) => {
    if (req.method === 'PUT') puts.push(req.headers['content-type']);
    res.writeHead(req.method === 'PUT' ? 415 : 200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(req.method === 'PUT' ? { error: 'no' } : { service: 'json-only', workloads: {}, documents }));
  });
  return { url, puts };
}

test('a CSV document is checked by the reference parser, handed only to services that take CSV, and tried through every csv approach', async (t) => {
  const svc = await service(t, {});
  const fibersLike = await jsonOnlyTarget(t, { maxCount: 8, kinds: ['json'] });
  const older = await jsonOnlyTarget(t, { maxCount: 8 }); // documents without kinds: JSON only
  const driver = await driverWith(t, { 'node-async': svc.url, 'json-only': fibersLike.url, older: older.url });
  const putCsv = (body) => put(driver.url, body, { 'Content-Type': 'text/csv' });

  const malformed = await putCsv('id,note\n1,"open\n');
  assert.strictEqual(malformed.status, 400, JSON.stringify(malformed.json));
  assert.strictEqual(malformed.json.row, 2);
  assert.strictEqual((await putCsv(Buffer.from('a\n\xe9\n', 'latin1'))).json.byteOffset, 2, 'not UTF-8');
  assert.deepStrictEqual((await request(`${driver.url}/documents`)).json.documents, [], 'nothing kept');

  const csv = 'id,city,note\n1,"Washington, D.C.","said ""hi"""\r\n2,Łódź,"two\nlines"\n3,東京,👍🏽\n';
  const created = await putCsv(csv);
  assert.strictEqual(created.status, 201, JSON.stringify(created.json));
  assert.strictEqual(created.json.kind, 'csv');
  assert.strictEqual(created.json.rows, 4);
  const { sha256, services } = created.json;
  assert.deepStrictEqual(services['node-async'], { stored: true, status: 201 });
  assert.deepStrictEqual(services['json-only'], { stored: false, error: 'it takes no CSV documents (its /info documents.kinds: json)' });
  assert.strictEqual(services.older.stored, false);
  assert.deepStrictEqual([fibersLike.puts, older.puts], [[], []], 'a service that takes no CSV is not sent it');
  assert.deepStrictEqual((await request(`${svc.url}/documents`)).json.documents.map((d) => [d.sha256, d.kind]), [[sha256, 'csv']]);

  const json = await put(driver.url, '{"a": 1}');
  assert.deepStrictEqual(json.json.services['json-only'], { stored: false, status: 415, error: 'no' }, 'a JSON document is sent to them');
  assert.deepStrictEqual(fibersLike.puts, ['application/json']);

  const started = await request(`${driver.url}/runs?suite=try&document=${sha256}&durationSeconds=1&rounds=1`, { method: 'POST' });
  assert.strictEqual(started.status, 202, started.text);
  const run = await until('the try run ended', 240000, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
  });
  const approaches = (await request(`${svc.url}/info`)).json.workloads.csv.approaches;
  assert.deepStrictEqual(run.completed.map((s) => s.name), approaches.map((a) => `node-async-csv-${a}`));
  for (const s of run.completed) assert.ok(s.passed && s.runs > 0 && s.longestBlockMs !== null, `${s.name}: ${s.problems.join('; ')}`);
  assert.strictEqual(run.try.kind, 'csv');
  assert.deepStrictEqual(run.choice.groups.map((g) => [g.target, g.workload, g.rows.length]), [['node-async', 'csv', approaches.length]]);
  assert.ok(approaches.includes(run.choice.groups[0].fastest), JSON.stringify(run.choice.groups[0]));
});
