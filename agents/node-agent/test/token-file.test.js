'use strict';
// The token file of an agent started without LAB_PROFILE_TOKEN, on every Node line the agent supports: the user's
// alone (a 0700 folder, a 0600 file named by the side port), its token the one POST /profile takes, gone when the
// process ends; a folder another user could reach is refused in one stderr line, and the service goes on without the
// route; with LAB_PROFILE_TOKEN no file at all. The folder rule itself against the cases both agents share.
const { describe, test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { childNodes, nodeVersion, startWithAgent } = require('./agent-process');
const { tokenFolder, readTokenFile, TokenFolderError } = require('../token-file');

const CASES = path.join(__dirname, '..', '..', 'token-folders.json');
// Another user's uid for a folder to refuse: nobody's, where the tests may chown (as root).
const NOBODY = 65534;

/** POST /profile?seconds=0 with token: seconds=0 is out of range, so a 400 says the token was taken, a 401 that not. */
async function profileStatus(child, token) {
  return (await child.agent('/profile?seconds=0', { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status;
}

/** A temp folder with mode, removed by the returned function. */
function tempFolder(mode) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-agent-token-test-'));
  fs.chmodSync(dir, mode);
  return dir;
}

for (const node of childNodes()) {
  describe(`the token file on Node ${nodeVersion(node)}`, () => {
    test("without LAB_PROFILE_TOKEN: a 0600 file named by the port in a 0700 folder, its token POST /profile's; gone when the process ends", async () => {
      const child = await startWithAgent(node);
      try {
        const port = await child.agentPort();
        assert.strictEqual(fs.statSync(child.tokenDir).mode & 0o777, 0o700);
        assert.deepStrictEqual(fs.readdirSync(child.tokenDir), [`${port}.token`], 'the file, and nothing written aside left');
        const file = path.join(child.tokenDir, `${port}.token`);
        assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
        const token = fs.readFileSync(file, 'utf8');
        assert.match(token, /^[0-9a-f]{64}$/);
        const info = await child.agent('/info');
        assert.strictEqual(info.json().profile, true);
        assert.strictEqual(info.json().profileToken, 'file');
        assert.ok(!info.text.includes(token) && !info.text.includes(child.tokenDir), 'neither the token nor its folder in /info');
        assert.strictEqual(await profileStatus(child, token), 400);
        assert.strictEqual(await profileStatus(child, `${token.slice(1)}0`), 401);
        assert.strictEqual(child.stderr().split('\n').filter(Boolean).length, 1, child.stderr());
        assert.deepStrictEqual(await child.service('/exit'), { exiting: true });
        assert.deepStrictEqual(await child.exited, { code: 0, signal: null });
        assert.deepStrictEqual(fs.readdirSync(child.tokenDir), []);
      } finally {
        await child.stop();
      }
    });

    test('a token folder others may enter, or of another uid: one stderr line saying what to set, no POST /profile, the service goes on', async () => {
      const open = tempFolder(0o777);
      // As root the test makes a folder of nobody's; otherwise / is root's (the owner is checked before the mode).
      const theirs = process.getuid() === 0 ? tempFolder(0o700) : '/';
      if (theirs !== '/') fs.chownSync(theirs, NOBODY, NOBODY);
      try {
        for (const [folder, why] of [[open, /is open to other users \(mode 777\): chmod 700 it/], [theirs, /belongs to uid \d+, not to this process's \d+/]]) {
          const child = await startWithAgent(node, { env: { LAB_AGENT_TOKEN_DIR: folder } });
          try {
            const [line] = await child.waitForStderr(/lab agent: no POST \/profile: .*\n/);
            assert.match(line, why);
            assert.match(line, /; set LAB_AGENT_TOKEN_DIR to a folder of your own, or LAB_PROFILE_TOKEN \(pid \d+, ".*service\.js"\)/);
            const refused = await child.agent('/profile?seconds=0', { method: 'POST' });
            assert.strictEqual(refused.status, 404);
            assert.deepStrictEqual(refused.json().routes, ['GET /metrics', 'GET /healthz', 'GET /info']);
            const info = (await child.agent('/info')).json();
            assert.deepStrictEqual([info.profile, info.profileToken], [false, null]);
            assert.deepStrictEqual(Object.keys(await child.service('/block?ms=1')), ['blockedMs'], 'the service answers');
            assert.strictEqual(child.stderr().split('\n').filter(Boolean).length, 2, `this line and where the metrics are: ${child.stderr()}`);
            if (folder === open) assert.deepStrictEqual(fs.readdirSync(open), []);
          } finally {
            await child.stop();
          }
        }
      } finally {
        fs.rmSync(open, { recursive: true, force: true });
        if (theirs !== '/') fs.rmSync(theirs, { recursive: true, force: true });
      }
    });

    test('with LAB_PROFILE_TOKEN: no token file, no folder made, and /info says the token is the environment\'s', async () => {
      const child = await startWithAgent(node, { env: { LAB_PROFILE_TOKEN: 'a-token-for-the-tests' } });
      try {
        await child.agentPort();
        assert.strictEqual(fs.existsSync(child.tokenDir), false);
        assert.strictEqual((await child.agent('/info')).json().profileToken, 'env');
      } finally {
        await child.stop();
      }
    });
  });
}

test("the token folder's rule: the cases both agents share", () => {
  const { cases } = JSON.parse(fs.readFileSync(CASES, 'utf8'));
  assert.ok(cases.length >= 5);
  for (const c of cases) assert.strictEqual(tokenFolder(c.env, c.uid), c.folder, JSON.stringify(c));
  assert.strictEqual(tokenFolder({ LAB_AGENT_TOKEN_DIR: 'tokens' }, 1), path.resolve('tokens'), 'a relative folder is the working directory\'s');
});

test("a reader (make attach) takes a file from the user's own folder only, and never makes the folder", () => {
  const uid = process.getuid();
  const missing = path.join(os.tmpdir(), `lab-agent-token-test-missing-${process.pid}`);
  assert.strictEqual(readTokenFile(missing, 9464, uid), null);
  assert.strictEqual(fs.existsSync(missing), false);
  const own = tempFolder(0o700);
  const open = tempFolder(0o755);
  try {
    assert.strictEqual(readTokenFile(own, 9464, uid), null, 'no file for that port');
    fs.writeFileSync(path.join(own, '9464.token'), 'abc\n', { mode: 0o600 });
    assert.strictEqual(readTokenFile(own, 9464, uid), 'abc');
    fs.writeFileSync(path.join(open, '9464.token'), 'planted');
    assert.throws(() => readTokenFile(open, 9464, uid), (err) => err instanceof TokenFolderError && /open to other users \(mode 755\)/.test(err.message));
    assert.throws(() => readTokenFile(own, 9464, uid + 1), /belongs to uid/);
  } finally {
    fs.rmSync(own, { recursive: true, force: true });
    fs.rmSync(open, { recursive: true, force: true });
  }
});
