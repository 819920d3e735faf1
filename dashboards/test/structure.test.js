'use strict';
// The dashboards and their provisioning, checked by structure: Grafana cannot be installed here, so this test and
// check-queries.js (every query against a real Prometheus) stand in for loading them.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { JSON_DIR, NODE_JOBS, LAG_METRICS, STALL_FIRST, readDashboards, panelsOf, isLagPanel, jobsSelected } = require('../read-dashboards');
const { substituteVariables } = require('../check-queries');
const { readManifests } = require('../../lab-topology/manifests');

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
const dashboards = readDashboards();
const read = (...parts) => fs.readFileSync(path.join(DASHBOARDS_DIR, ...parts), 'utf8');

// The values of `key: value` lines (comments dropped). The provisioning files are kept to flat keys, one per line,
// so this is all the YAML the test needs; asserting exactly one occurrence keeps it strict.
function yamlValues(text, key) {
  const pattern = new RegExp(`^\\s*(?:- )?${key}:\\s*(.*?)\\s*$`);
  return text
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, ''))
    .map((line) => line.match(pattern))
    .filter(Boolean)
    .map((m) => m[1].replace(/^(['"])(.*)\1$/, '$2'));
}
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
        // Fixed ranges would break at another scrape interval or zoom level.
        for (const range of t.expr.match(/\[[^\]]*\]/g) || []) assert.equal(range, '[$__rate_interval]', `${where}: range ${range}`);
        assert.doesNotThrow(() => substituteVariables(t.expr), `${where}: a variable check-queries.js cannot substitute`);
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
  const scrapeInterval = yamlValue(fs.readFileSync(path.join(DASHBOARDS_DIR, '..', 'prometheus.yml'), 'utf8'), 'scrape_interval');
  assert.equal(yamlValue(text, 'timeInterval'), scrapeInterval, 'timeInterval = prometheus.yml scrape_interval');
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
