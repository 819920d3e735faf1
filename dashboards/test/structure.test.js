'use strict';
// The dashboards and their provisioning, checked by structure: Grafana cannot be installed here, so this test and
// check-queries.js (every query against a real Prometheus) stand in for loading them.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {
  JSON_DIR,
  NODE_JOBS,
  LAG_METRICS,
  STALL_FIRST,
  WHY_PANELS,
  readDashboards,
  panelsOf,
  annotationsOf,
  variablesOf,
  variableQuery,
  isLagPanel,
  jobsSelected,
  yamlValues,
} = require('../read-dashboards');
const { substituteVariables, LABEL_VALUES } = require('../check-queries');
const { readManifests } = require('@lab/lab-topology/manifests');
const { METRIC, JVM_METRIC } = require('@lab/node-kit/metrics');

const DASHBOARDS_DIR = path.join(__dirname, '..');
const DATASOURCE_UID = 'lab-prometheus';
const GRID_COLUMNS = 24;
// The Node jobs each dashboard's lag panel shows: the overview all of them, the serialization dashboard the services
// that run stringify and parse. A dashboard missing here fails, so a new one says which services it is about.
const LAG_JOBS = {
  'lab-overview': NODE_JOBS,
  'lab-serialization': ['node14-fibers', 'node-async'],
  'lab-offload': ['node-async'],
  'lab-wasm': ['wasm-runner'],
};
// The load driver's gauge (load/src/driver/metrics.js), 1 while a scenario runs and 0 after, and its scrape job.
const SCENARIO_ACTIVE = 'lab_load_scenario_active';
const LOAD_JOB = 'load';
// The All value of every variable: any value of the label. Not .*, which also matches a series without the label.
const ALL_VALUE = '.+';
const dashboards = readDashboards();
const read = (...parts) => fs.readFileSync(path.join(DASHBOARDS_DIR, ...parts), 'utf8');
const scrapeInterval = () => yamlValue(fs.readFileSync(path.join(DASHBOARDS_DIR, '..', 'prometheus.yml'), 'utf8'), 'scrape_interval');

// Asserting exactly one occurrence keeps the flat-key YAML reading strict.
const yamlValue = (text, key) => {
  const values = yamlValues(text, key);
  assert.equal(values.length, 1, `exactly one ${key}: in ${values}`);
  return values[0];
};

test('there is at least one dashboard and every uid and title is unique', () => {
  assert.ok(dashboards.length > 0, `no dashboard JSON in ${JSON_DIR}`);
  for (const key of ['uid', 'title']) {
    const values = dashboards.map(({ dashboard }) => dashboard[key]);
    values.forEach((v, i) => assert.ok(typeof v === 'string' && v.length > 0, `${dashboards[i].file}: no ${key}`));
    assert.equal(new Set(values).size, values.length, `duplicate ${key}: ${values}`);
  }
  const uids = dashboards.map(({ dashboard }) => dashboard.uid);
  for (const uid of Object.keys(LAG_JOBS)) assert.ok(uids.includes(uid), `LAG_JOBS names ${uid}, which no dashboard has`);
});

for (const { file, dashboard } of dashboards) {
  const name = path.basename(file);

  test(`${name}: every panel queries the lab datasource, with a position and a unit`, () => {
    const panels = panelsOf(dashboard);
    assert.ok(panels.length > 0, 'no panels');
    for (const panel of panels) {
      const where = `${name} / ${panel.title}`;
      assert.ok(panel.title, `${where}: no title`);
      assert.ok(panel.description, `${where}: no description`);
      assert.equal(panel.datasource?.uid, DATASOURCE_UID, `${where}: datasource`);
      for (const k of ['x', 'y', 'w', 'h']) assert.equal(typeof panel.gridPos?.[k], 'number', `${where}: gridPos.${k}`);
      const unit = panel.fieldConfig?.defaults?.unit;
      assert.ok(typeof unit === 'string' && unit.length > 0, `${where}: no unit`);
      const targets = panel.targets || [];
      assert.ok(targets.some((t) => (t.expr || '').trim()), `${where}: no target with an expr`);
      for (const t of targets) {
        assert.ok((t.expr || '').trim(), `${where} [${t.refId}]: empty expr`);
        if (t.datasource) assert.equal(t.datasource.uid, DATASOURCE_UID, `${where} [${t.refId}]: target datasource`);
        // Fixed ranges would break at another scrape interval or zoom level: a window is Grafana's rate interval, or
        // the dashboard's whole range where two series observed minutes apart are set against each other.
        for (const range of t.expr.match(/\[[^\]]*\]/g) || []) assert.ok(['[$__rate_interval]', '[$__range]'].includes(range), `${where}: range ${range}`);
        assert.doesNotThrow(() => substituteVariables(t.expr, dashboard), `${where}: a variable check-queries.js cannot substitute (not defined, or no All value)`);
      }
    }
  });

  test(`${name}: panel ids are unique and the panels fit the ${GRID_COLUMNS}-column grid without overlapping`, () => {
    const panels = panelsOf(dashboard);
    const ids = panels.map((p) => p.id);
    assert.ok(ids.every(Number.isInteger), `ids ${ids}`);
    assert.equal(new Set(ids).size, ids.length, `duplicate id in ${ids}`);
    for (const { title, gridPos: g } of panels) {
      assert.ok(g.x >= 0 && g.y >= 0 && g.w > 0 && g.h > 0 && g.x + g.w <= GRID_COLUMNS, `${title}: gridPos ${JSON.stringify(g)}`);
    }
    const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    panels.forEach((a, i) =>
      panels.slice(i + 1).forEach((b) => assert.ok(!overlap(a.gridPos, b.gridPos), `"${a.title}" overlaps "${b.title}"`)),
    );
  });

  test(`${name}: the event-loop lag panel comes first and shows p99 and max of its Node services by job`, () => {
    const [first] = panelsOf(dashboard);
    if (STALL_FIRST[dashboard.uid]) {
      assert.ok(first.targets.every((t) => t.expr.includes(STALL_FIRST[dashboard.uid])), `first panel is "${first.title}"`);
      assert.deepEqual([first.gridPos.x, first.gridPos.y], [0, 0]);
      return;
    }
    const expected = LAG_JOBS[dashboard.uid];
    assert.ok(expected, `LAG_JOBS names no Node jobs for uid ${dashboard.uid}`);
    assert.ok(isLagPanel(first), `first panel is "${first.title}"`);
    assert.deepEqual([first.gridPos.x, first.gridPos.y], [0, 0]);
    for (const metric of LAG_METRICS) {
      const targets = first.targets.filter((t) => t.expr.includes(metric));
      assert.equal(targets.length, 1, `one query of ${metric}`);
      assert.deepEqual(jobsSelected(targets[0].expr, NODE_JOBS), expected, `${metric} selects ${expected}`);
      assert.match(targets[0].legendFormat, /\{\{job\}\}/, 'legend by job');
    }
  });

  test(`${name}: why a service stalls, beside the lag: event-loop utilization, GC pauses, the JVM's thread wait`, () => {
    const why = WHY_PANELS[dashboard.uid];
    assert.ok(why, `WHY_PANELS names nothing for uid ${dashboard.uid}`);
    const panels = panelsOf(dashboard);
    const [first] = panels;
    const panelWith = (...metrics) => panels.find((p) => metrics.every((m) => p.targets.some((t) => t.expr.includes(m))));
    const byJob = (panel) => panel.targets.every((t) => /\{\{job\}\}/.test(t.legendFormat || '') && /\bby \(job\b/.test(t.expr));
    if (why.elu) {
      const elu = panelWith(METRIC.loopBusy);
      assert.ok(elu, 'an event-loop utilization panel');
      assert.match(elu.targets[0].expr, new RegExp(`\\brate\\(${METRIC.loopBusy}\\b`), 'the rate of the busy seconds');
      assert.equal(elu.gridPos.y, first.gridPos.y, 'on the lag panel\'s row');
      assert.equal(elu.fieldConfig.defaults.unit, 'percentunit');
      assert.deepEqual(jobsSelected(elu.targets[0].expr, NODE_JOBS), why.elu);
      assert.ok(byJob(elu), 'a series per job');
      // Beside the busy share, the share the loop's thread waited for a CPU: what of the lag is the machine's.
      const wait = elu.targets.find((t) => new RegExp(`\\brate\\(${METRIC.loopCpuWait}\\b`).test(t.expr));
      assert.ok(wait, 'the wait for a CPU beside the utilization');
      assert.deepEqual(jobsSelected(wait.expr, NODE_JOBS), why.elu);
      assert.match(wait.legendFormat, /waiting for a CPU/);
    }
    const gc = panelWith(METRIC.gcPauseMax, `${METRIC.gcPause}_bucket`);
    assert.ok(gc, 'a panel of the longest GC pause and the p99 of the pauses');
    assert.ok(byJob(gc), 'a series per job');
    assert.equal(gc.fieldConfig.defaults.unit, 's');
    if (why.elu) assert.deepEqual(jobsSelected(gc.targets[0].expr, NODE_JOBS), why.elu, 'the GC pauses of the dashboard\'s Node jobs');
    assert.ok(gc.gridPos.y === first.gridPos.y || gc.gridPos.y === first.gridPos.y + first.gridPos.h, 'beside or right under the first panel');
    const wait = panelWith(JVM_METRIC.threadWaitMax, `${JVM_METRIC.threadWait}_bucket`);
    if (!why.threadWait) return assert.equal(wait, undefined, 'no JVM here');
    assert.ok(wait, "a panel of the JVM's wait for a handler thread");
    assert.match(wait.title, /stand-in for event-loop lag/, 'named as the stand-in it is');
    assert.ok(byJob(wait), 'a series per job');
  });

  test(`${name}: Grafana's built-in annotations, and each load scenario as a region from Prometheus`, () => {
    const list = dashboard.annotations?.list || [];
    const builtIn = list.filter((a) => a.builtIn);
    assert.equal(builtIn.length, 1, 'one built-in annotation');
    assert.equal(builtIn[0].name, 'Annotations & Alerts');
    assert.equal(builtIn[0].type, 'dashboard');
    assert.equal(builtIn[0].datasource?.uid, '-- Grafana --');
    const scenarios = annotationsOf(dashboard);
    assert.equal(scenarios.length, 1, `one annotation query besides the built-in one, found ${scenarios.map((a) => a.name)}`);
    const [{ expr, interval, annotation: a }] = scenarios;
    assert.equal(a.datasource?.uid, DATASOURCE_UID, 'datasource');
    assert.equal(a.enable, true, 'shown when the dashboard opens');
    assert.ok(a.target?.expr && a.expr === undefined && a.step === undefined, "Grafana 12's form: the query in target, not the older top-level expr/step");
    assert.match(expr, new RegExp(`\\b${SCENARIO_ACTIVE}\\b`));
    assert.doesNotThrow(() => substituteVariables(expr, dashboard), 'a variable check-queries.js cannot substitute');
    assert.deepEqual(jobsSelected(expr, [LOAD_JOB, ...NODE_JOBS]), [LOAD_JOB], `only the ${LOAD_JOB} job's gauge`);
    for (const [, labels] of expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)) {
      assert.deepEqual(labels.split(',').map((l) => l.trim()).sort(), ['scenario', 'target'], 'one series per scenario and target: by (scenario, target)');
    }
    // A region per run: Grafana joins the samples above 0 that are at most a step apart, so the step is the scrape
    // interval (a coarser one can miss a short scenario or join two runs).
    assert.equal(interval, scrapeInterval(), 'min step = prometheus.yml scrape_interval');
    assert.equal(a.titleFormat, '{{scenario}}', 'title: the scenario');
    assert.deepEqual(a.tagKeys.split(','), ['target'], 'tag: the target');
    assert.equal(a.useValueForTime, false, 'sample times, not values, place the region');
  });

  test(`${name}: every variable is an All-by-default multi-value label_values() of its own label, and is used`, () => {
    const exprs = panelsOf(dashboard).flatMap((p) => p.targets.map((t) => t.expr)).concat(annotationsOf(dashboard).map((a) => a.expr));
    for (const v of variablesOf(dashboard)) {
      const where = `${name} $${v.name}`;
      assert.equal(v.type, 'query', `${where}: type`);
      assert.equal(v.datasource?.uid, DATASOURCE_UID, `${where}: datasource`);
      assert.ok(v.multi && v.includeAll, `${where}: multi-value with All`);
      assert.equal(v.allValue, ALL_VALUE, `${where}: All value`);
      assert.deepEqual(v.current?.value, ['$__all'], `${where}: opens at All`);
      const m = LABEL_VALUES.exec(variableQuery(v));
      assert.ok(m && m[1], `${where}: query ${variableQuery(v)} is not label_values(<selector>, label)`);
      assert.equal(m[2].trim(), v.name, `${where}: lists the values of the label it is named after`);
      const used = new RegExp(`\\$(?:${v.name}\\b|\\{${v.name}\\})`);
      assert.ok(exprs.some((e) => used.test(e)), `${where}: no query uses it`);
    }
  });

  test(`${name}: a panel with a series per approach filters each of its metrics by $approach`, () => {
    const perApproach = panelsOf(dashboard).flatMap((p) => p.targets.map((t) => ({ panel: p.title, ...t }))).filter((t) => /\{\{\s*approach\s*\}\}/.test(t.legendFormat || ''));
    if (perApproach.length === 0) return;
    assert.ok(variablesOf(dashboard).some((v) => v.name === 'approach'), 'per-approach panels, but no $approach variable');
    for (const t of perApproach) {
      const selectors = [...t.expr.matchAll(/\b(lab_\w+)(\{[^}]*\})?/g)];
      assert.ok(selectors.length > 0, `${t.panel} [${t.refId}]: no lab_ metric`);
      for (const [selector, metric, matchers = ''] of selectors) {
        assert.ok(matchers.includes('approach=~"$approach"'), `${t.panel} [${t.refId}]: ${metric} is not filtered by approach=~"$approach" (${selector})`);
      }
    }
  });

  test(`${name}: read-only, refreshes live over the last 15 minutes`, () => {
    assert.equal(dashboard.editable, false);
    assert.deepEqual(dashboard.time, { from: 'now-15m', to: 'now' });
    assert.ok(['2s', '5s'].includes(dashboard.refresh), `refresh ${dashboard.refresh}`);
    assert.ok(dashboard.schemaVersion >= 39, `schemaVersion ${dashboard.schemaVersion}`);
  });
}

test('the datasource is the default Prometheus, with the uid the panels use and the scrape interval', () => {
  const text = read('datasources', 'lab-prometheus.yml');
  assert.equal(yamlValue(text, 'apiVersion'), '1');
  assert.equal(yamlValues(text, 'name').length, 1, 'exactly one datasource');
  assert.equal(yamlValue(text, 'type'), 'prometheus');
  assert.equal(yamlValue(text, 'uid'), DATASOURCE_UID);
  assert.equal(yamlValue(text, 'url'), 'http://prometheus:9090');
  assert.equal(yamlValue(text, 'isDefault'), 'true');
  assert.equal(yamlValue(text, 'timeInterval'), scrapeInterval(), 'timeInterval = prometheus.yml scrape_interval');
});

test('the dashboard provider loads the JSON folder read-only, at the mount the README documents', () => {
  const text = read('dashboards', 'lab.yml');
  assert.equal(yamlValue(text, 'apiVersion'), '1');
  assert.equal(yamlValues(text, 'name').length, 1, 'exactly one provider');
  assert.equal(yamlValue(text, 'type'), 'file');
  assert.equal(yamlValue(text, 'allowUiUpdates'), 'false');
  assert.equal(yamlValue(text, 'disableDeletion'), 'true');
  const providerPath = yamlValue(text, 'path');
  const folder = path.basename(JSON_DIR);
  assert.ok(providerPath.endsWith(`/${folder}`), `path ${providerPath} is not the ${folder} folder`);
  const mount = providerPath.slice(0, -folder.length - 1);
  const readme = read('README.md');
  assert.ok(readme.includes(`./dashboards:${mount}:ro`), `README.md documents the mount ./dashboards:${mount}:ro`);
  assert.ok(readme.includes(`GF_PATHS_PROVISIONING=${mount}`), `README.md sets GF_PATHS_PROVISIONING=${mount}`);
});

test('every Node job of the lag panels is a Node service of the manifests (whose names are their scrape jobs)', () => {
  const jobs = readManifests().filter((m) => m.kind === 'node').map((m) => m.name);
  assert.deepStrictEqual(NODE_JOBS, jobs);
  for (const [uid, lagJobs] of Object.entries(LAG_JOBS)) {
    for (const job of lagJobs) assert.ok(NODE_JOBS.includes(job), `${uid}: ${job} is not a Node job`);
  }
});
