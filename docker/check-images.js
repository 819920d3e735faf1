#!/usr/bin/env node
'use strict';
// `make test-images`: the images of the containerized checks (make smoke, chaos, soak, swarm), built once per
// `make test` from the pinned base images or their offline stand-ins, tagged lab/<service>:lab-check
// (compose-lab.js' CHECK_IMAGE_TAG), and the base images used written down (CHECK_IMAGES_FILE), so that the checks
// after it run these images instead of each preparing and building its own.
//
//   node docker/check-images.js [--if-engine]
//
// --if-engine: where no Docker engine runs or can be started, say so and exit 0 (make test uses it).
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { composeLab, exitWith, CHECK_IMAGE_TAG, CHECK_IMAGES_FILE } = require('./compose-lab');

const log = (message) => console.log(`test-images: ${message}`);

async function main(argv) {
  // Never this run's own images: test-images is where they are made.
  delete process.env.LAB_CHECK_IMAGES_BUILT;
  fs.rmSync(CHECK_IMAGES_FILE, { force: true });
  const lab = composeLab({ project: 'lab-check', stateDir: path.dirname(CHECK_IMAGES_FILE), offset: 0, log });
  if (!(await lab.prepare({ ifEngine: argv.includes('--if-engine') }))) return 0;
  await lab.build();
  fs.writeFileSync(CHECK_IMAGES_FILE, `${JSON.stringify({ tag: CHECK_IMAGE_TAG, mode: lab.mode, baseImages: lab.baseImages }, null, 2)}\n`);
  log(`lab/<service>:${CHECK_IMAGE_TAG} built (${lab.mode} base images); ${path.relative(ROOT, CHECK_IMAGES_FILE)} records them`);
  return 0;
}

exitWith('test-images', main);
