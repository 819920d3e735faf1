'use strict';
// The lab's components, from their manifests: services/<name>/service.json for every service and load/service.json
// for the load driver, each checked against service.schema.json when read. Every list of the lab's services comes
// from here: what `make native` starts, the Prometheus targets, the load driver's targets, the smoke suite's coverage,
// the integration test, the benchmarks and the dashboards' checks. LAB_EXTRA_SERVICES (folders separated by `:`) adds
// components from elsewhere (a test's throwaway service). Node 14 syntax: the load driver's image reads it too.
const fs = require('fs');
const path = require('path');
const { validate } = require('./schema');
const SCHEMA = require('./service.schema.json');

const ROOT = path.join(__dirname, '..');
const MANIFEST = 'service.json';

/** The folders that hold a component: services/* with a manifest, load/, and LAB_EXTRA_SERVICES' folders. */
function componentDirs(root, extra) {
  const servicesDir = path.join(root, 'services');
  const services = fs.existsSync(servicesDir) ? fs.readdirSync(servicesDir).sort().map((name) => path.join(servicesDir, name)) : [];
  return services.concat([path.join(root, 'load')], extra).filter((dir) => fs.existsSync(path.join(dir, MANIFEST)));
}

function readManifest(dir) {
  const file = path.join(dir, MANIFEST);
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${err.message}`, { cause: err });
  }
  const problems = validate(SCHEMA, manifest);
  if (problems.length > 0) throw new Error(`${file} does not follow lab-topology/service.schema.json:\n  ${problems.join('\n  ')}`);
  if (manifest.name !== path.basename(dir)) throw new Error(`${file}: name ${manifest.name} must be its folder's name, ${path.basename(dir)}`);
  return Object.assign({ dir }, manifest);
}

/**
 * Every component's manifest, with its folder as `dir`, in the order of their ports. Throws, naming the file, on a
 * manifest that does not follow the schema, and on two components with one name or one port.
 */
function readManifests({ root = ROOT, extra = extraDirs() } = {}) {
  const manifests = componentDirs(root, extra).map(readManifest).sort((a, b) => a.port - b.port);
  for (const key of ['name', 'port']) {
    const seen = new Map();
    for (const m of manifests) {
      if (seen.has(m[key])) throw new Error(`${m.dir} and ${seen.get(m[key])} have the same ${key}, ${m[key]}`);
      seen.set(m[key], m.dir);
    }
  }
  return manifests;
}

function extraDirs() {
  const value = process.env.LAB_EXTRA_SERVICES;
  return value ? value.split(':').filter(Boolean).map((dir) => path.resolve(dir)) : [];
}

/** The services (every component but the load driver). */
const servicesOf = (manifests) => manifests.filter((m) => m.kind !== 'load');

/** The Node services: the ones with prom-client's event-loop metrics. */
const nodeServicesOf = (manifests) => manifests.filter((m) => m.kind === 'node');

/** The services that keep users' documents (`documents: true`): what `make try` starts. */
const documentServicesOf = (manifests) => manifests.filter((m) => m.documents === true);

module.exports = { ROOT, MANIFEST, readManifests, servicesOf, nodeServicesOf, documentServicesOf };
