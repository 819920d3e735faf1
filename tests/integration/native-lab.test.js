'use strict';
// The whole lab natively, as `make native` runs it (ports shifted by LAB_PORT_OFFSET so a running lab is left
// alone), with one more service that exists only here (tests/fixtures/throwaway, added through LAB_EXTRA_SERVICES:
// a new runtime is one folder, no other file edited): every Prometheus target up, the event-loop lag series of the
// Node services present, the smoke suite (generated from every service's /info) passing through the load driver and
// covering every approach, every dashboard query answered with real data, the contract's one answer to every bad
// request from every service and the load driver, slow clients that starve nobody, the JVM's profile (JDK Flight
// Recorder) taken and kept as the driver does, and a clean stop on SIGTERM.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
// Before the lab's modules read the manifests: every one of them (and the lab's processes) sees the throwaway service.
process.env.LAB_EXTRA_SERVICES = path.join(__dirname, '..', 'fixtures', 'throwaway');
const { ROOT, readManifests, nodeServicesOf } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { checkDashboardQueries } = require('@lab/dashboards/check-queries');
const { request, until, tempDir } = require('@lab/test-kit');
const { edgeCases, runCases, checkCases } = require('@lab/test-kit/bad-requests');
const { holdSlowConnections } = require('@lab/test-kit/slow-clients');
const { checkReportInBrowser, findChromium } = require('@lab/load/test/report-browser');
const { checkLivePageDuringRun } = require('@lab/load/test/live-browser');
const { takeProfile, keepProfile } = require('@lab/load/src/profile/take-profile');

const { INTEGRATION_PORT_OFFSETS } = require('./port-offsets');
const OFFSET = INTEGRATION_PORT_OFFSETS['native-lab'];
const STARTUP_TIMEOUT_MS = 180000;
const NODE_SERVICES = nodeServicesOf(readManifests()).map((m) => m.name);

const DASHBOARD_DATA_BOUND_MS = 60000;
// Shared by the lab's services and its driver, as compose shares LAB_PROFILE_TOKEN: the services get POST /profile.
const PROFILE_TOKEN = 'native-lab-profile';

async function query(prometheus, expr) {
  const body = await (await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(expr)}`)).json();
  assert.strictEqual(body.status, 'success', JSON.stringify(body));
  return body.data.result;
}

test('the native lab: targets up, smoke suite, dashboard queries, bad input, clean stop', { timeout: 600000 }, async (t) => {
  const { components, prometheus: prom } = nativeLab(OFFSET);
  const prometheus = `http://127.0.0.1:${prom.port}`;
  const byName = Object.fromEntries(components.map((c) => [c.name, c]));
  const stateDir = tempDir('lab-native-');
  const lab = spawn(process.execPath, [path.join(ROOT, 'scripts', 'native.js')], {
    cwd: ROOT,
    env: Object.assign({}, process.env, { LAB_PORT_OFFSET: String(OFFSET), LAB_STATE_DIR: stateDir, LOAD_SUITE: 'none', LAB_PROFILE_TOKEN: PROFILE_TOKEN }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  lab.stdout.on('data', (chunk) => (output += chunk));
  lab.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => lab.on('exit', (code, signal) => resolve({ code, signal })));
  t.after(() => {
    if (lab.exitCode === null && lab.signalCode === null) lab.kill('SIGTERM');
    if (process.env.LAB_TEST_VERBOSE || t.passed === false) console.log(output);
  });
  // Prometheus' data and the lab's state: removed once the lab has exited (it writes there until then).
  t.after(async () => {
    await exited;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  await t.test('every Prometheus target is up', async () => {
    await until('all targets up', STARTUP_TIMEOUT_MS, async () => {
      const body = await (await fetch(`${prometheus}/api/v1/targets`)).json();
      const active = body.data.activeTargets;
      const down = active.filter((a) => a.health !== 'up').map((a) => `${a.labels.job}: ${a.health} ${a.lastError}`);
      return { done: active.length === components.length + 1 && down.length === 0, why: down.join('; ') || `${active.length} targets` };
    });
    const up = await query(prometheus, 'up{job="throwaway"} == 1');
    assert.strictEqual(up.length, 1, 'Prometheus scrapes the throwaway service, found through its manifest alone');
  });

  await t.test('the event-loop lag series exist for every Node service', async () => {
    await until('lag series', 60000, async () => {
      const jobs = (await query(prometheus, 'nodejs_eventloop_lag_p99_seconds')).map((s) => s.metric.job).sort();
      return { done: NODE_SERVICES.every((j) => jobs.includes(j)), why: `jobs: ${jobs}` };
    });
  });

  let smokeRun;
  let live; // what the live page showed during the smoke run: {found} or {error}
  await t.test('the smoke suite passes through the load driver', async () => {
    const load = byName.load.url;
    const started = await request(`${load}/runs?suite=smoke`, { method: 'POST' });
    assert.strictEqual(started.status, 202, started.text);
    // The live page is opened while the suite runs, and checked in the next test.
    const watching = findChromium()
      ? checkLivePageDuringRun(load, prometheus, { nodeTargets: NODE_SERVICES, screenshot: process.env.LAB_LIVE_SCREENSHOT }).then((found) => ({ found }), (error) => ({ error }))
      : Promise.resolve({ skip: true });
    smokeRun = await until('smoke suite finished', 300000, async () => {
      const latest = (await request(`${load}/runs/latest`)).json;
      return { done: !['waiting', 'running'].includes(latest.state), value: latest, why: latest.state };
    });
    live = await watching;
    assert.strictEqual(smokeRun.state, 'passed', JSON.stringify(smokeRun.completed, null, 2));
    assert.ok(fs.existsSync(path.join(smokeRun.resultsDir, 'run.json')));
  });

  await t.test('during the smoke run, the live page showed the scenario running and a lag chart as new as Prometheus', (st) => {
    if (live.skip) {
      st.skip("no chromium executable: install Debian's chromium (scripts/install-system-packages.sh) or set CHROMIUM_PATH");
      return;
    }
    if (live.error) throw live.error;
    const { found } = live;
    if (process.env.LAB_TEST_VERBOSE) console.log(JSON.stringify(found));
    assert.ok(smokeRun.completed.some((s) => s.name === found.scenario && s.target === found.target), `${found.scenario} on ${found.target} is not a scenario of the run`);
    assert.ok(found.chartNewest >= Math.ceil(found.prometheusNewestAtStart) && found.lagPoints > 0, JSON.stringify(found));
    assert.deepStrictEqual(found.lagLabels, ['lag p99 (ms)', 'lag max (ms)']);
    // A row of charts for every target: lag with ELU and GC pauses beside it (the JVM: its GC pauses), the probe beside
    // the scenario, CPU and RSS.
    for (const c of components.filter((x) => x.kind !== 'load')) {
      const kinds = found.charts.filter((chart) => chart.startsWith(`${c.name}/`)).map((chart) => chart.split('/')[1]);
      assert.deepStrictEqual(kinds, (c.kind === 'jvm' ? ['gc'] : ['lag', 'elu-gc']).concat(['latency', 'resources']), c.name);
    }
  });

  await t.test("each scenario's result holds the server's side from Prometheus and its thresholds evaluated", () => {
    const files = fs.readdirSync(smokeRun.resultsDir).filter((f) => /^\d+-.*\.json$/.test(f));
    const withRunTimes = new Set();
    assert.strictEqual(files.length, smokeRun.completed.length);
    for (const file of files) {
      const outcome = JSON.parse(fs.readFileSync(path.join(smokeRun.resultsDir, file), 'utf8'));
      const where = `${file}: ${JSON.stringify(outcome.server).slice(0, 300)}`;
      assert.strictEqual(outcome.server.available, true, where);
      const own = outcome.server.jobs[outcome.scenario.target];
      assert.ok(own && own.cpuCores.length > 0 && own.rssBytes.length > 0, where);
      if (NODE_SERVICES.includes(outcome.scenario.target)) assert.ok(own.lagP99Seconds.length > 0 && own.lagMaxSeconds.length > 0, where);
      if (outcome.scenario.path.startsWith('/run/')) {
        assert.ok(Array.isArray(outcome.server.run.p99Seconds), `${where}: no run times of the approach under load`);
        // rate() needs two samples of a series, and a scenario of a second may be its approach's first: only some
        // scenarios have points, and each service has some.
        if (outcome.server.run.p99Seconds.length > 0) withRunTimes.add(outcome.scenario.target);
      }
      assert.ok(outcome.perSecond.length > 0 && outcome.driver && outcome.littlesLaw, file);
      for (const threshold of outcome.thresholds) {
        const serverSide = threshold.name.startsWith('server') && !NODE_SERVICES.includes(outcome.scenario.target);
        // A scenario that validates no /run answer (expect: status) has no run to read its own block from.
        const noRuns = threshold.name === 'ownBlockMaxMs' && outcome.checks.runs.count === 0;
        assert.strictEqual(threshold.passed, serverSide || noRuns ? null : true, `${file}: ${JSON.stringify(threshold)}`);
      }
      // The machine beside the lab was watched: its CPU outside the lab's jobs, a share of its CPUs.
      const m = outcome.machineBusy;
      assert.ok(m && m.cpus > 0 && m.elsewherePercent >= 0 && m.elsewherePercent <= m.elsewherePeakPercent && m.elsewherePeakPercent <= 100 && typeof m.busy === 'boolean', `${file}: machineBusy ${JSON.stringify(m)}`);
    }
    const services = components.filter((c) => c.kind !== 'load').map((c) => c.name);
    assert.deepStrictEqual([...withRunTimes].sort(), services.sort(), 'every service has run times in some scenario');
    const fast = smokeRun.completed.filter((s) => s.approach === 'fast');
    assert.ok(fast.length > 0 && fast.every((s) => s.thresholds.some((th) => th.name === 'serverLagP99Ms' && th.passed === true)), 'fast is held to its server lag');
  });

  await t.test("the smoke run's report.html shows the server's lag beside the client's latency for every scenario, offline", async (st) => {
    assert.strictEqual(smokeRun.report, path.join(smokeRun.resultsDir, 'report.html'));
    if (!findChromium()) {
      st.skip("no chromium executable: install Debian's chromium (scripts/install-system-packages.sh) or set CHROMIUM_PATH");
      return;
    }
    const found = await checkReportInBrowser(smokeRun.report);
    assert.strictEqual(found.scenarios, smokeRun.completed.length);
    // Every scenario on a Node service has its lag chart; the JVM's say why they have none.
    const nodeScenarios = smokeRun.completed.filter((s) => NODE_SERVICES.includes(s.target)).length;
    assert.ok(found.serverCharts >= nodeScenarios, `${found.serverCharts} server charts for ${nodeScenarios} scenarios on Node services`);
  });

  await t.test('make compare of the smoke run against itself: no significant change, exit 0', () => {
    const compared = spawnSync(process.execPath, [path.join(ROOT, 'load', 'src', 'compare', 'compare.js'), '--html', path.join(stateDir, 'compare.html'), smokeRun.resultsDir, smokeRun.resultsDir], { encoding: 'utf8' });
    assert.strictEqual(compared.status, 0, compared.stdout + compared.stderr);
    assert.doesNotMatch(compared.stdout, /▼|▲/, 'a run compared with itself has changed nothing');
    assert.ok(fs.existsSync(path.join(stateDir, 'compare.html')));
  });

  await t.test('the results of the test run are removed', () => {
    fs.rmSync(smokeRun.resultsDir, { recursive: true }); // a test's results are not a user's results
  });

  await t.test('the smoke suite covered every approach of every service, the throwaway one included', async () => {
    const ran = smokeRun.completed.filter((s) => s.passed);
    for (const c of components.filter((c) => c.kind !== 'load')) {
      const info = (await request(`${c.url}/info`)).json;
      assert.strictEqual(info.service, c.name);
      // What make try starts (the manifest's `documents`) is what keeps documents (its /info's).
      assert.strictEqual(Boolean(info.documents), readManifests().find((m) => m.name === c.name).documents === true, `${c.name}: manifest's documents and /info's disagree`);
      for (const [workload, w] of Object.entries(info.workloads)) {
        // Every approach, and with an `op` parameter (transfer: roundtrip, count, create) every approach of every op.
        const ops = w.params.op ? w.params.op.values : [undefined];
        for (const approach of w.approaches) {
          for (const op of ops) {
            const covered = ran.some((s) => {
              if (s.target !== c.name || !s.path.startsWith(`/run/${workload}?`)) return false;
              const query = new URLSearchParams(s.path.split('?')[1]);
              return query.get('approach') === approach && (op === undefined || (query.get('op') || w.params.op.default) === op);
            });
            assert.ok(covered, `the smoke run passed no scenario for ${c.name} ${workload} ${approach}${op ? ` op=${op}` : ''}`);
          }
        }
      }
    }
    assert.ok(ran.some((s) => s.target === 'throwaway'), 'the throwaway service was not in the smoke run');
  });

  await t.test('every dashboard query returns series from the real Prometheus', async () => {
    // Asked again until every query has data (a rate needs a few scrapes after the last scenario), not after a fixed
    // sleep; DASHBOARD_DATA_BOUND_MS only bounds a query that never gets any.
    const rows = await until('every dashboard query answered with series', DASHBOARD_DATA_BOUND_MS, async () => {
      const all = await checkDashboardQueries(prometheus, { requireNodeJobs: true });
      const bad = all.filter((r) => r.status !== 'OK');
      return { done: bad.length === 0, value: all, why: bad.map((r) => `${r.status} ${r.panel}: ${r.query || r.expr} ${r.error || ''}`).join('\n') };
    });
    assert.ok(rows.length >= 6, `only ${rows.length} queries`);
  });

  await t.test("the JVM's profile, taken and kept by the driver's code: the serde code's stacks, safepoints, the recording", async () => {
    const jvm = byName['jvm-serializer'].url;
    let answer = null;
    const taking = takeProfile(jvm, 1, PROFILE_TOKEN).then((a) => (answer = a));
    // Serde runs until the profile answers, however long the machine takes over its second.
    let runs = 0;
    while (answer === null) {
      const res = await request(`${jvm}/run/serde?approach=json&size=2000`);
      assert.strictEqual(res.status, 200, res.text);
      runs++;
    }
    await taking;
    assert.strictEqual(answer.error, undefined, answer.error);
    const base = path.join(tempDir('lab-native-profile-'), '01-serde');
    const kept = keepProfile(answer, base);
    // Any stack the profile kept, not only the heaviest: on a loaded machine a second may hold a run or two, and its
    // heaviest stacks can all be samples whose walk JFR cut short under the decode (seen once: 2 runs, 8 such stacks).
    const stacks = fs.readFileSync(`${base}.folded`, 'utf8').split('\n').filter((line) => line.length > 0);
    const serde = stacks.filter((line) => line.slice(0, line.lastIndexOf(' ')).split(';').some((f) => /^(SerdeWorkload|JsonApproach)\./.test(f)));
    assert.ok(serde.length > 0, `${runs} runs, ${stacks.length} stacks, none through the serde code; the heaviest: ${kept.heaviest.map((h) => h.stack.join(';')).join(' | ')}`);
    assert.ok(Number.isInteger(kept.safepoints.count) && Number.isInteger(kept.gcPauses.count), JSON.stringify(kept));
    assert.strictEqual(fs.readFileSync(`${base}.jfr`).subarray(0, 3).toString('latin1'), 'FLR');
  });

  await t.test("every HTTP face of the lab gives CONTRACT.md's one answer to each bad request, and keeps serving", async () => {
    const problems = [];
    for (const c of components) {
      const info = c.kind === 'load' ? null : (await request(`${c.url}/info`)).json;
      const cases = info ? edgeCases().concat(runCases(info)) : edgeCases();
      for (const problem of await checkCases(c.port, cases)) problems.push(`${c.name}: ${problem}`);
      assert.strictEqual((await request(`${c.url}/healthz`)).status, 200, `${c.name} stopped serving`);
    }
    assert.deepStrictEqual(problems, []);
  });

  await t.test('200 connections that send half a request head do not stop any /healthz', async () => {
    for (const c of components) {
      const slow = await holdSlowConnections(c.port, 200);
      try {
        assert.strictEqual((await request(`${c.url}/healthz`)).status, 200, c.name);
      } finally {
        slow.release();
      }
    }
  });

  await t.test('SIGTERM stops every process', async () => {
    lab.kill('SIGTERM');
    const { code } = await exited;
    assert.strictEqual(code, 0, output.slice(-3000));
    for (const c of components) await assert.rejects(request(`${c.url}/healthz`), /ECONNREFUSED/, c.name);
  });
});
