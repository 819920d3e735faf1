'use strict';
// docker-compose.yml and the Dockerfiles against the rest of the repository: every base image pinned to an exact tag
// and passed the same way by compose and by each Dockerfile, the Node versions those tags carry equal to the native
// runtimes', every Prometheus job a service publishing its port on 127.0.0.1 by default, every variable documented.
// The compose file is read with `docker compose config --no-interpolate`, so the ${VAR:-default}s stay visible.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { readManifests, servicesOf, ROOT } = require('@lab/lab-topology/manifests');

const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const compose = JSON.parse(execFileSync('docker', ['compose', 'config', '--no-interpolate', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' }));
// docker-compose.yml is what a swarm deploys; docker compose merges docker-compose.override.yml into it.
const composeText = read('docker-compose.yml') + read('docker-compose.override.yml');
const stackFile = execFileSync('docker', ['stack', 'config', '-c', 'docker-compose.yml'], { cwd: ROOT, encoding: 'utf8' });
// ${VAR:-default}, but not $${...}, which compose passes on to the container's shell.
const VARIABLE = /(?<!\$)\$\{([A-Z0-9_]+):-([^}]*)\}/g;
const composeSettings = composeText.split('\n').filter((line) => !line.trim().startsWith('#')).join('\n');
const defaults = Object.fromEntries([...composeSettings.matchAll(VARIABLE)].map((m) => [m[1], m[2]]));
const defaultOf = (value) => {
  const m = /^\$\{([A-Z0-9_]+):-([^}]*)\}$/.exec(value);
  assert.ok(m, `"${value}" is not \${VAR:-default}`);
  return m[2];
};

// An exact tag: a version with at least major.minor (or a Temurin/Emscripten-style build), never latest.
function assertPinned(image, where) {
  const tag = image.includes(':') ? image.slice(image.lastIndexOf(':') + 1) : '';
  assert.match(tag, /^v?\d+\.\d+(\.\d+)?([._-][\w.]+)*$/, `${where}: ${image} is not pinned to an exact tag`);
}

// {ARG: default} of a Dockerfile's ARG lines ending in _IMAGE.
function dockerfileImageArgs(file) {
  return Object.fromEntries([...read(file).matchAll(/^ARG (\w+_IMAGE)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
}

const built = Object.entries(compose.services).filter(([, s]) => s.build);

test('every base image is pinned, and compose passes each Dockerfile the default that Dockerfile declares', () => {
  for (const [name, service] of built) {
    const args = dockerfileImageArgs(service.build.dockerfile);
    assert.ok(Object.keys(args).length > 0, `${service.build.dockerfile} takes no base image argument`);
    assert.deepStrictEqual(Object.keys(service.build.args || {}).sort(), Object.keys(args).sort(), `${name}: build args`);
    for (const [arg, image] of Object.entries(args)) {
      assertPinned(image, `${service.build.dockerfile} ${arg}`);
      assert.strictEqual(defaultOf(service.build.args[arg]), image, `${name}: compose's default for ${arg}`);
    }
  }
  // Pulled images are pinned; built ones are named after the service, for `make images` and a swarm.
  for (const [name, service] of Object.entries(compose.services).filter(([, s]) => s.image && !s.build)) {
    assertPinned(defaultOf(service.image), name);
  }
  for (const [name, service] of built) {
    const imageOf = name === 'topology' ? 'load' : name; // the topology one-shot runs the load driver's image
    assert.strictEqual(service.image, `\${LAB_IMAGE_REPOSITORY:-lab}/${imageOf}:\${LAB_IMAGE_TAG:-latest}`, name);
  }
});

test('the Node images carry the Node versions the native runtimes pin', () => {
  const pinned = Object.fromEntries([...read('mk/runtimes.mk').matchAll(/^(NODE\d+)_VERSION := (\S+)$/gm)].map((m) => [m[1], m[2]]));
  assert.match(defaults.NODE14_IMAGE, new RegExp(`^node:${pinned.NODE14.replace(/\./g, '\\.')}-`));
  assert.match(defaults.NODE24_IMAGE, new RegExp(`^node:${pinned.NODE24.replace(/\./g, '\\.')}-`));
});

test('the JVM image builds and runs on one Java major', () => {
  // maven:<maven>-eclipse-temurin-<major>, eclipse-temurin:<major>.<minor>...
  const major = (image) => (/temurin-(\d+)/.exec(image) || /:(\d+)[._]/.exec(image))[1];
  assert.strictEqual(major(defaults.MAVEN_IMAGE), major(defaults.JRE_IMAGE));
});

test('every component of the manifests is a compose service that publishes its port as ${NAME_PORT:-port} on 127.0.0.1 by default', () => {
  for (const { name, port } of readManifests()) {
    const service = compose.services[name];
    assert.ok(service, `${name}/service.json names no compose service`);
    const variable = `${name.toUpperCase().replace(/-/g, '_')}_PORT`;
    // Uninterpolated, compose leaves the short syntax as written.
    assert.deepStrictEqual(service.ports, [`\${LAB_BIND_ADDRESS:-127.0.0.1}:\${${variable}:-${port}}:${port}`], name);
    assert.deepStrictEqual(service.networks ? Object.keys(service.networks) : [], ['lab'], `${name} networks`);
  }
});

test('the swarm side: every service by DNS round robin, ports on the task\'s node, placement by role, CPU limits as variables', () => {
  // docker stack config validates the file as a stack and prints it interpolated with the defaults.
  const base = JSON.parse(execFileSync('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--no-interpolate', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' }));
  const underTest = servicesOf(readManifests()).map((m) => m.name);
  for (const [name, service] of Object.entries(base.services)) {
    assert.strictEqual(service.deploy.endpoint_mode, 'dnsrr', name);
    const role = underTest.includes(name) ? 'sut' : 'load';
    assert.deepStrictEqual(service.deploy.placement.constraints, [`node.labels.lab.${role} == true`], name);
    for (const port of service.ports || []) assert.strictEqual(port.mode, 'host', `${name}: port ${port.target}`);
  }
  for (const { name, port } of readManifests()) {
    const variable = name === 'jvm-serializer' ? 'JVM_CPUS' : `${name.toUpperCase().replace(/-/g, '_')}_CPUS`;
    assert.strictEqual(base.services[name].deploy.resources.limits.cpus, `\${${variable}:-0}`, name);
    // The same port and variable as the single-host binding of the override file.
    const published = `\${${name.toUpperCase().replace(/-/g, '_')}_PORT:-${port}}`;
    assert.deepStrictEqual(base.services[name].ports.map((p) => [p.target, p.published]), [[port, published]], name);
  }
  assert.match(stackFile, /^version: /);
});

test('services wait for healthy dependencies (or a finished one-shot), and none pins a container name', () => {
  for (const [name, service] of Object.entries(compose.services)) {
    assert.strictEqual(service.container_name, undefined, name);
    for (const [dep, spec] of Object.entries(service.depends_on || {})) {
      const oneShot = compose.services[dep].restart === 'no';
      assert.strictEqual(spec.condition, oneShot ? 'service_completed_successfully' : 'service_healthy', `${name} -> ${dep}`);
    }
  }
  // A new service is its own block: nothing else in compose names it.
  assert.strictEqual(compose.services.load.depends_on, undefined, 'the load driver waits for its targets itself');
  assert.deepStrictEqual(Object.keys(compose.services.prometheus.depends_on), ['topology']);
});

test('Prometheus and Grafana read the repository files read-only, data in named volumes', () => {
  const mounts = (name) => compose.services[name].volumes.map((v) => `${v.type} ${path.relative(ROOT, v.source) || v.source} ${v.target} ${v.read_only ? 'ro' : 'rw'}`);
  assert.deepStrictEqual(mounts('prometheus'), ['bind prometheus.yml /etc/prometheus/prometheus.yml ro', 'volume prometheus-targets /etc/prometheus/targets ro', 'volume prometheus-data /prometheus rw']);
  assert.deepStrictEqual(mounts('topology'), ['volume prometheus-targets /topology/targets rw']);
  assert.deepStrictEqual(mounts('grafana'), ['bind dashboards /etc/grafana/provisioning-lab ro', 'volume grafana-data /var/lib/grafana rw']);
  const env = compose.services.grafana.environment;
  assert.strictEqual(env.GF_AUTH_ANONYMOUS_ENABLED, 'true');
  assert.strictEqual(env.GF_AUTH_ANONYMOUS_ORG_ROLE, 'Viewer');
  assert.ok(fs.existsSync(path.join(ROOT, env.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH.replace('/etc/grafana/provisioning-lab', 'dashboards'))));
  assert.doesNotMatch(composeText, /GF_SECURITY_ADMIN_PASSWORD:\s*\S/, 'the admin password must not be set to a fixed value');
});

test('the JVM heap of the compose lab is the one native runs use', () => {
  const native = /^JAVA_OPTS \?= (.+)$/m.exec(read('services/jvm-serializer/Makefile'))[1];
  assert.strictEqual(defaults.JVM_JAVA_OPTS, native);
});

test('every Node 24 process of the compose lab starts with the options native runs use', () => {
  const native = /^NODE24_OPTIONS \?= (.+)$/m.exec(read('mk/runtimes.mk'))[1];
  assert.strictEqual(defaults.NODE24_OPTIONS, native);
  // The long-running ones: topology writes a file and exits.
  const node24 = built.filter(([, s]) => s.build.args.NODE_IMAGE === `\${NODE24_IMAGE:-${defaults.NODE24_IMAGE}}` && !s.command).map(([name]) => name);
  assert.deepStrictEqual(node24.sort(), ['load', 'node-async', 'wasm-runner']);
  for (const name of node24) assert.strictEqual(compose.services[name].environment.NODE_OPTIONS, `\${NODE24_OPTIONS:-${native}}`, name);
});

test('docker/README.md lists every variable of docker-compose.yml with its default', () => {
  const readme = read('docker/README.md');
  for (const [name, value] of Object.entries(defaults)) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` `));
    assert.ok(row, `docker/README.md has no table row for ${name}`);
    if (value !== '') assert.ok(row.includes(`\`${value}\``), `docker/README.md's row for ${name} does not show the default ${value}`);
  }
});
