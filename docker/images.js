#!/usr/bin/env node
'use strict';
// `make images`: the lab's images built and named as docker-compose.yml names them for a swarm,
// ${LAB_IMAGE_REPOSITORY:-lab}/<service>:${LAB_IMAGE_TAG:-latest}, from the pinned base images (or their offline
// stand-ins where those cannot be pulled: LAB_BASE_IMAGES, docker/README.md). Prints the names.
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { composeLab, exitWith, mustRun } = require('./compose-lab');

const log = (message) => console.log(`images: ${message}`);

async function main() {
  const lab = composeLab({ project: 'lab', stateDir: path.join(ROOT, '.images'), offset: 0, log, imageTag: process.env.LAB_IMAGE_TAG || 'latest' });
  await lab.prepare();
  await lab.build();
  const images = (await mustRun('listing the images', ...lab.compose(['config', '--images']))).trim().split('\n');
  for (const image of images) log(`  ${image}`);
  log('for more than one node: docker compose push (with LAB_IMAGE_REPOSITORY set to a registry every node reaches)');
  return 0;
}

exitWith('images', main);
