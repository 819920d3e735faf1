'use strict';
// One document's way from make try to its first timed run, counted: make try's reading of the file
// (scripts/try-document.js), the real load driver (a child process on port 0) and two real node-async services in this
// process, each with its own store. Every process that needs the document checks its text once (make try, the driver,
// each service) and only a service parses it (once, for its reference); handing it again, and the hand-over a try run
// makes before its first scenario, cost a hash and nothing more. The counts are the processes' own
// (lab_document_checks_total, lab_document_parses_total), read from their /metrics; the document is a real one, the
// package.json the npm registry published for autocannon.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { startService, request, sumOf, until, tempDir } = require('@lab/test-kit');
const { put } = require('@lab/test-kit/document-uploads');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('@lab/load/test/driver-process');
const { ROOT } = require('@lab/lab-topology/manifests');
const { documentSettings } = require('@lab/node-kit/document-store');
const { readDocumentFile } = require('../try-document');

const DOCUMENT = path.join(ROOT, 'load', 'node_modules', 'autocannon', 'package.json');

/** {checks, parses} a process reports in its /metrics. */
async function workOf(url) {
  const text = (await request(`${url}/metrics`)).text;
  return { checks: sumOf(text, 'lab_document_checks_total', {}), parses: sumOf(text, 'lab_document_parses_total', {}) };
}

test("make try's document: one check in every process that needs it, one parse in each service, none again before the first run", { timeout: 300000 }, async (t) => {
  const ownWork = { checks: 0, parses: 0 };
  const document = await readDocumentFile(DOCUMENT, documentSettings((name, fallback) => fallback), ownWork);
  assert.strictEqual(document.kind, 'json');
  assert.deepStrictEqual(ownWork, { checks: 1, parses: 0 }, 'make try reads and checks the file once, and parses nothing');

  const services = {};
  for (const name of ['node-async', 'node-async-2']) {
    services[name] = await startService(makeService());
    t.after(services[name].close);
  }
  const driver = await startDriver({
    PORT: '0',
    HOST: '127.0.0.1',
    LOAD_SUITE: 'none',
    PROMETHEUS_URL: 'none',
    RESULTS_DIR: path.join(tempDir('try-document-work-'), 'results'),
    LOAD_TARGETS: Object.entries(services).map(([name, s]) => `${name}=${s.url}`).join(','),
  });
  t.after(() => stopDriver(driver));
  const all = async () => Object.fromEntries(await Promise.all([['driver', driver.url]].concat(Object.entries(services).map(([n, s]) => [n, s.url])).map(async ([n, url]) => [n, await workOf(url)])));
  const once = { driver: { checks: 1, parses: 0 }, 'node-async': { checks: 1, parses: 1 }, 'node-async-2': { checks: 1, parses: 1 } };

  const created = await put(driver.url, document.bytes);
  assert.strictEqual(created.status, 201, JSON.stringify(created.json));
  assert.ok(Object.values(created.json.services).every((s) => s.stored), JSON.stringify(created.json.services));
  assert.deepStrictEqual(await all(), once, 'handed to the driver, which hands it on');
  assert.strictEqual((await put(driver.url, document.bytes)).status, 200);
  assert.deepStrictEqual(await all(), once, 'the same document again: known by its sha256 everywhere');

  const started = await request(`${driver.url}/runs?suite=try&document=${created.json.sha256}&durationSeconds=1&blockMs=60000`, { method: 'POST' });
  assert.strictEqual(started.status, 202, started.text);
  await until('the first timed scenario started', 120000, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: status.currentScenario !== null || status.completed.length > 0 || !['waiting', 'running'].includes(status.state), why: status.state };
  });
  assert.deepStrictEqual(await all(), once, 'the hand-over before the first run cost a hash: no check, no parse');
  // The rest of the run is not this test's: stopped, and waited for, before the services close.
  await request(`${driver.url}/runs/stop`, { method: 'POST' });
  await until('the try run stopped', 120000, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), why: status.state };
  });
});
