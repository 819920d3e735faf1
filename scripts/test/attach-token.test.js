'use strict';
// The token make attach hands its driver for the agent's profiles (attach-token.js): LAB_PROFILE_TOKEN for an agent
// started with one; the agent's own token file, by the folder rule and the agent's port, for one on this machine that
// made its own; and for everything else no token and one line saying what to set. The token is never in a line.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir } = require('@lab/test-kit');
const { attachProfileToken } = require('../attach-token');

const AGENT = 'http://127.0.0.1:9464';
const TOKEN = 'f'.repeat(64);
const agentWith = (profileToken) => ({ agent: 'node', profile: profileToken !== null, profileToken });

/** A token folder of the user's own (0700) holding 9464.token. */
function ownFolder() {
  const dir = tempDir('lab-attach-token-test-');
  fs.chmodSync(dir, 0o700);
  fs.writeFileSync(path.join(dir, '9464.token'), TOKEN, { mode: 0o600 });
  return dir;
}

test('an agent started with LAB_PROFILE_TOKEN: make attach needs the same, and says so without it', () => {
  assert.deepStrictEqual(attachProfileToken(AGENT, null, {}), { token: null, note: null }, 'no agent: nothing to say');
  assert.deepStrictEqual(attachProfileToken(AGENT, agentWith('env'), { LAB_PROFILE_TOKEN: 's' }), { token: 's', note: null });
  const none = attachProfileToken(AGENT, agentWith('env'), {});
  assert.strictEqual(none.token, null);
  assert.match(none.note, /started with, and make attach has none: no CPU profiles; give make attach the same/);
  const old = attachProfileToken(AGENT, { agent: 'jvm', profile: true }, { LAB_PROFILE_TOKEN: 's' });
  assert.strictEqual(old.token, 's', 'an agent from before token files');
});

test("an agent that made its own: its token file, found by the folder rule and the agent's port", () => {
  const folder = ownFolder();
  const found = attachProfileToken(AGENT, agentWith('file'), { LAB_AGENT_TOKEN_DIR: folder });
  assert.strictEqual(found.token, TOKEN);
  assert.strictEqual(found.note, `profiles with the token the agent wrote to ${path.join(folder, '9464.token')}`);
  assert.strictEqual(attachProfileToken('http://localhost:9464', agentWith('file'), { LAB_AGENT_TOKEN_DIR: folder }).token, TOKEN);
  const otherPort = attachProfileToken('http://127.0.0.1:9465', agentWith('file'), { LAB_AGENT_TOKEN_DIR: folder });
  assert.strictEqual(otherPort.token, null);
  assert.match(otherPort.note, /^no token file .*9465\.token for the agent on port 9465: no CPU profiles; start the service and make attach with the same LAB_AGENT_TOKEN_DIR, XDG_RUNTIME_DIR and TMPDIR/);
});

test('no token where the file cannot be trusted or read, each said in a line without the token', () => {
  const open = ownFolder();
  fs.chmodSync(open, 0o777);
  const cases = [
    [AGENT, { LAB_AGENT_TOKEN_DIR: open }, /the token folder .* is open to other users \(mode 777\): chmod 700 it: no CPU profiles/],
    ['http://10.0.0.5:9464', { LAB_AGENT_TOKEN_DIR: ownFolder() }, /keeps its token in a file on its own machine/],
    [AGENT, { LAB_AGENT_TOKEN_DIR: ownFolder(), LAB_PROFILE_TOKEN: 's' }, /make attach has a LAB_PROFILE_TOKEN, but the agent was started without one and made its own/],
  ];
  for (const [url, env, note] of cases) {
    const said = attachProfileToken(url, agentWith('file'), env);
    assert.strictEqual(said.token, null, url);
    assert.match(said.note, note);
    assert.ok(!said.note.includes(TOKEN));
  }
  const off = attachProfileToken(AGENT, agentWith(null), {});
  assert.strictEqual(off.token, null);
  assert.match(off.note, /the agent has no profile route \(its stderr says why\): no CPU profiles; start the service with LAB_AGENT_TOKEN_DIR=/);
});
