'use strict';
// The compose project `make up` starts and `make down` stops, as `docker compose` itself resolves it from the files,
// a .env file and the environment: its name (LAB_PROJECT_NAME, default lab), where each service is published, the
// results folder, and what of it exists.
const { mustRun } = require('./compose-lab');

/** docker-compose.yml with the override and every variable resolved: {name, services: {...}, ...}. */
async function composeConfig(env = process.env) {
  return JSON.parse(await mustRun('reading the compose files', 'docker', ['compose', 'config', '--format', 'json'], { env }));
}

/** http://<address>:<port> where a service of the resolved config is published on this machine. */
function publishedUrl(config, service) {
  const [port] = config.services[service].ports || [];
  const address = !port.host_ip || port.host_ip === '0.0.0.0' ? 'localhost' : port.host_ip;
  return `http://${address}:${port.published}/`;
}

/** The host folder the load driver writes its results to (its bind mount at /results). */
function resultsFolder(config) {
  return config.services.load.volumes.find((v) => v.type === 'bind' && v.target === '/results').source;
}

/** Names of the project's containers, those running or (all) every one. */
async function projectContainers(project, { all = false } = {}) {
  const args = ['ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Names}}'].concat(all ? ['-a'] : []);
  return (await mustRun('listing containers', 'docker', args)).split('\n').filter(Boolean).sort();
}

/** Names of the project's networks, or volumes (kind: 'network' or 'volume'). */
async function projectResources(kind, project) {
  const args = [kind, 'ls', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Name}}'];
  return (await mustRun(`listing ${kind}s`, 'docker', args)).split('\n').filter(Boolean).sort();
}

module.exports = { composeConfig, publishedUrl, resultsFolder, projectContainers, projectResources };
