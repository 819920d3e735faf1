'use strict';
// The facts the dashboard test and the checkers (check-queries.js against Prometheus, docker/grafana-check.js against
// Grafana) share: where the JSON and the provisioning live, which jobs are Node services, how to walk a dashboard's
// panels, annotations and variables, and which jobs a query selects.

const fs = require('node:fs');
const path = require('node:path');
const { readManifests, nodeServicesOf } = require('@lab/lab-topology/manifests');

// Mounted into Grafana as <mount>/json (see README.md and dashboards/lab.yml).
const JSON_DIR = path.join(__dirname, 'json');
const DATASOURCE_FILE = path.join(__dirname, 'datasources', 'lab-prometheus.yml');

// The Node services' scrape jobs (their manifests' kind): the ones with prom-client's event-loop metrics.
const NODE_JOBS = nodeServicesOf(readManifests()).map((m) => m.name);
const LAG_METRICS = ['nodejs_eventloop_lag_p99_seconds', 'nodejs_eventloop_lag_max_seconds'];
// A dashboard about a service with no event loop starts with what stalls that service instead (by uid): the JVM's GC
// pauses. The others start with the event-loop lag of their Node services.
const STALL_FIRST = { 'lab-jvm': 'jvm_gc_collection_seconds' };
// Why a service stalls, beside what shows that it does (by uid): the event-loop utilization of the Node jobs (`elu`)
// next to the lag panel, and on every dashboard its jobs' GC pauses; the JVM's wait for a handler thread stands in for
// its lag (`threadWait`).
const WHY_PANELS = {
  'lab-overview': { elu: NODE_JOBS, threadWait: true },
  'lab-serialization': { elu: ['node14-fibers', 'node-async'] },
  'lab-offload': { elu: ['node-async'] },
  'lab-wasm': { elu: ['wasm-runner'] },
  'lab-jvm': { threadWait: true },
};

// Every dashboard file, parsed; a file that does not parse throws with its name.
function readDashboards(dir = JSON_DIR) {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      try {
        return { file, dashboard: JSON.parse(fs.readFileSync(file, 'utf8')) };
      } catch (err) {
        throw new Error(`${file}: ${err.message}`, { cause: err });
      }
    });
}

// The panels that draw data, in the order Grafana lays them out (top to bottom, then left to right). Rows are
// containers, not panels: a collapsed row keeps its panels inside it.
function panelsOf(dashboard) {
  const flat = [];
  for (const panel of dashboard.panels || []) {
    if (panel.type === 'row') flat.push(...(panel.panels || []));
    else flat.push(panel);
  }
  const position = (p) => (p.gridPos ? [p.gridPos.y, p.gridPos.x] : [Infinity, Infinity]);
  return flat.sort((a, b) => {
    const [ay, ax] = position(a);
    const [by, bx] = position(b);
    return ay - by || ax - bx;
  });
}

// The annotation queries a dashboard adds to Grafana's built-in one: {name, expr, interval, annotation}. Grafana 12's
// Prometheus annotation support reads the query from `target` (expr, interval: the min step), falling back to the
// older top-level `expr` and `step`; so does this.
function annotationsOf(dashboard) {
  return ((dashboard.annotations || {}).list || [])
    .filter((a) => !a.builtIn)
    .map((a) => ({ name: a.name, expr: (a.target || {}).expr || a.expr || '', interval: (a.target || {}).interval || a.step || '', annotation: a }));
}

// The dashboard's template variables, and the query a query variable runs (saved as a string, or as Grafana 12's
// editor saves it: {query, qryType, refId}).
function variablesOf(dashboard) {
  return (dashboard.templating || {}).list || [];
}
function variableQuery(variable) {
  return typeof variable.query === 'string' ? variable.query : (variable.query || {}).query || '';
}

// The lag panel is the one that queries the event-loop lag metrics.
function isLagPanel(panel) {
  return (panel.targets || []).some((t) => LAG_METRICS.some((m) => (t.expr || '').includes(m)));
}

// The jobs among `jobs` that every job matcher of `expr` (=, !=, =~, !~) lets through, regexes anchored as
// Prometheus anchors them. An expression without a job matcher lets every job through.
function jobsSelected(expr, jobs) {
  const matchers = [...expr.matchAll(/\bjob\s*(=~|!~|!=|=)\s*"([^"]*)"/g)];
  return jobs.filter((job) =>
    matchers.every(([, op, value]) => {
      const matches = op.endsWith('~') ? new RegExp(`^(?:${value})$`).test(job) : job === value;
      return op.startsWith('!') ? !matches : matches;
    }),
  );
}

// The values of `key: value` lines (comments dropped). The provisioning files are kept to flat keys, one per line,
// so this is all the YAML the lab needs to read them.
function yamlValues(text, key) {
  const pattern = new RegExp(`^\\s*(?:- )?${key}:\\s*(.*?)\\s*$`);
  return text
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, ''))
    .map((line) => line.match(pattern))
    .filter(Boolean)
    .map((m) => m[1].replace(/^(['"])(.*)\1$/, '$2'));
}

// The uid of the one provisioned datasource, which every panel references.
function datasourceUid(text = fs.readFileSync(DATASOURCE_FILE, 'utf8')) {
  const uids = yamlValues(text, 'uid');
  if (uids.length !== 1) throw new Error(`${DATASOURCE_FILE}: expected one uid, found ${uids.length}`);
  return uids[0];
}

module.exports = {
  JSON_DIR,
  DATASOURCE_FILE,
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
  datasourceUid,
};
