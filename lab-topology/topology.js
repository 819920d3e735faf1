'use strict';
// Where each component of the lab runs, from the manifests (manifests.js): natively (`make native`: every port shifted
// by LAB_PORT_OFFSET, every host 127.0.0.1) or in compose (each service's name as its host). Prometheus finds them
// through file_sd: prometheusTargets() is the targets file both ways write, with each target labelled with its job,
// so prometheus.yml itself names no service. Node 14 syntax.
const fs = require('fs');
const path = require('path');
const { readManifests } = require('./manifests');

const PROMETHEUS_PORT = 9090;
// prometheus.yml reads every file here, relative to itself (file_sd_configs).
const TARGETS_DIR = 'targets';
const TARGETS_FILE = 'lab.json';

/**
 * What a native run starts: every component ({name, kind, dir, start (its Makefile target), port, url}) and
 * Prometheus ({name, port}), ports shifted by offset.
 */
function nativeLab(offset, manifests = readManifests()) {
  const components = manifests.map((m) => {
    const port = m.port + offset;
    return { name: m.name, kind: m.kind, dir: m.dir, start: m.native.start, port, url: `http://127.0.0.1:${port}` };
  });
  return { components, prometheus: { name: 'prometheus', port: PROMETHEUS_PORT + offset } };
}

/**
 * The file_sd target groups for every component and Prometheus itself: natively (hostOf: () => '127.0.0.1', offset)
 * or in compose (hostOf: the service's name, offset 0). Prometheus keeps a target's `job` label from its group.
 */
function prometheusTargets(manifests, { hostOf, offset }) {
  const groups = manifests.map((m) => ({ targets: [`${hostOf(m.name)}:${m.port + offset}`], labels: { job: m.name } }));
  groups.push({ targets: [`${hostOf('prometheus')}:${PROMETHEUS_PORT + offset}`], labels: { job: 'prometheus' } });
  return groups;
}

/** Writes the targets file into dir/targets/ (created), whole or not at all: Prometheus may read it at any moment. */
function writeTargets(dir, groups) {
  const targetsDir = path.join(dir, TARGETS_DIR);
  fs.mkdirSync(targetsDir, { recursive: true });
  const file = path.join(targetsDir, TARGETS_FILE);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(groups, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

module.exports = { nativeLab, prometheusTargets, writeTargets, PROMETHEUS_PORT, TARGETS_DIR };
