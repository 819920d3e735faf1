#!/usr/bin/env node
'use strict';
// `make up`: the whole lab, as `docker compose up -d` starts it, on any machine, this one without a container
// registry included. Starts the engine where `make smoke` would (docker/ensure-engine.sh), chooses the base images as
// `make smoke` does (LAB_BASE_IMAGES=auto|upstream|offline: offline stand-ins where the pinned ones cannot be pulled),
// runs Grafana where its image can be had and otherwise leaves it out, saying so, builds and starts every other
// service with the settings of docker/README.md's table (the environment, or a .env file), waits until each is healthy and
// prints what to open. A second `make up` while the lab runs says so and changes nothing; `make down` stops it.
// Without a LAB_PROFILE_TOKEN of the user's, each start makes one for the driver and the services (PROFILE=1 profiles),
// handed to compose in its environment alone.
//
//   node docker/up.js
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { gitCommit } = require('@lab/lab-topology/checkout');
const { profileTokenFor } = require('@lab/lab-topology/profile-token');
const { run, mustRun, chooseBaseImages, offlineBaseImages, exitWith } = require('./compose-lab');
const { composeConfig, publishedUrl, resultsFolder, projectContainers } = require('./lab-project');

// The first build of every image takes minutes on two cores; after that, up is seconds.
const UP_TIMEOUT_S = 1200;
const ENGINE_UNAVAILABLE = 3;
// The load image's own user (the official node images' `node`), which compose runs the driver as by default.
const LOAD_IMAGE_UID = 1000;

const log = (message) => console.log(`up: ${message}`);

/**
 * Who the load container runs as (LAB_UID, LAB_GID), unless set: the results folder's owner, so that it can write
 * there. A folder of root's is handed to the image's own user instead, as `make smoke` does: the driver never runs as
 * root.
 */
function resultsOwner(resultsDir) {
  fs.mkdirSync(resultsDir, { recursive: true });
  if (process.env.LAB_UID && process.env.LAB_GID) return { LAB_UID: process.env.LAB_UID, LAB_GID: process.env.LAB_GID };
  const { uid, gid } = fs.statSync(resultsDir);
  if (uid !== 0) return { LAB_UID: String(uid), LAB_GID: String(gid) };
  if (process.getuid() !== 0) throw new Error(`${resultsDir} belongs to root: set LAB_UID and LAB_GID to a user who may write there`);
  fs.chownSync(resultsDir, LOAD_IMAGE_UID, LOAD_IMAGE_UID);
  log(`${resultsDir} belonged to root: handed to uid ${LOAD_IMAGE_UID}, the load container's user`);
  return { LAB_UID: String(LOAD_IMAGE_UID), LAB_GID: String(LOAD_IMAGE_UID) };
}

/** Whether Grafana's image can be had: pulled where the base images come from upstream, or already on the engine. */
async function grafanaAvailable(mode, config) {
  if (mode === 'upstream') return true;
  return (await run('docker', ['image', 'inspect', config.services.grafana.image])).code === 0;
}

/** What to open, from the resolved compose config (ports and addresses as the settings give them). */
function whatToOpen(config, withGrafana) {
  const lines = [`the live page (the suite running now, every service's event-loop lag): ${publishedUrl(config, 'load')}`];
  const grafana = publishedUrl(config, 'grafana');
  if (withGrafana) lines.push(`Grafana (the dashboards, no login): ${grafana}`);
  else lines.push(`Grafana: not running here (its image cannot be had), so nothing answers at ${grafana}: the live page shows the lag instead`);
  lines.push(`Prometheus: ${publishedUrl(config, 'prometheus')}`);
  lines.push(`results: ${resultsFolder(config)} (a folder per run, with its report.html)`);
  lines.push("make down stops the lab (VOLUMES=1 also drops Prometheus' and Grafana's data)");
  return lines;
}

async function main() {
  const engine = await run(path.join(ROOT, 'docker', 'ensure-engine.sh'), [], { show: true });
  if (engine.code === ENGINE_UNAVAILABLE) throw new Error(`no Docker engine here (${engine.output.trim().split('\n').pop()}); make native runs the lab as local processes`);
  if (engine.code !== 0) throw new Error(`preparing the Docker engine failed (exit ${engine.code})`);
  const { name: project } = await composeConfig();
  const running = await projectContainers(project);
  if (running.length > 0) {
    log(`the lab (compose project ${project}) is already running: ${running.join(', ')}; nothing changed (make down stops it)`);
    return 0;
  }
  const mode = await chooseBaseImages(log);
  const baseImages = mode === 'offline' ? await offlineBaseImages() : {};
  // A base image the user named wins over the stand-in.
  for (const name of Object.keys(baseImages)) if (process.env[name]) delete baseImages[name];
  const given = Object.assign({}, process.env, baseImages);
  const asGiven = await composeConfig(given);
  const resultsDir = resultsFolder(asGiven);
  const env = Object.assign(given, resultsOwner(resultsDir), {
    LAB_GIT_COMMIT: process.env.LAB_GIT_COMMIT || gitCommit(),
    LAB_IMAGES: process.env.LAB_IMAGES || Object.entries(baseImages).map(([name, image]) => `${name}=${image}`).join(','),
    // The user's, as compose resolved it (the environment or .env), else one made for this start.
    LAB_PROFILE_TOKEN: profileTokenFor(asGiven.services.load.environment),
  });
  const config = await composeConfig(env);
  const withGrafana = await grafanaAvailable(mode, config);
  const services = Object.keys(config.services).filter((s) => withGrafana || s !== 'grafana');
  log(mode === 'offline' ? `base images: offline stand-ins (${Object.values(baseImages).join(', ') || 'as set'})` : 'base images: upstream (pinned tags in docker-compose.yml)');
  if (!withGrafana) log(`Grafana left out: its image ${config.services.grafana.image} cannot be pulled here and is not on this engine`);
  log(`building and starting ${services.join(', ')} (compose project ${project}); waiting up to ${UP_TIMEOUT_S} s for every healthcheck`);
  await mustRun('docker compose up', 'docker', ['compose', 'up', '-d', '--build', '--wait', '--wait-timeout', String(UP_TIMEOUT_S), ...services], { env, show: 'stderr' });
  const suite = config.services.load.environment.LOAD_SUITE;
  log(`the lab is up, the load driver running the ${suite} suite${suite === 'none' ? ' (none: idle, POST /runs starts one)' : ''}. Open:`);
  for (const line of whatToOpen(config, withGrafana)) console.log(`  ${line}`);
  return 0;
}

if (require.main === module) exitWith('up', main);

module.exports = { whatToOpen };
