'use strict';
// CPU profiles of scenarios (src/profile/): a profile's samples read into stacks, folded stacks and the stacks inside
// a block (on a profile built here, exactly); then the real driver asking a real node-async for a profile of each
// scenario of a suite that says "profile": true, keeping the .cpuprofile and .folded files and naming the stacks that
// ran during the runs' longest block, and saying why when the target has no profiling route.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startService, request, until, tempDir } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('./driver-process');
const { samplesOf, foldedStacks, longestBlock, stacksBetween } = require('../src/profile/cpu-profile');
const { keepProfile } = require('../src/profile/take-profile');
const { profileSection } = require('../src/report/profile-html');
const { findChromium, launchBrowser, watchedPage, BROWSER_TIMEOUT_MS } = require('./report-browser');

// (root) -> main -> work -> leaf, and (root) -> (idle); samples every 1000 µs: idle, work×3, idle, leaf×2, work, idle.
const PROFILE = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 5] },
    { id: 2, callFrame: { functionName: 'main', url: 'file:///app/main.js', lineNumber: 9 }, children: [3] },
    { id: 3, callFrame: { functionName: 'work', url: 'file:///app/work.js', lineNumber: 0 }, children: [4] },
    { id: 4, callFrame: { functionName: 'leaf', url: '', lineNumber: -1 }, children: [] },
    { id: 5, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 }, children: [] },
  ],
  startTime: 0,
  endTime: 9000,
  samples: [5, 3, 3, 3, 5, 4, 4, 3, 5],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

test('a profile read: stacks with files and lines, folded without idle, the longest busy stretch and a span\'s stacks', () => {
  const samples = samplesOf(PROFILE);
  assert.deepStrictEqual(samples[1].stack, ['main main.js:10', 'work work.js:1']);
  assert.deepStrictEqual(samples[5].stack, ['main main.js:10', 'work work.js:1', 'leaf']);
  assert.deepStrictEqual(foldedStacks(samples).map((f) => [f.stack, f.ms]), [['main main.js:10;work work.js:1', 4], ['main main.js:10;work work.js:1;leaf', 2]]);
  const stretch = longestBlock(samples);
  assert.deepStrictEqual([stretch.ms, stretch.fromMs, stretch.samples], [3, 1, 3], 'the first stretch: three samples of work (the second is as long; the first stands)');
  const span = stacksBetween(samples, 5.5, 8);
  assert.deepStrictEqual(span.stacks.map((s) => [s.stack[s.stack.length - 1], s.ms, s.share]), [['leaf', 2, 0.667], ['work work.js:1', 1, 0.333]]);
});

// The JVM's answer (services/jvm-serializer's ProfileRoute.kt): two threads sampled at the same instants every 1000 µs,
// (root) -> thread a -> work, (root) -> thread b -> serde -> write; the recording as base64.
const JVM_ANSWER = {
  thread: 'every thread running Java code (JDK Flight Recorder)',
  startedAtMs: 1000,
  endedAtMs: 1004,
  intervalUs: 1000,
  profile: {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
      { id: 2, callFrame: { functionName: 'thread a', url: '', lineNumber: -1 }, children: [3] },
      { id: 3, callFrame: { functionName: 'Work.run', url: '', lineNumber: -1 }, children: [] },
      { id: 4, callFrame: { functionName: 'thread b', url: '', lineNumber: -1 }, children: [5] },
      { id: 5, callFrame: { functionName: 'Serde.write', url: '', lineNumber: -1 }, children: [] },
    ],
    startTime: 1000000,
    endTime: 1004000,
    samples: [3, 5, 3, 5, 5],
    timeDeltas: [0, 0, 1000, 0, 1000],
    sampleIntervalUs: 1000,
  },
  safepoints: { count: 3, totalMs: 0.42, maxMs: 0.2 },
  gcPauses: { count: 1, totalMs: 2.5, maxMs: 2.5 },
  jfr: Buffer.from('FLR\0a recording').toString('base64'),
};

test('the JVM\'s profile: every sample one period of its thread, the recording kept, its heaviest stacks and pauses', () => {
  const samples = samplesOf(JVM_ANSWER.profile);
  assert.deepStrictEqual(samples.map((s) => s.ms), [1, 1, 1, 1, 1], 'threads sampled at one instant still weigh a period each');
  const base = path.join(tempDir('load-jvm-profile-'), '01-serde');
  const kept = keepProfile(JVM_ANSWER, base);
  assert.deepStrictEqual(kept.files, ['01-serde.cpuprofile', '01-serde.folded', '01-serde.jfr']);
  assert.strictEqual(fs.readFileSync(`${base}.jfr`, 'latin1'), 'FLR\0a recording');
  assert.strictEqual(kept.longestBlock, null, 'no event loop, no block');
  assert.deepStrictEqual(kept.heaviest.map((h) => [h.stack.join(';'), h.ms, h.share]), [['thread b;Serde.write', 3, 0.6], ['thread a;Work.run', 2, 0.4]]);
  assert.deepStrictEqual([kept.safepoints, kept.gcPauses], [JVM_ANSWER.safepoints, JVM_ANSWER.gcPauses]);
  const html = profileSection(Object.assign({ folded: fs.readFileSync(`${base}.folded`, 'utf8') }, kept), 'serde');
  assert.match(html, /data-profile="jvm"/);
  assert.match(html, /safepoints \(<span data-field="safepoints">3, 0\.42 ms in all, the longest 0\.2 ms<\/span>\)/);
  assert.match(html, /the \.jfr in JDK Mission Control/);
});

function serviceWith(t, token) {
  const saved = process.env.LAB_PROFILE_TOKEN;
  process.env.LAB_PROFILE_TOKEN = token;
  try {
    return startService(makeService()).then((s) => (t.after(s.close), s));
  } finally {
    if (saved === undefined) delete process.env.LAB_PROFILE_TOKEN;
    else process.env.LAB_PROFILE_TOKEN = saved;
  }
}

test('a suite with "profile": true keeps each scenario\'s profile and names what ran in its longest block', async (t) => {
  const token = 'driver-profile-test';
  const profiled = await serviceWith(t, token);
  const unprofiled = await serviceWith(t, '');
  const dir = tempDir('load-profile-');
  fs.mkdirSync(path.join(dir, 'suites'));
  const scenario = (name, target) => ({ name, target, run: { workload: 'stringify', approach: 'native', params: { size: 2000 } }, connections: 1, durationSeconds: 2, maxRequests: 1000, expect: 'validated' });
  fs.writeFileSync(path.join(dir, 'suites', 'profiled.json'), JSON.stringify({ profile: true, scenarios: [scenario('native', 'node-async'), scenario('unprofiled', 'other')] }));
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', PROMETHEUS_URL: 'none', LAB_PROFILE_TOKEN: token, LOAD_TARGETS: `node-async=${profiled.url},other=${unprofiled.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'), RESULTS_DIR: path.join(dir, 'results') });
  t.after(() => stopDriver(driver));
  assert.strictEqual((await request(`${driver.url}/runs?suite=profiled`, { method: 'POST' })).status, 202);
  const run = await until('the suite ended', 120000, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
  });
  assert.strictEqual(run.state, 'passed', JSON.stringify(run));
  const files = fs.readdirSync(run.resultsDir);
  assert.ok(files.includes('01-native.cpuprofile') && files.includes('01-native.folded'), files.join());
  const kept = JSON.parse(fs.readFileSync(path.join(run.resultsDir, '01-native.json'), 'utf8')).profile;
  assert.strictEqual(kept.thread, 'main');
  assert.ok(kept.samples > 0);
  const block = kept.longestBlock;
  assert.strictEqual(block.from, "the runs' own longest block", JSON.stringify(block).slice(0, 300));
  assert.ok(block.stacks.length > 0 && block.stacks.some((s) => s.stack.some((f) => /^native stringify-approaches\.js:\d+$/.test(f))), JSON.stringify(block.stacks.map((s) => s.stack.slice(-3))));
  assert.match(fs.readFileSync(path.join(run.resultsDir, '01-native.folded'), 'utf8'), /native stringify-approaches\.js:\d+ \d+\n/);
  const other = JSON.parse(fs.readFileSync(path.join(run.resultsDir, '02-unprofiled.json'), 'utf8'));
  assert.match(other.profile.error, /no profiling route/);
  assert.strictEqual(other.passed, true, 'a target without profiling fails nothing');

  // The report shows both: the block's stacks and a flame graph, or why there is no profile; in Chromium, offline.
  if (!findChromium()) return;
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const failures = [];
  const page = await watchedPage(browser, (url) => url.startsWith('file:'), 'a request outside the report', { failures, requests: [] });
  await page.goto(`file://${run.report}`, { waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS });
  /* global document -- the report's */
  const shown = await page.evaluate(() => ({
    blockMs: document.querySelector('[data-scenario="native"] [data-field="profileBlockMs"]').textContent,
    stacks: [...document.querySelectorAll('[data-scenario="native"] ol.stacks li')].map((li) => li.textContent),
    frames: document.querySelectorAll('[data-scenario="native"] svg.flame g[data-frame]').length,
    none: document.querySelector('[data-scenario="unprofiled"] [data-profile="none"]').textContent,
  }));
  assert.strictEqual(Number(shown.blockMs), block.ms);
  assert.ok(shown.stacks.some((line) => /native stringify-approaches\.js:\d+/.test(line)), shown.stacks.join(' | '));
  assert.ok(shown.frames > 3, `${shown.frames} frames drawn`);
  assert.match(shown.none, /No profile: the target has no profiling route/);
  assert.deepStrictEqual(failures, []);
});
