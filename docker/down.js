#!/usr/bin/env node
'use strict';
// `make down`: stops the lab `make up` started (its compose project: LAB_PROJECT_NAME, default lab) and removes its
// containers and network; VOLUMES=1 also drops its volumes (Prometheus' samples, Grafana's data). Checks that none of
// them is left, and says what it did.
//
//   node docker/down.js
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { run, mustRun, exitWith } = require('./compose-lab');
const { composeConfig, projectContainers, projectResources } = require('./lab-project');

const ENGINE_UNAVAILABLE = 3;
const log = (message) => console.log(`down: ${message}`);

async function main() {
  const engine = await run(path.join(ROOT, 'docker', 'ensure-engine.sh'), [], { show: true });
  if (engine.code === ENGINE_UNAVAILABLE) {
    log(`no Docker engine here, so no lab runs on it (${engine.output.trim().split('\n').pop()})`);
    return 0;
  }
  if (engine.code !== 0) throw new Error(`preparing the Docker engine failed (exit ${engine.code})`);
  const { name: project } = await composeConfig();
  const dropVolumes = process.env.VOLUMES === '1';
  const before = await projectContainers(project, { all: true });
  await mustRun('docker compose down', 'docker', ['compose', 'down', '--remove-orphans'].concat(dropVolumes ? ['--volumes'] : []), { show: 'stderr' });
  const left = {
    containers: await projectContainers(project, { all: true }),
    networks: await projectResources('network', project),
    volumes: dropVolumes ? await projectResources('volume', project) : [],
  };
  const remaining = Object.entries(left).filter(([, names]) => names.length > 0);
  if (remaining.length > 0) throw new Error(`still there after docker compose down: ${remaining.map(([kind, names]) => `${kind} ${names.join(', ')}`).join('; ')}`);
  const kept = dropVolumes ? 'its volumes dropped' : `its volumes kept (${(await projectResources('volume', project)).join(', ') || 'none'}; VOLUMES=1 drops them)`;
  log(before.length > 0 ? `the lab (compose project ${project}) is stopped: ${before.length} containers and its network removed, ${kept}` : `nothing of compose project ${project} was running; ${kept}`);
  return 0;
}

if (require.main === module) exitWith('down', main);
