'use strict';
// The live page's routes over real HTTP, on the real driver (src/main.js, port 0) running a real suite against a real
// node-async, read through a real Prometheus scraping both: the page and its files, the run's state, the series
// (lag, probe and scenario latency, scenario spans), the ranking of ended scenarios, the runs with their reports and a
// comparison; then every bad parameter and every way out of the results folder (../, %2e%2e, %2F in a segment,
// absolute paths, links to outside), the same-site guard, Prometheus gone (a clear 502, the page saying so in
// Chromium, the driver serving on; its start and stop buttons still work) and PROMETHEUS_URL=none (503). Counts and contents, no durations.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startService, request, until } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('./driver-process');
const { startPrometheus, findPrometheus, freePort } = require('@lab/test-kit/prometheus-process');
const { findChromium, launchBrowser, checkReportInBrowser, BROWSER_TIMEOUT_MS } = require('./report-browser');
const { sendRaw } = require('@lab/test-kit/bad-requests');
const { pathOf } = require('../src/scenario/run-request');

const SCENARIO = 'live-stringify';

function waitForEnd(url) {
  return until('the suite ended', 120000, async () => {
    const status = (await request(`${url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
  });
}

const refusal = (answer, status, what) => {
  assert.strictEqual(answer.status, status, `${what}: ${answer.text}`);
  assert.match(answer.headers['content-type'], /application\/json/, what);
  assert.strictEqual(typeof answer.json.error, 'string', what);
};

/* global document, window -- the page's, in functions puppeteer runs there */
test('the live page: its routes over a real run and a real Prometheus, bad requests, no way out of the results folder', { skip: findPrometheus() ? false : 'no prometheus binary (make setup installs it)' }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-live-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const resultsDir = path.join(dir, 'results');
  const outside = path.join(dir, 'outside'); // what no request may read
  fs.mkdirSync(path.join(dir, 'suites'));
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.json'), '{"secret": "outside the results folder"}');
  const service = await startService(makeService());
  t.after(() => service.close());
  const scenario = { name: SCENARIO, target: 'node-async', run: { workload: 'stringify', approach: 'async', params: { size: 200 } }, connections: 2, durationSeconds: 3, maxRequests: 100000, expect: 'validated', probe: { path: '/healthz', ratePerSecond: 20 } };
  fs.writeFileSync(path.join(dir, 'suites', 'live.json'), JSON.stringify({ description: 'the live page test', scenarios: [scenario] }));
  // Prometheus' port is chosen before the driver starts (it must know where to ask); the driver's, after.
  let prometheus = null;
  let driver = null;
  t.after(async () => {
    if (driver) await stopDriver(driver);
    if (prometheus) await prometheus.stop();
  });
  const promPort = await freePort();
  const promUrl = `http://127.0.0.1:${promPort}`;
  driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `node-async=${service.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'), RESULTS_DIR: resultsDir, PROMETHEUS_URL: promUrl });
  prometheus = await startPrometheus({ 'node-async': new URL(service.url).host, load: `127.0.0.1:${driver.port}` }, promPort);
  // Prometheus hands new targets to its scrapers some seconds after it is ready: the run starts once both are scraped.
  await until('both jobs scraped', 120000, async () => {
    const body = await (await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent('sum(up)')}`)).json();
    return { done: body.data.result.length === 1 && body.data.result[0].value[1] === '2', why: JSON.stringify(body.data.result) };
  });
  const url = driver.url;
  const get = (target, headers) => request(`${url}${target}`, { headers });

  await t.test('the page and its files: read-only, from the driver, under a policy that allows nothing else', async () => {
    const page = await get('/');
    assert.strictEqual(page.status, 200);
    assert.match(page.headers['content-type'], /^text\/html/);
    assert.match(page.headers['content-security-policy'], /default-src 'none'; script-src 'self'/);
    for (const src of page.text.match(/(?:src|href)="[^"]+"/g)) assert.match(src, /="(\/live\/|data:,")/, `${src}: the page loads only the driver's files (and an empty icon)`);
    const uplot = await get('/live/uplot.js');
    assert.strictEqual(uplot.status, 200);
    assert.strictEqual(uplot.text, fs.readFileSync(path.join(path.dirname(require.resolve('uplot/package.json')), 'dist', 'uPlot.iife.min.js'), 'utf8'), 'uPlot from its installed package');
    for (const [target, type] of [['/live/page.js', /javascript/], ['/live/upload.js', /javascript/], ['/live/report.css', /css/], ['/live/page.css', /css/], ['/live/uplot.css', /css/]]) {
      const answer = await get(target);
      assert.strictEqual(answer.status, 200, target);
      assert.match(answer.headers['content-type'], type, target);
    }
    for (const target of ['/', '/live/state', '/results/x/report.html']) {
      const wrong = await request(`${url}${target}`, { method: 'POST' });
      refusal(wrong, 405, `POST ${target}`);
      assert.deepStrictEqual(wrong.json.allowed, ['GET']);
      assert.strictEqual((await request(`${url}${target}`, { method: 'DELETE' })).status, 405);
    }
  });

  let first;
  let second;
  await t.test('during and after two runs: state, series from Prometheus, the ended scenarios, the runs', async () => {
    assert.strictEqual((await get('/live/state')).json.run, null, 'no run before the first');
    assert.strictEqual((await request(`${url}/runs?suite=live`, { method: 'POST' })).status, 202);
    const during = await until('the scenario running', 60000, async () => {
      const state = (await get('/live/state')).json;
      return { done: state.progress && state.progress.scenario !== null, value: state, why: JSON.stringify(state.progress) };
    });
    assert.deepStrictEqual(during.targets, [{ name: 'node-async', kind: 'node' }]);
    const now = during.progress.scenario;
    assert.strictEqual(now.name, SCENARIO);
    assert.strictEqual(now.target, 'node-async');
    assert.strictEqual(now.workload, 'stringify');
    assert.strictEqual(now.approach, 'async');
    assert.strictEqual(now.request, `GET ${pathOf(scenario.run)}`);
    assert.deepStrictEqual([during.progress.done, during.progress.of], [0, 1]);
    assert.ok(during.progress.scenarioLeftSeconds <= scenario.durationSeconds && during.progress.suiteLeftSeconds === during.progress.scenarioLeftSeconds);
    first = await waitForEnd(url);
    assert.strictEqual(first.state, 'passed', JSON.stringify(first));
    assert.strictEqual(first.currentScenario, null);

    // The series hold the scenario: Prometheus scraped node-async's lag, the driver's probe and scenario histograms
    // and its scenario gauge while it ran.
    const series = await until('the scenario in the series', 60000, async () => {
      const answer = await get('/live/series?seconds=120');
      assert.strictEqual(answer.status, 200, answer.text);
      const s = answer.json;
      const job = s.jobs['node-async'];
      const spans = s.scenarios.filter((x) => x.scenario === SCENARIO);
      const names = ['lagP99Seconds', 'lagMaxSeconds', 'cpuCores', 'rssBytes', 'cpuWaitRatio', 'probeP99Seconds', 'requestP99Seconds'];
      const ok = names.every((name) => job[name] && job[name].length > 0) && spans.length === 1;
      return { done: ok, value: s, why: `${names.map((n) => `${n}: ${job[n] ? job[n].length : 'none'}`)}; spans ${JSON.stringify(s.scenarios)}` };
    });
    assert.strictEqual(series.stepSeconds, 1);
    assert.strictEqual(series.window.end - series.window.start, 120);
    assert.strictEqual(series.window.end, Math.floor(series.newestScrape), 'the window ends at the newest scrape, not at the clock');
    const span = series.scenarios.find((x) => x.scenario === SCENARIO);
    assert.strictEqual(span.target, 'node-async');
    assert.ok(span.start <= span.end && span.start >= series.window.start && span.end <= series.window.end, JSON.stringify(span));
    for (const [name, points] of Object.entries(series.jobs['node-async'])) {
      assert.ok(points.every(([time, value]) => Number.isInteger(time) && time >= series.window.start && time <= series.window.end && Number.isFinite(value)), name);
    }
    const inSpan = (points) => points.some(([time]) => time >= span.start && time <= span.end + 1);
    assert.ok(inSpan(series.jobs['node-async'].requestP99Seconds), "the scenario's latency while it ran");
    assert.ok(inSpan(series.jobs['node-async'].probeP99Seconds), "the probe's latency while the scenario ran");

    // The ranking of report.html, linking each scenario to its result file, which the driver serves as it is.
    const table = await get('/live/table');
    assert.strictEqual(table.status, 200);
    assert.match(table.text, new RegExp(`data-run="${first.id}" data-ended="1"`));
    assert.match(table.text, /<table class="ranking" data-target="node-async" data-workload="stringify">/);
    const href = new RegExp(`href="(/results/${first.id}/01-${SCENARIO}\\.json)"`).exec(table.text);
    assert.ok(href, table.text);
    const resultFile = await get(href[1]);
    assert.strictEqual(resultFile.status, 200);
    assert.strictEqual(resultFile.text, fs.readFileSync(path.join(first.resultsDir, `01-${SCENARIO}.json`), 'utf8'));
    // Why the target stalled, read from the real Prometheus over the scenario's window: node-async was busy running
    // stringify (some utilization, at most all of it), and every figure of its pauses is there or null with a reason.
    const server = JSON.parse(resultFile.text).server;
    assert.strictEqual(server.available, true, JSON.stringify(server));
    const elu = server.elu['node-async'];
    assert.ok(elu > 0 && elu <= 1, `mean event-loop utilization ${elu}`);
    const gc = server.gc['node-async'];
    assert.ok(Number.isInteger(gc.count) && gc.count >= 0 && gc.totalMs >= 0, JSON.stringify(gc));
    if (gc.count > 0) assert.ok(gc.maxMs > 0 && gc.p99Ms <= gc.maxMs && gc.totalMs >= gc.maxMs && !Number.isNaN(Date.parse(gc.longestAt)), JSON.stringify(gc));
    else assert.deepStrictEqual([gc.maxMs, gc.p99Ms, gc.longestAt], [null, null, null]);
    assert.strictEqual(server.missing['node-async'], undefined, JSON.stringify(server.missing));
    assert.strictEqual(server.elu.load, null, 'the driver exports no busy seconds');
    assert.ok(server.missing.load.elu, 'and the section says so');

    assert.strictEqual((await request(`${url}/runs?suite=live`, { method: 'POST' })).status, 202);
    second = await waitForEnd(url);
    const { runs, folders } = (await get('/live/runs')).json;
    assert.strictEqual(folders, 2);
    assert.deepStrictEqual(runs.map((r) => [r.id, r.suite, r.verdict, r.scenarios, r.previous]), [[second.id, 'live', 'passed', 1, first.id], [first.id, 'live', 'passed', 1, null]]);
    const report = await get(runs[0].report);
    assert.strictEqual(report.status, 200);
    assert.match(report.headers['content-type'], /^text\/html/);
    assert.match(report.headers['content-security-policy'], /connect-src|default-src 'none'/);
    assert.strictEqual(report.text, fs.readFileSync(path.join(second.resultsDir, 'report.html'), 'utf8'));
    // The report of a run read from a real Prometheus, in a real browser: the lag, ELU and GC figures and series
    // shown as the scenario's file holds them (checkReportInBrowser compares each).
    if (findChromium()) {
      const checked = await checkReportInBrowser(path.join(second.resultsDir, 'report.html'));
      assert.ok(checked.serverCharts >= 2, checked.text);
    }
    const compared = await get(`/live/compare?a=${first.id}&b=${second.id}`);
    assert.strictEqual(compared.status, 200, compared.text);
    assert.match(compared.text, /<h1>Run comparison<\/h1>/);
    assert.ok(compared.text.includes(SCENARIO) && compared.text.includes(first.id) && compared.text.includes(second.id));
    assert.ok(!fs.existsSync(path.join(second.resultsDir, 'compare.html')), 'the comparison is served, not written');
  });

  await t.test('bad parameters get a 400 naming what is allowed', async () => {
    const cases = [
      ['/live/series?seconds=5', 'seconds'],
      ['/live/series?seconds=901', 'seconds'],
      ['/live/series?seconds=abc', 'seconds'],
      ['/live/series?seconds=60&seconds=60', 'seconds'],
      ['/live/series?step=0.001', 'step'],
      ['/live/series?end=0', 'end'],
      ['/live/state?run=x', 'run'],
      ['/live/runs?limit=100000', 'limit'],
      ['/live/table?run=x', 'run'],
      ['/live/page.js?v=1', 'v'],
      [`/live/compare?b=${first.id}`, 'a'],
      [`/live/compare?a=${first.id}`, 'b'],
      [`/live/compare?a=${first.id}&a=${first.id}&b=${second.id}`, 'a'],
      [`/live/compare?a=${first.id}&b=${second.id}&html=/tmp/x.html`, 'html'],
      [`/results/${first.id}/report.html?download=1`, 'download'],
    ];
    for (const [target, parameter] of cases) {
      const answer = await get(target);
      refusal(answer, 400, target);
      assert.strictEqual(answer.json.parameter, parameter, target);
      assert.ok(answer.json.allowed !== undefined, `${target}: names what is allowed`);
    }
    refusal(await get('/live/nope'), 404, 'an unknown live route');
    assert.ok((await get('/live/nope')).json.routes.includes('GET /live/series'));
  });

  await t.test('no request reads outside the results folder', async () => {
    // A link to a run folder outside, a link in a real run to a file outside, a run whose scenario file is a link.
    fs.cpSync(first.resultsDir, path.join(outside, 'copied-run'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'copied-run'), path.join(resultsDir, 'linked-run'));
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(second.resultsDir, 'secret.json'));
    const tricked = path.join(resultsDir, 'tricked-run');
    fs.cpSync(first.resultsDir, tricked, { recursive: true });
    fs.rmSync(path.join(tricked, `01-${SCENARIO}.json`));
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(tricked, `01-${SCENARIO}.json`));
    const escapes = [
      ['/results/../outside/secret.json', 400],
      ['/results/%2e%2e/outside/secret.json', 400],
      ['/results/%2E%2E/%2E%2E/etc/passwd', 400],
      [`/results/${first.id}/..%2F..%2Foutside%2Fsecret.json`, 400],
      [`/results/..%2Foutside/secret.json`, 400],
      ['/results/%2Fetc/passwd', 400],
      [`/results/${first.id}/%2Fetc%2Fpasswd`, 400],
      [`/results/${first.id}/..%5C..%5Csecret.json`, 400],
      [`/results/${encodeURIComponent(outside)}/secret.json`, 400],
      [`/results/${first.id}/.hidden.json`, 400],
      ['/results/linked-run/run.json', 404],
      [`/results/${second.id}/secret.json`, 404],
      [`/results/${first.id}/missing.json`, 404],
      [`/results/${first.id}`, 404],
      [`/results/${first.id}/run.json/x`, 404],
      ['/live/compare?a=linked-run&b=' + second.id, 404],
      ['/live/compare?a=..&b=' + second.id, 400],
      ['/live/compare?a=%2e%2e%2Foutside&b=' + second.id, 400],
      [`/live/compare?a=${encodeURIComponent(outside)}&b=${second.id}`, 400],
      [`/live/compare?a=tricked-run&b=${second.id}`, 404],
    ];
    for (const [target, status] of escapes) {
      // As sent, byte for byte: an HTTP client would resolve the dot segments before sending.
      const answer = await sendRaw(driver.port, { method: 'GET', target });
      assert.strictEqual(answer.status, status, `${target}: ${answer.body}`);
      assert.strictEqual(typeof JSON.parse(answer.body).error, 'string', target);
      assert.doesNotMatch(answer.body, /outside the results folder/, `${target} read the file outside`);
    }
    // A file of the run that is not .html or .json, and a name in another case: not served.
    fs.writeFileSync(path.join(first.resultsDir, 'notes.txt'), 'x');
    refusal(await get(`/results/${first.id}/notes.txt`), 404, 'a .txt file');
    refusal(await get(`/results/${first.id}/REPORT.HTML`), 404, 'another case');
    // Listed runs are real folders with a run.json that is a file: the link to outside is not one of them.
    const listed = (await get('/live/runs')).json.runs.map((r) => r.id);
    assert.ok(!listed.includes('linked-run'), listed.join());
    // Every route but /healthz and /metrics only answers to the driver's own names.
    for (const target of ['/', '/live/state', '/live/series', '/live/runs', `/results/${first.id}/report.html`, `/live/compare?a=${first.id}&b=${second.id}`]) {
      refusal(await get(target, { Host: 'evil.example' }), 403, `${target} by a rebound name`);
    }
  });

  await t.test('Prometheus gone: the series route says so (502), the page shows it, the driver serves on', async () => {
    await prometheus.stop();
    prometheus = null;
    const answer = await get('/live/series?seconds=61');
    refusal(answer, 502, 'Prometheus stopped');
    assert.ok(answer.json.error.includes(promUrl) && answer.json.prometheus === promUrl, answer.text);
    assert.strictEqual((await get('/healthz')).status, 200);
    assert.strictEqual((await get('/live/state')).status, 200);
    const chromium = findChromium();
    if (!chromium) return;
    const browser = await launchBrowser(chromium);
    try {
      const page = await browser.newPage();
      const errors = [];
      const seen = [];
      page.on('pageerror', (err) => errors.push(err.message));
      // The page's own requests for the series are answered 502 now, which Chromium logs as an error of its own.
      page.on('console', (m) => (seen.push(m.text()), m.type() === 'error' && !/status of 502/.test(m.text()) && errors.push(m.text())));
      await page.goto(`${url}/`, { waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS });
      await page.waitForFunction(() => !document.querySelector('#prometheus-notice').hidden, { timeout: BROWSER_TIMEOUT_MS }).catch(async (err) => {
        throw new Error(`${err.message}; console: ${seen.join(' | ')}; page: ${await page.evaluate(() => JSON.stringify({ charts: window.labLive.charts.length, error: window.labLive.seriesError, state: document.body.innerText.slice(0, 500) }))}`);
      });
      const notice = await page.$eval('#prometheus-notice', (e) => e.textContent);
      assert.match(notice, /No live series: Prometheus at http:\/\/127\.0\.0\.1:\d+ failed/);
      // The runs of the results folder are still listed, with their reports.
      const listed = await page.waitForFunction(() => document.querySelectorAll('#run-list tbody tr').length > 0 && [...document.querySelectorAll('#run-list tbody tr')].map((tr) => tr.dataset.run), { timeout: BROWSER_TIMEOUT_MS });
      const ids = await listed.jsonValue();
      assert.ok(ids.includes(first.id) && ids.includes(second.id) && !ids.includes('linked-run'), ids.join());
      // Start and stop from the page: its POSTs carry its own Origin, which the driver's guard lets through.
      const latest = async () => (await get('/runs/latest')).json;
      await page.waitForFunction(() => document.querySelectorAll('#suite option').length > 0 && !document.querySelector('#start').disabled, { timeout: BROWSER_TIMEOUT_MS });
      await page.select('#suite', 'live');
      await page.click('#start');
      const third = await until('a run started from the page', 120000, async () => {
        const run = await latest();
        return { done: ![first.id, second.id].includes(run.id) && run.state === 'passed', value: run, why: `${run.id} ${run.state}` };
      });
      await page.waitForFunction(() => !document.querySelector('#start').disabled, { timeout: BROWSER_TIMEOUT_MS });
      await page.click('#loop');
      await page.click('#start');
      await until('the looping run running', 120000, async () => {
        const run = await latest();
        return { done: run.id !== third.id && run.loop === true && run.state === 'running', why: `${run.id} ${run.state}` };
      });
      await page.waitForFunction(() => !document.querySelector('#stop').disabled, { timeout: BROWSER_TIMEOUT_MS });
      await page.click('#stop');
      const stopped = await until('the run stopped from the page', 120000, async () => {
        const run = await latest();
        return { done: run.state === 'stopped', value: run, why: run.state };
      });
      assert.strictEqual(stopped.loop, true);
      assert.deepStrictEqual(errors, []);
    } finally {
      await browser.close(); // before the driver stops, which would wait for the browser's idle connections
    }
  });
});

test('PROMETHEUS_URL=none: the series route answers 503 saying so', async (t) => {
  const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-live-none-'));
  t.after(() => fs.rmSync(resultsDir, { recursive: true, force: true }));
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', RESULTS_DIR: resultsDir, PROMETHEUS_URL: 'none' });
  t.after(() => stopDriver(driver));
  const answer = await request(`${driver.url}/live/series`);
  refusal(answer, 503, 'no Prometheus');
  assert.match(answer.json.error, /PROMETHEUS_URL is none/);
  assert.deepStrictEqual((await request(`${driver.url}/live/runs`)).json, { runs: [], folders: 0 });
});
