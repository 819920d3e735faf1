'use strict';
// checkLivePageDuringRun(driverUrl, prometheusUrl): opens the driver's live page (GET /) in headless Chromium while a
// suite runs and checks it: it names the scenario running now (as the driver's state says), its lag chart's newest
// point is at or past the newest sample Prometheus held of that series when the check began (judged on Prometheus'
// own timestamps, so a slow machine only makes the wait longer), the ranking of ended scenarios fills in, no request
// leaves the driver and nothing is logged as an error. Returns what it saw; throws, naming the failures, otherwise.
// Not a test file: the native lab's integration test calls it during its smoke run.
const { launchBrowser, watchedPage, BROWSER_TIMEOUT_MS } = require('./report-browser');

async function newestValue(prometheus, expr) {
  const body = await (await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(expr)}`)).json();
  const [sample] = body.data.result;
  return sample ? Number(sample.value[1]) : null;
}

async function newestSample(prometheus, expr) {
  const body = await (await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(`max(timestamp(${expr}))`)}`)).json();
  const [sample] = body.data.result;
  return sample ? Number(sample.value[1]) : null;
}

/** options: {screenshot: a .png path for the whole page, nodeTargets: targets with an event loop}. */
async function checkLivePageDuringRun(driverUrl, prometheus, options = {}) {
  const origin = new URL(driverUrl).origin;
  const failures = [];
  const requests = [];
  const browser = await launchBrowser();
  try {
    const fromDriver = (url) => url.startsWith(`${origin}/`) || url.startsWith('data:');
    const page = await watchedPage(browser, fromDriver, 'a request outside the driver', { failures, requests });
    await page.goto(`${origin}/`, { waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS });

    /* global document, window -- the page's, in the functions below that run there */
    // The scenario the page shows, as the driver's state says it: a Node target's, so that it has a lag chart.
    const shown = await (await page.waitForFunction((nodeTargets) => {
      const state = window.labLive.state;
      const now = state && state.progress && state.progress.scenario;
      const text = document.querySelector('[data-field="scenario"]').textContent;
      return now && nodeTargets.includes(now.target) && text.endsWith(`: ${now.name}`) && { name: now.name, target: now.target, text, target_text: document.querySelector('[data-field="target"]').textContent };
    }, { timeout: BROWSER_TIMEOUT_MS, polling: 100 }, options.nodeTargets)).jsonValue();
    if (shown.target_text !== shown.target) failures.push(`the page shows target ${shown.target_text} for ${shown.name} on ${shown.target}`);

    // Prometheus' newest sample of the target's lag now; the page's chart must come to hold a point at or past it.
    const since = await newestSample(prometheus, `nodejs_eventloop_lag_p99_seconds{job=${JSON.stringify(shown.target)}}`);
    if (since === null) throw new Error(`Prometheus has no lag sample of ${shown.target}`);
    const lag = await (await page.waitForFunction((target, since) => {
      const chart = window.labLive.charts.find((c) => c.target === target && c.kind === 'lag');
      if (!chart) return false;
      const [xs, p99, max] = chart.plot.data;
      let newest = null;
      for (let i = xs.length - 1; i >= 0; i--) {
        if (p99[i] !== null && max[i] !== null) {
          newest = xs[i];
          break;
        }
      }
      return newest !== null && newest >= Math.ceil(since) && { newest, points: p99.filter((v) => v !== null).length, labels: chart.plot.series.slice(1).map((s) => s.label) };
    }, { timeout: BROWSER_TIMEOUT_MS, polling: 250 }, shown.target, since)).jsonValue();

    // The machine beside the lab: the target's CPU chart draws the CPU that went elsewhere, in cores of the machine's
    // CPUs (as the driver exports them to Prometheus), and the page says the last second's share.
    const cpus = await newestValue(prometheus, 'max(lab_machine_cpus{job="load"})');
    if (!(cpus > 0)) failures.push('Prometheus holds no lab_machine_cpus from the driver');
    const machine = await (await page.waitForFunction((target) => {
      const chart = window.labLive.charts.find((c) => c.target === target && c.kind === 'resources');
      const line = document.querySelector('[data-field="machine"]');
      const at = chart ? chart.plot.series.findIndex((s) => s.label === 'machine CPU elsewhere (cores)') : -1;
      const values = at > 0 ? chart.plot.data[at].filter((v) => v !== null) : [];
      return values.length > 0 && line.dataset.elsewherePercent !== undefined && { values, percent: Number(line.dataset.elsewherePercent), text: line.textContent };
    }, { timeout: BROWSER_TIMEOUT_MS, polling: 250 }, shown.target)).jsonValue();
    if (!machine.values.every((v) => v >= 0 && v <= cpus)) failures.push(`the machine's CPU elsewhere drew values outside [0, ${cpus}] cores: ${machine.values.join(', ')}`);
    if (!(machine.percent >= 0 && machine.percent <= 100) || !machine.text.includes(`${machine.percent} %`)) failures.push(`the machine line says "${machine.text}" for ${machine.percent} %`);

    // Scenarios that ended appear in the ranking, each one the run has completed.
    const rows = await (await page.waitForFunction(() => {
      const names = [...document.querySelectorAll('#table tr[data-scenario]')].map((tr) => tr.dataset.scenario);
      return names.length > 0 && names;
    }, { timeout: BROWSER_TIMEOUT_MS, polling: 250 })).jsonValue();
    const completed = (await (await fetch(`${origin}/runs/latest`)).json()).completed.map((c) => c.name);
    for (const name of rows) if (!completed.includes(name)) failures.push(`the ranking lists ${name}, which the run has not completed`);

    const charts = await page.evaluate(() => window.labLive.charts.map((c) => `${c.target}/${c.kind}`));
    if (options.screenshot) await page.screenshot({ path: options.screenshot, fullPage: true });
    if (failures.length) throw new Error(`live page ${origin}/:\n- ${failures.join('\n- ')}`);
    return { scenario: shown.name, target: shown.target, prometheusNewestAtStart: since, chartNewest: lag.newest, lagPoints: lag.points, lagLabels: lag.labels, rows, charts, requests: new Set(requests.map((u) => new URL(u).pathname)).size, machine: machine.text };
  } finally {
    await browser.close(); // before the driver stops, which would wait for the browser's idle connections
  }
}

module.exports = { checkLivePageDuringRun };
