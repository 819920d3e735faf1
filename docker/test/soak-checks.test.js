'use strict';
// The soak's verdict (docker/soak-checks.js) on figures shaped like what docker/soak.js measures: a healthy soak
// passes, and each thing the soak exists to catch fails the check that names it.
const test = require('node:test');
const assert = require('node:assert');
const { soakChecks } = require('../soak-checks');

const MB = 1e6;
const pass = (i, fields = {}) => Object.assign({
  startedAt: new Date(Date.UTC(2026, 0, 1, 0, i * 10)).toISOString(),
  endedAt: new Date(Date.UTC(2026, 0, 1, 0, i * 10 + 9)).toISOString(),
  verdict: 'passed',
  scenarios: 7,
  failedScenarios: [],
  invalid: 0,
  clientErrors: 0,
  clientTimeouts: 0,
}, fields);

function healthy() {
  return {
    passes: [pass(0), pass(1), pass(2)],
    rss: {
      held: { 'node-async': [280 * MB, 300 * MB, 310 * MB], 'jvm-serializer': [3300 * MB, 3300 * MB, 3301 * MB], prometheus: [100 * MB, 150 * MB, 200 * MB] },
      // a peak is how many large documents were alive at one scrape: reported, not held
      peaks: { 'node-async': [900 * MB, 1400 * MB, 1000 * MB], 'jvm-serializer': [3400 * MB, 3400 * MB, 3401 * MB], prometheus: [110 * MB, 160 * MB, 210 * MB] },
    },
    restarts: { 'node-async': 0, 'jvm-serializer': 0, prometheus: 0 },
    invalidRuns: { 'node-async': 0 },
    serverErrors: [{ job: 'node-async', status: '503', count: 40 }],
    prometheus: { retentionTime: '7d', retentionSeconds: 7 * 86400, limitBytes: 5e9, diskBytes: [20 * MB, 24 * MB, 28 * MB], headSeries: [5000, 5010, 5010] },
  };
}

const failing = (soak, options) => soakChecks(soak, options).filter((c) => c.passed === false).map((c) => c.name);

test('a healthy soak passes every check; Prometheus\' RSS is reported, not checked', () => {
  const checks = soakChecks(healthy());
  assert.deepStrictEqual(failing(healthy()), []);
  const prometheusRss = checks.find((c) => c.name === 'prometheus: RSS');
  assert.strictEqual(prometheusRss.passed, null);
  assert.match(prometheusRss.detail, /held 100, 150, 200; at its highest 110, 160, 210$/);
  // the first pass warms up: 280 MB is below the level the later passes hold, and the baseline is the second pass's
  assert.strictEqual(checks.find((c) => /^node-async: RSS/.test(c.name)).detail, '+3.3 %, pass 3 against the most of pass 2 (per pass, MB: held 280, 300, 310; at its highest 900, 1400, 1000; the first is the warm-up)');
  // 8 MB in 20 min after the first pass: 24 MB/h, so 20 + 24 * 168 MB after a week, under 5 GB
  assert.match(checks.find((c) => /disk/.test(c.name)).detail, /24\.0 MB\/h.*4052\.0 MB after the retention time \(7d\), under the limit/);
});

test('RSS held that grows past 10 % after the warm-up pass fails, naming the service', () => {
  const name = 'node-async: RSS held in the later passes within 10 % of the earlier ones\'';
  const soak = healthy();
  soak.rss.held['node-async'] = [300 * MB, 300 * MB, 331 * MB];
  assert.deepStrictEqual(failing(soak), [name]);
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), [], 'SOAK_MAX_RSS_GROWTH sets the bound');
  soak.rss.held['node-async'] = [300 * MB, 300 * MB, null];
  assert.deepStrictEqual(failing(soak), [name]);
  soak.rss.held['node-async'] = [300 * MB, null, 300 * MB];
  assert.deepStrictEqual(failing(soak), [name]);
});

test('over many passes, memory that settles in the earlier half passes and a leak through the later half fails', () => {
  const soak = healthy();
  soak.passes = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => pass(i));
  for (const figure of ['held', 'peaks']) for (const job of Object.keys(soak.rss[figure])) soak.rss[figure][job] = soak.passes.map(() => 300 * MB);
  // the load driver in an hour: memory handed back early in pass 2, then a level held to the end
  soak.rss.held['node-async'] = [122, 135, 171, 173, 173, 173, 173, 173, 173].map((mb) => mb * MB);
  assert.deepStrictEqual(failing(soak), []);
  assert.match(soakChecks(soak).find((c) => /^node-async: RSS/.test(c.name)).detail, /^\+0\.0 %, passes 6-9 against the most of passes 2-5 /);
  // 15 MB more every pass: the later half ends 60 MB above the earlier half's most
  soak.rss.held['node-async'] = soak.passes.map((p, i) => (300 + 15 * i) * MB);
  assert.deepStrictEqual(failing(soak), ['node-async: RSS held in the later passes within 10 % of the earlier ones\'']);
});

test('RSS past the bound that rises less and less (still settling) passes; one that rises as much every pass, or too few passes to tell, fails', () => {
  const name = 'wasm-runner: RSS held in the later passes within 10 % of the earlier ones\'';
  const soak = healthy();
  soak.passes = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => pass(i));
  // wasm-runner natively under the short soak's scenario, 30 s passes: +10.6 % against the earlier half, settling
  const settlingHeld = [111, 120, 133, 142, 149, 154, 157, 157];
  soak.rss = { held: { 'wasm-runner': settlingHeld.map((mb) => mb * MB) }, peaks: { 'wasm-runner': [118, 131, 142, 153, 153, 156, 157, 157].map((mb) => mb * MB) } };
  const rssCheck = () => soakChecks(soak).find((c) => c.name === name);
  assert.deepStrictEqual(failing(soak), []);
  assert.match(rssCheck().detail, /^\+10\.6 %, passes 5-8 against the most of passes 2-4 .*; still settling, not a leak: rose 2\.7 MB a pass across the later half, 11\.0 MB a pass across the earlier$/);
  // 8 MB more every pass, from the same start: a leak
  soak.rss.held['wasm-runner'] = soak.passes.map((p, i) => (111 + 8 * i) * MB);
  assert.deepStrictEqual(failing(soak), [name]);
  assert.match(rssCheck().detail, /no heap figures to tell a leak from memory kept after use; not settling: rose 8\.0 MB a pass across the later half, 8\.0 MB a pass across the earlier/);
  // flat, then rising in the later half
  soak.rss.held['wasm-runner'] = [111, 140, 140, 140, 150, 160, 170, 180].map((mb) => mb * MB);
  assert.deepStrictEqual(failing(soak), [name]);
  // the short soak of make test: four passes, three after the warm-up (wasm-runner's 147 then 206 MB)
  soak.passes = [0, 1, 2, 3].map((i) => pass(i));
  soak.rss = { held: { 'wasm-runner': [120, 147, 190, 206].map((mb) => mb * MB) }, peaks: { 'wasm-runner': [130, 150, 200, 210].map((mb) => mb * MB) } };
  assert.deepStrictEqual(failing(soak), [name]);
  assert.match(rssCheck().detail, /too few passes to tell settling from a leak \(3 after the warm-up, 4 needed\)$/);
});

test('RSS past the bound on a flat heap floor and external memory, within what it used before, is memory kept; a leak of objects or buffers fails', () => {
  const name = 'node14-fibers: RSS held in the later passes within 50 % of the earlier ones\'';
  // node14-fibers in one short soak of make test: 183 MB held in its last pass, its heap and buffers flat
  const soak = healthy();
  soak.passes = [0, 1, 2, 3].map((i) => pass(i));
  soak.rss = { held: { 'node14-fibers': [68, 69, 70, 183].map((mb) => mb * MB) }, peaks: { 'node14-fibers': [700, 820, 790, 900].map((mb) => mb * MB) } };
  const bytes = (mbs) => mbs.map((mb) => (mb === null ? null : mb * MB));
  const heap = (floor, external) => ({
    heapUsedFloor: { 'node14-fibers': bytes(floor) },
    heapTotalPeak: { 'node14-fibers': bytes([60, 60, 60, 60]) },
    externalPeak: { 'node14-fibers': bytes(external) },
  });
  const rssCheck = () => soakChecks(soak, { maxRssGrowth: 0.5 }).find((c) => c.name === name);

  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), [name], 'no heap figures: nothing accounts for the rise');
  soak.heap = heap([17, 17, 17, 17], [2, 2, 2, 2]);
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), []);
  assert.match(rssCheck().detail, /^\+165\.2 %, passes 3-4 against the most of pass 2 .*; memory kept after use, not a leak: heap floor at its lowest in the later passes \+0\.0 %, external memory at its highest \+0\.0 %, held at most 183 MB where it had used up to 820 MB before$/);

  soak.heap = heap([17, 17, 30, 45], [2, 2, 2, 2]);
  assert.match(rssCheck().detail, /a leak of live objects: heap floor at its lowest in the later passes \+76\.5 %/);
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), [name]);
  soak.heap = heap([17, 30, 17, 45], [2, 2, 2, 2]);
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), [], 'one later pass at the earlier floor: no leak of objects');
  soak.heap = heap([17, 17, 17, 17], [2, 20, 60, 120]);
  assert.match(rssCheck().detail, /a leak of buffers: .*external memory at its highest \+500\.0 %/);
  soak.heap = heap([17, 17, 17, 17], [2, 2, null, 2]);
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), [name], 'a pass without figures accounts for nothing');
  soak.heap = heap([17, 17, 17, 17], [2, 2, 2, 2]);
  soak.rss.peaks['node14-fibers'] = [100, 120, 150, 300].map((mb) => mb * MB);
  assert.match(rssCheck().detail, /more than it had used before: .*held at most 183 MB where it had used up to 120 MB before; too few passes to tell settling from a leak \(3 after the warm-up, 4 needed\)$/);
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), [name]);
});

test('a heap floor high in the last pass alone is garbage not yet collected, not a leak', () => {
  // node14-fibers in make test's six-pass soak (2026-11-27): RSS held and heap floors as measured; that run's peaks
  // were not kept, so these are the four-pass soak's above.
  const name = 'node14-fibers: RSS held in the later passes within 50 % of the earlier ones\'';
  const soak = healthy();
  soak.passes = [0, 1, 2, 3, 4, 5].map((i) => pass(i));
  const bytes = (mbs) => mbs.map((mb) => mb * MB);
  soak.rss = { held: { 'node14-fibers': bytes([153, 94, 94, 95, 162, 207]) }, peaks: { 'node14-fibers': bytes([700, 820, 790, 900, 880, 910]) } };
  soak.heap = {
    heapUsedFloor: { 'node14-fibers': bytes([10, 17, 17, 18, 18, 35]) },
    heapTotalPeak: { 'node14-fibers': bytes([60, 60, 60, 60, 60, 60]) },
    externalPeak: { 'node14-fibers': bytes([2, 2, 2, 2, 2, 2]) },
  };
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), []);
  const check = soakChecks(soak, { maxRssGrowth: 0.5 }).find((c) => c.name === name);
  assert.match(check.detail, /memory kept after use, not a leak: heap floor at its lowest in the later passes \+5\.9 %/);
  // the same floors rising in every later pass are a leak
  soak.heap.heapUsedFloor['node14-fibers'] = bytes([10, 17, 17, 26, 30, 35]);
  assert.deepStrictEqual(failing(soak, { maxRssGrowth: 0.5 }), [name]);
});

test('timeouts alone (a route that blocks its loop by design) are reported by scenario, not failed', () => {
  const soak = healthy();
  Object.assign(soak.passes[1], { clientErrors: 72, clientTimeouts: 72, timedOut: [{ scenario: 'node-async-offload-unoptimized', timeouts: 72 }] });
  assert.deepStrictEqual(failing(soak), []);
  const client = soakChecks(soak).find((c) => c.name === 'no connection error at the client');
  assert.strictEqual(client.detail, '0 errors besides timeouts; 72 timeouts (pass 2 node-async-offload-unoptimized 72)');
});

test('fewer than three passes (a warm-up, a baseline, one held to it), or a pass that did not run to its end, fails', () => {
  const two = healthy();
  two.passes = [pass(0), pass(1)];
  assert.ok(failing(two).includes('every pass ran to its end'));
  const stopped = healthy();
  stopped.passes[1].verdict = 'stopped';
  assert.deepStrictEqual(failing(stopped), ['every pass ran to its end']);
});

test('a restart, an invalid answer or run, a 5xx other than 503 and client errors each fail their check', () => {
  const restarted = healthy();
  restarted.restarts['node-async'] = 1;
  assert.deepStrictEqual(failing(restarted), ['no service restarted']);
  const invalidAnswer = healthy();
  invalidAnswer.passes[2].invalid = 1;
  assert.deepStrictEqual(failing(invalidAnswer), ['no invalid run']);
  const invalidRun = healthy();
  invalidRun.invalidRuns['wasm-runner'] = 2;
  assert.deepStrictEqual(failing(invalidRun), ['no invalid run']);
  const serverError = healthy();
  serverError.serverErrors.push({ job: 'jvm-serializer', status: '500', count: 1 });
  assert.deepStrictEqual(failing(serverError), ['no 5xx but admission control\'s 503']);
  const client = healthy();
  client.passes[1].clientErrors = 1;
  assert.deepStrictEqual(failing(client), ['no connection error at the client']);
});

test('Prometheus without a size limit, over it, or with growing series fails', () => {
  const unlimited = healthy();
  unlimited.prometheus.limitBytes = 0;
  assert.deepStrictEqual(failing(unlimited), ['Prometheus\' disk bounded by retention']);
  const over = healthy();
  over.prometheus.limitBytes = 25 * MB;
  assert.deepStrictEqual(failing(over), ['Prometheus\' disk bounded by retention']);
  const series = healthy();
  series.prometheus.headSeries = [5000, 5400, 5600];
  assert.deepStrictEqual(failing(series), ['Prometheus\' series after the first pass within 10 %']);
});

test('a disk that would fill the size limit before the retention time says when the limit cuts in', () => {
  const soak = healthy();
  soak.prometheus.limitBytes = 1e9;
  const disk = soakChecks(soak).find((c) => /disk/.test(c.name));
  assert.strictEqual(disk.passed, true);
  // (1000 - 28) MB at 24 MB/h
  assert.match(disk.detail, /the size limit would cut in after 41 h/);
});

test('the heap figures are reported per pass beside RSS, never checked', () => {
  const soak = healthy();
  soak.heap = {
    heapUsedFloor: { 'node-async': [40 * MB, 41 * MB, 40 * MB], 'jvm-serializer': [200 * MB, 210 * MB, 205 * MB], prometheus: [null, null, null] },
    heapTotalPeak: { 'node-async': [900 * MB, 950 * MB, 940 * MB], 'jvm-serializer': [3000 * MB, 3000 * MB, 3000 * MB], prometheus: [null, null, null] },
    externalPeak: { 'node-async': [100 * MB, 120 * MB, 110 * MB], 'jvm-serializer': [null, null, null], prometheus: [null, null, null] },
  };
  const checks = soakChecks(soak);
  assert.deepStrictEqual(failing(soak), []);
  const notes = checks.filter((c) => / heap$/.test(c.name));
  assert.deepStrictEqual(notes.map((c) => [c.name, c.passed]), [['node-async: heap', null], ['jvm-serializer: heap', null]]);
  assert.strictEqual(notes[0].detail, 'per pass, MB: used at its lowest 40, 41, 40; heap size at its highest 900, 950, 940; external memory at its highest 100, 120, 110');
  assert.strictEqual(notes[1].detail, 'per pass, MB: used at its lowest 200, 210, 205; heap size at its highest 3000, 3000, 3000');
});
