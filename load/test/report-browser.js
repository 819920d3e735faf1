'use strict';
// checkReportInBrowser(reportFile): opens a run's report.html in headless Chromium (Debian's `chromium`, driven by
// puppeteer-core) and checks it against the run's own JSON files beside it: no network request, no console or page
// error, every uPlot chart holding the samples of its source series (and painted), the tables holding run.json's
// numbers, and the lag (or the JVM's stand-in), ELU and GC figures those of the scenario files' server sections.
// Returns what it found; throws, naming the first failures, otherwise. Not a test file: report-browser.test.js, the
// live page's test and the native lab's integration test call it.
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { execFileSync } = require('node:child_process');
const puppeteer = require('puppeteer-core');
const { readRun } = require('../src/report/read-run');
const { targetSeriesOf } = require('../src/scenario/server-series');

// Generous bounds for a loaded machine: they stop a hung browser, they do not time anything.
const BROWSER_TIMEOUT_MS = 300000;
const PROBE_FIELDS = ['probeP99Ms', 'probeMaxMs'];
const NUMBER_FIELDS = ['requests', 'requestsPerSecond', 'latencyP50Ms', 'latencyP90Ms', 'latencyP99Ms', 'latencyMaxMs', 'errors', 'non2xx', 'invalid', 'probeP99Ms', 'probeMaxMs'];

/** The Chromium to drive: $CHROMIUM_PATH, else `chromium` (Debian's package) on PATH; null when there is none. */
function findChromium() {
  if (process.env.CHROMIUM_PATH) return fs.existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * Headless Chromium for the lab's page tests (executablePath: findChromium()'s by default). --no-sandbox: the lab's
 * tests and containers run as root, where Chromium's sandbox refuses to start.
 */
function launchBrowser(executablePath = findChromium()) {
  return puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'], timeout: BROWSER_TIMEOUT_MS, protocolTimeout: BROWSER_TIMEOUT_MS });
}

/**
 * A new tab of browser at 1440x900 that lets through only the requests allowed(url) accepts: every request's URL goes
 * to requests, and a refused request (named by what, with its URL), an error logged to the console or an uncaught
 * error on the page to failures.
 */
async function watchedPage(browser, allowed, what, { failures, requests }) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    requests.push(request.url());
    if (allowed(request.url())) return request.continue();
    failures.push(`${what}: ${request.url()}`);
    return request.abort();
  });
  page.on('console', (message) => message.type() === 'error' && failures.push(`console error: ${message.text()}`));
  page.on('pageerror', (err) => failures.push(`page error: ${err.message}`));
  return page;
}

const round3 = (v) => Math.round(v * 1000) / 1000;
const shown = (v) => (v === null || v === undefined ? '—' : String(round3(v)));
const verdictOf = (s) => (s.stopped ? 'stopped' : s.passed ? 'passed' : 'failed');

/**
 * What the page holds: every chart's series (label, non-null samples, values) and the pixels its first series paints
 * when drawn alone, and the tables' text.
 */
async function readPage() {
  /* global window, document */
  // uPlot redraws a change of series on a microtask; a macrotask later the canvas holds it.
  const redrawn = () => new Promise((resolve) => setTimeout(resolve, 0));
  const charts = [];
  for (const { id, kind, scenario, strokes, plot } of window.labReport.charts) {
    // The first series alone: a later series with nearly the same samples (lag max over lag p99) would cover its line.
    const others = plot.series.map((_, i) => i).filter((i) => i >= 2);
    for (const i of others) plot.setSeries(i, { show: false });
    await redrawn();
    const canvas = plot.ctx.canvas;
    const pixels = plot.ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(strokes[0].slice(at, at + 2), 16));
    let firstSeriesPixels = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i + 3] > 200 && Math.abs(pixels[i] - r) + Math.abs(pixels[i + 1] - g) + Math.abs(pixels[i + 2] - b) < 60) firstSeriesPixels++;
    }
    for (const i of others) plot.setSeries(i, { show: true });
    await redrawn();
    const series = plot.series.slice(1).map((s, i) => ({ label: s.label, values: plot.data[i + 1].filter((v) => v !== null) }));
    charts.push({ id, kind, scenario, xLength: plot.data[0].length, series, firstSeriesPixels });
  }
  const sections = [...document.querySelectorAll('section.scenario')].map((section) => ({
    name: section.dataset.scenario,
    verdict: section.querySelector('h2 .verdict').textContent,
    fields: Object.fromEntries([...section.querySelectorAll('[data-field]')].map((td) => [td.dataset.field, td.textContent.trim()])),
    thresholds: Object.fromEntries([...section.querySelectorAll('tr[data-threshold]')].map((tr) => [tr.dataset.threshold, tr.lastElementChild.textContent.trim()])),
    serverNotice: (section.querySelector('[data-notice="server"]') || { textContent: null }).textContent,
    missing: Object.fromEntries([...section.querySelectorAll('[data-missing]')].map((e) => [e.dataset.missing, e.textContent.trim()])),
  }));
  const ranked = [...document.querySelectorAll('table.ranking')].flatMap((table, group) => [...table.querySelectorAll('tbody tr')].map((tr) => ({
    group,
    name: tr.dataset.scenario,
    fields: Object.fromEntries([...tr.querySelectorAll('[data-field]')].map((td) => [td.dataset.field, td.textContent.trim()])),
  })));
  // A try run's choice (a user's document): the pick per service and workload, as target/workload/approach.
  const picks = [...document.querySelectorAll('#document-choice [data-pick]')].map((e) => e.dataset.pick);
  // And per group, its rounds and the p-value its reason gives (none: '').
  const groups = [...document.querySelectorAll('#document-choice [data-group]')].map((e) => `${e.dataset.group}: ${e.dataset.rounds} rounds, p ${e.dataset.p || ''}`);
  // An attach run's verdict (a service the lab did not write): its agent, the load its loop blocks from, its loads.
  const verdict = document.querySelector('#attach-verdict');
  const attach = verdict ? { agent: verdict.dataset.agent, blocksFrom: verdict.dataset.blocksFrom || null, loads: [...verdict.querySelectorAll('tr[data-load]')].map((tr) => tr.dataset.load), lines: [...verdict.querySelectorAll('ul.attach-lines li')].map((li) => li.textContent) } : null;
  return { charts, sections, ranked, picks, groups, attach, header: document.querySelector('header').textContent, drawn: Number(document.body.dataset.chartsDrawn) };
}

/** Compares the page (readPage) with the run's files; returns the list of disagreements. */
function compare(page, { run, runId, scenarios }) {
  const problems = [];
  const expect = (ok, message) => ok || problems.push(message);
  for (const fact of [runId, run.suite, run.verdict, run.lab && run.lab.commit, run.startedAt, run.endedAt]) {
    if (fact) expect(page.header.includes(fact), `the header lacks ${fact}`);
  }
  for (const [name, info] of Object.entries(run.targets || {})) {
    if (info.runtime) expect(page.header.includes(`${info.runtime.name} ${info.runtime.version}`), `the header lacks ${name}'s runtime ${info.runtime.version}`);
  }
  expect(page.drawn === page.charts.length, `body says ${page.drawn} charts drawn, window.labReport holds ${page.charts.length}`);
  const picks = run.choice ? run.choice.groups.map((g) => `${g.target}/${g.workload}/${g.pick || ''}`) : [];
  expect(JSON.stringify(page.picks) === JSON.stringify(picks), `the page's picks ${JSON.stringify(page.picks)} are not run.json's ${JSON.stringify(picks)}`);
  const groups = run.choice ? run.choice.groups.map((g) => `${g.target}/${g.workload}: ${g.rounds} rounds, p ${g.comparedWith ? g.comparedWith.p : ''}`) : [];
  expect(JSON.stringify(page.groups) === JSON.stringify(groups), `the page's rounds and p-values ${JSON.stringify(page.groups)} are not run.json's ${JSON.stringify(groups)}`);
  const verdict = run.attachVerdict;
  expect(Boolean(page.attach) === Boolean(verdict), `the page ${page.attach ? 'has' : 'lacks'} an attach verdict, run.json ${verdict ? 'has' : 'has none'}`);
  if (page.attach && verdict) {
    const wanted = { agent: verdict.agent || 'none', blocksFrom: verdict.blocksFrom ? verdict.blocksFrom.name : null, loads: verdict.loads.map((l) => l.name), lines: verdict.lines.filter((l) => !l.startsWith('  ')) };
    expect(JSON.stringify(page.attach) === JSON.stringify(wanted), `the page's attach verdict ${JSON.stringify(page.attach)} is not run.json's ${JSON.stringify(wanted)}`);
  }
  const summaries = run.summary || [];
  expect(summaries.length === scenarios.length, `run.json summarises ${summaries.length} scenarios, the folder holds ${scenarios.length}`);
  expect(page.ranked.length === summaries.filter((s) => s.workload).length, `the ranking lists ${page.ranked.length} rows for ${summaries.filter((s) => s.workload).length} /run scenarios`);
  page.ranked.forEach((rank, i) => {
    const summary = summaries.find((s) => s.name === rank.name);
    if (!summary) return problems.push(`the ranking lists ${rank.name}, which run.json does not`);
    for (const field of ['requestsPerSecond', 'latencyP50Ms', 'latencyP99Ms']) expect(rank.fields[field] === shown(summary[field]), `ranking: ${rank.name} ${field} shows ${rank.fields[field]}, run.json has ${summary[field]}`);
    const above = page.ranked[i - 1];
    if (above && above.group === rank.group) {
      const aboveRate = summaries.find((s) => s.name === above.name);
      expect(aboveRate && aboveRate.requestsPerSecond >= summary.requestsPerSecond, `ranking: ${rank.name} is below ${above.name} with more requests/s`);
    }
  });
  for (const summary of summaries) {
    const section = page.sections.find((s) => s.name === summary.name);
    if (!section) {
      problems.push(`no section for scenario ${summary.name}`);
      continue;
    }
    expect(section.verdict === verdictOf(summary), `${summary.name}: verdict ${section.verdict}, run.json says ${verdictOf(summary)}`);
    // A scenario without a probe (make attach's, where neither an agent nor a probe path was there) shows no probe row.
    const probed = scenarios.some((file) => file.scenario.name === summary.name && file.scenario.probe);
    for (const field of NUMBER_FIELDS.filter((f) => probed || !PROBE_FIELDS.includes(f))) expect(section.fields[field] === shown(summary[field]), `${summary.name}: ${field} shows ${section.fields[field]}, run.json has ${summary[field]}`);
    if (!probed) expect(PROBE_FIELDS.every((f) => section.fields[f] === undefined), `${summary.name}: no probe ran, yet the page shows probe figures`);
    for (const t of summary.thresholds || []) {
      const want = t.passed === true ? 'passed' : t.passed === false ? 'FAILED' : 'not evaluated';
      expect((section.thresholds[t.name] || '').startsWith(want), `${summary.name}: threshold ${t.name} shows "${section.thresholds[t.name]}", expected ${want}`);
    }
  }
  for (const file of scenarios) problems.push(...compareCharts(page, file));
  return problems;
}

/** A scenario's ELU and GC figures as shown against its server section's; a missing one shows '—' and its reason. */
function compareStall(section, file) {
  const name = file.scenario.name;
  const target = file.scenario.target;
  const server = file.server && file.server.available ? file.server : {};
  const problems = [];
  const expect = (ok, message) => ok || problems.push(message);
  const elu = server.elu ? server.elu[target] : undefined;
  expect(section.fields.serverElu === shown(elu), `${name}: ELU shows ${section.fields.serverElu}, the file has ${elu}`);
  expect((elu === null || elu === undefined) === (section.missing.elu !== undefined), `${name}: a missing ELU says why, a present one does not (${section.missing.elu})`);
  const gc = server.gc ? server.gc[target] : undefined;
  if (gc) {
    for (const [field, key] of [['gcCount', 'count'], ['gcTotalMs', 'totalMs'], ['gcMaxMs', 'maxMs'], ['gcP99Ms', 'p99Ms']]) expect(section.fields[field] === shown(gc[key]), `${name}: ${field} shows ${section.fields[field]}, the file has ${gc[key]}`);
    expect(section.fields.gcLongestAt === (gc.longestAt || '—'), `${name}: the longest pause's time shows ${section.fields.gcLongestAt}, the file has ${gc.longestAt}`);
  } else {
    expect(section.fields.gcCount === '—' && section.missing.gc !== undefined, `${name}: no GC figures, so '—' and why (shows ${section.fields.gcCount}, ${section.missing.gc})`);
  }
  return problems;
}

/** A scenario's charts against its file: the client's per-second samples and, where it has them, the server's series. */
function compareCharts(page, file) {
  const name = file.scenario.name;
  const problems = [];
  const expect = (ok, message) => ok || problems.push(message);
  const charts = page.charts.filter((c) => c.scenario === name);
  const seriesOf = (kind, label) => {
    const chart = charts.find((c) => c.kind === kind);
    return chart && chart.series.find((s) => s.label === label);
  };
  const check = (kind, label, expected) => {
    const series = seriesOf(kind, label);
    if (!series) return problems.push(`${name}: no ${kind} chart series "${label}"`);
    const want = expected.filter((v) => v !== null && v !== undefined).map(round3);
    if (JSON.stringify(series.values.map(round3)) !== JSON.stringify(want)) problems.push(`${name}: ${kind} "${label}" drew ${series.values.length} samples, the file has ${want.length}`);
  };
  const perSecond = file.perSecond || [];
  check('client', 'requests/s', perSecond.map((s) => s.requests));
  check('client', 'client latency p99 (ms)', perSecond.map((s) => s.latencyP99Ms));
  check('client', 'client latency p50 (ms)', perSecond.map((s) => s.latencyP50Ms));
  const job = targetSeriesOf(file);
  if (job && job.lagP99Seconds) {
    check('lag', 'server lag p99 (ms)', job.lagP99Seconds.map(([, v]) => v * 1000));
    check('lag', 'client latency p99 (ms)', perSecond.map((s) => s.latencyP99Ms));
  }
  // The JVM's stand-in for the lag: the wait for a handler thread, drawn and shown in the lag's place.
  const standIn = job && !job.lagP99Seconds && !job.lagMaxSeconds && (job.threadWaitP99Seconds || job.threadWaitMaxSeconds);
  if (standIn) check('lag', 'JVM thread wait p99 (ms)', (job.threadWaitP99Seconds || []).map(([, v]) => v * 1000));
  const lagChart = charts.some((c) => c.kind === 'lag');
  if (job && job.gcPauseMaxSeconds && lagChart) check('lag', 'server GC longest pause (ms)', job.gcPauseMaxSeconds.map(([, v]) => v * 1000));
  if (job && job.cpuCores) check('resources', 'server CPU (cores)', job.cpuCores.map(([, v]) => v));
  if (job && job.rssBytes) check('resources', 'server RSS (MiB)', job.rssBytes.map(([, v]) => v / 1048576));
  if (job && job.eluRatio && job.cpuCores) check('resources', 'server ELU (busy share)', job.eluRatio.map(([, v]) => v));
  if (job && job.cpuWaitRatio && job.cpuCores) check('resources', 'loop waiting for a CPU (share)', job.cpuWaitRatio.map(([, v]) => v));
  // The machine's CPU outside the lab, each second: its busy cores less the lab's jobs', of all its CPUs.
  const m = file.server && file.server.machine;
  const at = (points, t) => ((points || []).find(([time]) => time === t) || [])[1];
  const elsewhere = m ? (m.busyCores || []).filter(([t]) => at(m.cpus, t) > 0 && at(m.labCores, t) !== undefined).map(([t, busy]) => Math.max(0, busy - at(m.labCores, t)) / at(m.cpus, t)) : [];
  if (job && job.cpuCores && elsewhere.length) check('resources', 'machine CPU elsewhere (share)', elsewhere);
  const section = page.sections.find((s) => s.name === name);
  const peak = (points) => (points && points.length ? shown(Math.max(...points.map(([, v]) => v)) * 1000) : '—');
  if (section) {
    const p99 = job && (standIn ? job.threadWaitP99Seconds : job.lagP99Seconds);
    const max = job && (standIn ? job.threadWaitMaxSeconds : job.lagMaxSeconds);
    expect(section.fields.serverLagP99PeakMs === peak(p99), `${name}: server lag p99 peak shows ${section.fields.serverLagP99PeakMs}, the file's series peak at ${peak(p99)}`);
    expect(section.fields.serverLagMaxPeakMs === peak(max), `${name}: server lag max peak shows ${section.fields.serverLagMaxPeakMs}, the file's series peak at ${peak(max)}`);
    problems.push(...compareStall(section, file));
  }
  if (!job && section && !section.serverNotice) problems.push(`${name}: no server series and no notice saying so`);
  if (!job && charts.some((c) => c.kind !== 'client')) problems.push(`${name}: server charts drawn without server series`);
  for (const chart of charts) {
    if (chart.series[0].values.length >= 2 && chart.firstSeriesPixels === 0) problems.push(`${name}: ${chart.kind} chart has ${chart.series[0].values.length} samples of its first series but painted none`);
  }
  return problems;
}

/**
 * Opens reportFile (a run folder's report.html) in headless Chromium and checks it (see the top of this file).
 * options.screenshot: a .png path for a screenshot of the page's top; options.sectionScreenshot: one of the first
 * scenario with server charts (or the first scenario). Returns {text, scenarios, charts, serverCharts, notices, screenshots}.
 */
async function checkReportInBrowser(reportFile, options = {}) {
  const executablePath = options.executablePath || findChromium();
  if (!executablePath) throw new Error('no Chromium found: install Debian\'s chromium (scripts/install-system-packages.sh) or set CHROMIUM_PATH');
  const fileUrl = pathToFileURL(path.resolve(reportFile)).href;
  const runFiles = readRun(path.dirname(path.resolve(reportFile)));
  const browser = await launchBrowser(executablePath);
  const failures = [];
  const requests = [];
  try {
    const page = await watchedPage(browser, (url) => url === fileUrl, 'a network request', { failures, requests });
    await page.goto(fileUrl, { waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS });
    await page.waitForFunction(() => document.body.dataset.chartsDrawn !== undefined, { timeout: BROWSER_TIMEOUT_MS });
    const found = await page.evaluate(readPage);
    failures.push(...compare(found, runFiles));
    const screenshots = [];
    if (options.screenshot) {
      const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), options.screenshotMaxHeight || 4000);
      await page.screenshot({ path: options.screenshot, clip: { x: 0, y: 0, width: 1440, height }, captureBeyondViewport: true });
      screenshots.push(options.screenshot);
    }
    if (options.sectionScreenshot) {
      const withServer = found.charts.find((c) => c.kind === 'lag');
      const id = withServer ? withServer.id.replace(/-lag$/, '') : 'scenario-1';
      const element = await page.$(`#${id}`);
      if (element) {
        await element.screenshot({ path: options.sectionScreenshot });
        screenshots.push(options.sectionScreenshot);
      }
    }
    if (failures.length) throw new Error(`report ${reportFile}:\n- ${failures.join('\n- ')}`);
    const serverCharts = found.charts.filter((c) => c.kind !== 'client').length;
    const notices = found.sections.filter((s) => s.serverNotice).length;
    return {
      text: `${found.sections.length} scenarios, ${found.charts.length} charts drawn (${serverCharts} of server series, each holding its file's samples), ${notices} server-unavailable notices, tables match run.json, ${requests.length} request (the report itself), no console or page error`,
      scenarios: found.sections.length,
      charts: found.charts.length,
      serverCharts,
      notices,
      picks: found.picks,
      groups: found.groups,
      attach: found.attach,
      screenshots,
    };
  } finally {
    await browser.close();
  }
}

module.exports = { checkReportInBrowser, findChromium, launchBrowser, watchedPage, BROWSER_TIMEOUT_MS };
