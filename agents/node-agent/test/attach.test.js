'use strict';
// Attaching the agent never costs the user's process anything but the side port: a taken port, a bad setting or a
// package manager's own process leave it unwatched with (at most) one line on stderr, and a program that ends by
// itself still ends. On every Node line the agent supports; the pure parts (settings, wrapper names, the text
// format's escapes) in this process.
const { describe, test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { childNodes, nodeVersion, startWithAgent } = require('./agent-process');
const { readSettings, DEFAULT_PORT, DEFAULT_LAG_RESOLUTION_MS } = require('../settings');
const { wrapperOf } = require('../wrappers');
const { family, histogramFamily, bucketCounter } = require('../exposition');

const FIXTURES = path.join(__dirname, 'fixtures');

for (const node of childNodes()) {
  describe(`attaching on Node ${nodeVersion(node)}`, () => {
    test('a port in use: one stderr line naming the port, pid and argv; the service goes on serving, unwatched', async () => {
      const holder = net.createServer();
      await new Promise((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const port = holder.address().port;
      const child = await startWithAgent(node, { env: { LAB_AGENT_PORT: String(port) } });
      try {
        const [line] = await child.waitForStderr(/lab agent: cannot listen on .*\n/);
        assert.match(line, new RegExp(`127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\) in pid \\d+, ".*service\\.js"; this process goes on unwatched`));
        assert.deepStrictEqual(Object.keys(await child.service('/block?ms=1')), ['blockedMs'], 'the service answers');
        assert.strictEqual(child.portFileExists(), false);
        assert.strictEqual(child.stderr().split('\n').filter(Boolean).length, 1, child.stderr());
      } finally {
        await child.stop();
        holder.close();
      }
    });

    test("bad settings: one line each, naming the setting; the agent stays off and the service runs", async () => {
      const cases = [
        [{ LAB_AGENT_PORT: 'abc' }, /LAB_AGENT_PORT must be an integer in \[0, 65535\], not "abc"; the agent is off/],
        [{ LAB_AGENT_PORT: '65536' }, /LAB_AGENT_PORT must be an integer/],
        [{ LAB_AGENT_LAG_RESOLUTION_MS: '0' }, /LAB_AGENT_LAG_RESOLUTION_MS must be an integer in \[1, 1000\], not "0"/],
        [{ LAB_AGENT_HOST_NAMES: 'ok,not a name' }, /LAB_AGENT_HOST_NAMES must be host names separated by commas, not "not a name"/],
        [{ LAB_AGENT_HOST: 'http://x' }, /LAB_AGENT_HOST must be an IP address or a host name/],
      ];
      for (const [env, expected] of cases) {
        const child = await startWithAgent(node, { env });
        try {
          await child.waitForStderr(expected);
          assert.deepStrictEqual(await child.service('/state'), { workerPatched: false }, JSON.stringify(env));
          assert.strictEqual(child.portFileExists(), false);
        } finally {
          await child.stop();
        }
      }
    });

    test("a package manager's own process (argv[1] npm's npm-cli.js) is left alone; a program of the user's is watched", async () => {
      const asNpm = (dir) => {
        const bin = path.join(dir, 'node_modules', 'npm', 'bin');
        fs.mkdirSync(bin, { recursive: true });
        fs.copyFileSync(path.join(FIXTURES, 'wrapper-state.js'), path.join(bin, 'npm-cli.js'));
        return path.join(bin, 'npm-cli.js');
      };
      const npm = await startWithAgent(node, { script: asNpm });
      const user = await startWithAgent(node, { script: path.join(FIXTURES, 'wrapper-state.js') });
      try {
        assert.deepStrictEqual(npm.line, { workerPatched: false });
        assert.deepStrictEqual(user.line, { workerPatched: true });
        await npm.exited;
        assert.strictEqual(npm.stderr(), '');
        assert.strictEqual(npm.portFileExists(), false);
      } finally {
        await npm.stop();
        await user.stop();
      }
    });

    test('a program that ends by itself still ends with the agent attached', async () => {
      const child = await startWithAgent(node, { script: path.join(FIXTURES, 'short-lived.js') });
      try {
        assert.deepStrictEqual(await child.exited, { code: 0, signal: null });
      } finally {
        await child.stop();
      }
    });
  });
}

test('settings: defaults, and the port 0 of the tests', () => {
  const defaults = readSettings({});
  assert.deepStrictEqual(defaults, { port: DEFAULT_PORT, host: '127.0.0.1', portFile: null, hostNames: [], profileToken: null, tokenFolder: `/tmp/lab-agent-${process.getuid()}`, lagResolutionMs: DEFAULT_LAG_RESOLUTION_MS });
  assert.strictEqual(DEFAULT_PORT, 9464);
  const set = readSettings({ LAB_AGENT_PORT: '0', LAB_AGENT_HOST: '::1', LAB_AGENT_HOST_NAMES: ' a, b.c ,', LAB_PROFILE_TOKEN: 't', LAB_AGENT_TOKEN_DIR: '/t', LAB_AGENT_LAG_RESOLUTION_MS: '1' });
  assert.deepStrictEqual(set, { port: 0, host: '::1', portFile: null, hostNames: ['a', 'b.c'], profileToken: 't', tokenFolder: '/t', lagResolutionMs: 1 });
  for (const env of [{ LAB_AGENT_PORT: '-1' }, { LAB_AGENT_PORT: '1e3' }, { LAB_AGENT_PORT: ' 80' }, { LAB_AGENT_LAG_RESOLUTION_MS: '1001' }]) {
    assert.throws(() => readSettings(env), /must be an integer/, JSON.stringify(env));
  }
});

test("package managers' scripts and links are known by name; a user's program is not", () => {
  for (const script of ['/usr/lib/node_modules/npm/bin/npm-cli.js', '/x/npx-cli.js', '/usr/bin/npm', '/usr/local/bin/npx', '/y/yarn/bin/yarn.js', '/p/.yarn/releases/yarn-4.5.0.cjs', '/q/pnpm/bin/pnpm.cjs', '/q/pnpm/bin/pnpx.cjs', '/c/corepack/dist/corepack.js', '/usr/bin/yarn', '/usr/bin/pnpm']) {
    assert.ok(wrapperOf(script), script);
  }
  for (const script of ['/app/server.js', '/app/npm-tool.js', '/app/npmish', undefined, '/app/src/index.mjs']) {
    assert.strictEqual(wrapperOf(script), null, script);
  }
});

test("the text format's escapes and a histogram's cumulative buckets", () => {
  assert.strictEqual(family('a_total', 'counter', 'back\\slash\nline', [{ labels: { v: 'q"u\\o\nte' }, value: 1 }]), '# HELP a_total back\\\\slash\\nline\n# TYPE a_total counter\na_total{v="q\\"u\\\\o\\nte"} 1\n');
  assert.strictEqual(family('g', 'gauge', 'h', [{ value: NaN }, { labels: { x: '1' }, value: Infinity }]), '# HELP g h\n# TYPE g gauge\ng NaN\ng{x="1"} +Inf\n');
  const counter = bucketCounter('kind', [0.1, 1]);
  [0.05, 0.1, 0.5, 2].forEach((v) => counter.observe('major', v));
  assert.strictEqual(histogramFamily('h_seconds', 'h', [0.1, 1], counter.series()), [
    '# HELP h_seconds h', '# TYPE h_seconds histogram',
    'h_seconds_bucket{kind="major",le="0.1"} 2', 'h_seconds_bucket{kind="major",le="1"} 3', 'h_seconds_bucket{kind="major",le="+Inf"} 4',
    'h_seconds_sum{kind="major"} 2.65', 'h_seconds_count{kind="major"} 4', '',
  ].join('\n'));
});
