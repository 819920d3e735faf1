'use strict';
// compose's `topology` service: writes Prometheus's targets file for the containerized lab (each service's name as
// its host) into <folder>/targets/ (compose mounts there the volume Prometheus reads at /etc/prometheus/targets).
//   node lab-topology/write-targets.js <folder>
const { readManifests } = require('./manifests');
const { prometheusTargets, writeTargets } = require('./topology');

const folder = process.argv[2];
if (!folder) {
  console.error('usage: write-targets.js <folder>');
  process.exit(2);
}
const file = writeTargets(folder, prometheusTargets(readManifests(), { hostOf: (name) => name, offset: 0 }));
console.log(`topology: Prometheus targets written to ${file}`);
