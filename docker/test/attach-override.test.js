'use strict';
// make attach-override's compose override, merged by the real compose CLI with a user's compose file: the service
// gains the agent's read-only mount, the variable that loads it, the agent's settings and its port on the host's
// loopback, and keeps what it had. Bad settings are refused.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { tempDir } = require('@lab/test-kit');
const { overrideYaml, overrideSettings, KINDS } = require('../attach-override');

const USER_COMPOSE = `services:
  api:
    image: node:24-slim
    command: ["node", "server.js"]
    environment:
      PORT: "3000"
    ports:
      - "127.0.0.1:3000:3000"
`;

const hasCompose = () => {
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

for (const kind of Object.keys(KINDS)) {
  test(`the ${kind} override merges into a user's compose file: mount, variable, settings, loopback port`, { skip: !hasCompose() && 'no docker compose CLI here' }, () => {
    const dir = tempDir('lab-attach-override-');
    try {
      fs.writeFileSync(path.join(dir, 'compose.yml'), USER_COMPOSE);
      fs.writeFileSync(path.join(dir, 'compose.lab-agent.yml'), overrideYaml('api', kind, 19464));
      const merged = JSON.parse(execFileSync('docker', ['compose', '-f', 'compose.yml', '-f', 'compose.lab-agent.yml', 'config', '--format', 'json'], { cwd: dir, env: Object.assign({}, process.env, { LAB_PROFILE_TOKEN: 'secret' }) }));
      const api = merged.services.api;
      assert.deepStrictEqual(api.command, ['node', 'server.js'], 'what the service had stays');
      assert.strictEqual(api.environment.PORT, '3000');
      assert.strictEqual(api.environment[KINDS[kind].variable], KINDS[kind].value);
      assert.deepStrictEqual([api.environment.LAB_AGENT_HOST, api.environment.LAB_AGENT_PORT, api.environment.LAB_AGENT_HOST_NAMES, api.environment.LAB_PROFILE_TOKEN], ['0.0.0.0', '9464', 'api', 'secret']);
      const mount = api.volumes.find((v) => v.target === KINDS[kind].target);
      assert.ok(mount && mount.type === 'bind' && mount.read_only === true && mount.source === KINDS[kind].source, JSON.stringify(api.volumes));
      const agentPort = api.ports.find((p) => p.target === 9464);
      assert.deepStrictEqual([agentPort.host_ip, agentPort.published], ['127.0.0.1', '19464']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('bad settings are refused with what is allowed', () => {
  assert.deepStrictEqual(overrideSettings({ SERVICE: 'api' }), { service: 'api', kind: 'node', port: 9464 });
  assert.throws(() => overrideSettings({}), /SERVICE must be a compose service name/);
  assert.throws(() => overrideSettings({ SERVICE: 'api: {}' }), /SERVICE must be a compose service name/);
  assert.throws(() => overrideSettings({ SERVICE: 'api', AGENT_KIND: 'python' }), /AGENT_KIND must be one of node, jvm/);
  assert.throws(() => overrideSettings({ SERVICE: 'api', AGENT_PORT: '70000' }), /AGENT_PORT must be a port number/);
});
