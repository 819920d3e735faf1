'use strict';
// `make attach-override SERVICE=api [AGENT_KIND=node|jvm] [AGENT_PORT=9464] > compose.lab-agent.yml`: a compose
// override that puts the lab's agent in front of one service of the user's own compose project, with no change to its
// image: the agent's folder (or jar) mounted read-only, the environment variable that loads it, the agent listening on
// the container's interfaces and its port published on the host's loopback only. Then
//   docker compose -f compose.yml -f compose.lab-agent.yml up -d
//   make attach URL=http://127.0.0.1:<the service's published port>/path AGENT=http://127.0.0.1:9464
// loads it as any native service: make attach's Prometheus finds the agent in its file-based targets, as the job of
// the attached service. Node's NODE_OPTIONS and Java's JAVA_TOOL_OPTIONS are set whole: a service that sets its own
// keeps it by adding the agent's option to it in its compose file instead (the comment in the output says so).
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');

// Where the agent appears inside the container.
const MOUNT = '/opt/lab-agent';
const KINDS = {
  node: { source: path.join(ROOT, 'agents', 'node-agent'), target: MOUNT, variable: 'NODE_OPTIONS', value: `--require ${MOUNT}/agent.js` },
  jvm: { source: path.join(ROOT, 'agents', 'jvm-agent', 'target', 'lab-agent.jar'), target: `${MOUNT}/lab-agent.jar`, variable: 'JAVA_TOOL_OPTIONS', value: `-javaagent:${MOUNT}/lab-agent.jar` },
};
const SERVICE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;

/** The override's YAML for service (a compose service name), kind ('node' | 'jvm') and the host port of the agent. */
function overrideYaml(service, kind, port) {
  const agent = KINDS[kind];
  const quote = (text) => JSON.stringify(text); // a JSON string is a YAML double-quoted scalar
  return `# The lab's ${kind} agent in front of ${service} (make attach-override; agents/README.md). ${agent.variable} is set whole:
# where ${service} sets its own, add ${quote(agent.value)} to it there instead of using this line.
services:
  ${service}:
    volumes:
      - type: bind
        source: ${quote(agent.source)}
        target: ${quote(agent.target)}
        read_only: true
    environment:
      ${agent.variable}: ${quote(agent.value)}
      LAB_AGENT_HOST: "0.0.0.0"
      LAB_AGENT_PORT: "9464"
      LAB_AGENT_HOST_NAMES: ${quote(service)}
      LAB_PROFILE_TOKEN: "\${LAB_PROFILE_TOKEN:-}"
    ports:
      - "127.0.0.1:${port}:9464"
`;
}

/** SERVICE, AGENT_KIND and AGENT_PORT from env, checked; throws with the reason. */
function overrideSettings(env = process.env) {
  const service = env.SERVICE || '';
  if (!SERVICE_NAME.test(service)) throw new Error(`SERVICE must be a compose service name (letters, digits, _ . -), got ${JSON.stringify(service)}`);
  const kind = env.AGENT_KIND || 'node';
  if (!KINDS[kind]) throw new Error(`AGENT_KIND must be one of ${Object.keys(KINDS).join(', ')}, got ${kind}`);
  const port = Number(env.AGENT_PORT || 9464);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`AGENT_PORT must be a port number, got ${env.AGENT_PORT}`);
  return { service, kind, port };
}

if (require.main === module) {
  try {
    const { service, kind, port } = overrideSettings();
    process.stdout.write(overrideYaml(service, kind, port));
  } catch (err) {
    console.error(`attach-override: ${err.message}`);
    process.exit(2);
  }
}

module.exports = { overrideYaml, overrideSettings, KINDS };
