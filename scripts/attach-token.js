'use strict';
// The token make attach hands its load driver for the agent's profiles, and what the user is told of profiles before
// the run. LAB_PROFILE_TOKEN when given; else, for an agent on this machine that made its own (its /info says
// profileToken: 'file'), the token file it wrote: found by the same folder rule (@lab/node-agent/token-file) and the
// agent's port, never by a path from the agent's answer (another user's process on that port could name a file of
// theirs). The token itself is never printed.
const { tokenFolder, tokenFileOf, readTokenFile, ownUid, TokenFolderError } = require('@lab/node-agent/token-file');
const { isLoopback } = require('@lab/load/src/attach/endpoint');

const NO_PROFILES = 'no CPU profiles';

/**
 * {token, note} for the agent at agentUrl whose /info is info (null: none answered): the token to profile with, or
 * null; the line to tell the user, or null.
 */
function attachProfileToken(agentUrl, info, env = process.env) {
  if (!info) return { token: null, note: null };
  const own = env.LAB_PROFILE_TOKEN || null;
  if (!info.profile) {
    return { token: null, note: `the agent has no profile route (its stderr says why): ${NO_PROFILES}; start the service with LAB_AGENT_TOKEN_DIR=<a folder of your own>, or with LAB_PROFILE_TOKEN=<secret> and give make attach the same` };
  }
  if (info.profileToken !== 'file') {
    // 'env', or an agent from before token files: the token is the one it was started with.
    return own ? { token: own, note: null } : { token: null, note: `the agent takes profiles with the LAB_PROFILE_TOKEN it was started with, and make attach has none: ${NO_PROFILES}; give make attach the same` };
  }
  if (own) return { token: null, note: `make attach has a LAB_PROFILE_TOKEN, but the agent was started without one and made its own: ${NO_PROFILES}; unset LAB_PROFILE_TOKEN for make attach (it then reads the agent's token file), or start the service with it` };
  const url = new URL(agentUrl);
  if (!isLoopback(url.hostname)) {
    return { token: null, note: `the agent keeps its token in a file on its own machine, read only for an agent on this one: ${NO_PROFILES}; start the service with LAB_PROFILE_TOKEN=<secret> and give make attach the same` };
  }
  const port = Number(url.port) || 80;
  const uid = ownUid();
  const folder = tokenFolder(env, uid);
  let token;
  try {
    token = readTokenFile(folder, port, uid);
  } catch (err) {
    if (!(err instanceof TokenFolderError)) throw err;
    return { token: null, note: `${err.message}: ${NO_PROFILES}; it is not the user's own, so its token file is not read` };
  }
  if (token === null) {
    const file = folder === null ? `<no folder: this platform has no user ids>/${port}.token` : tokenFileOf(folder, port);
    return { token: null, note: `no token file ${file} for the agent on port ${port}: ${NO_PROFILES}; start the service and make attach with the same LAB_AGENT_TOKEN_DIR, XDG_RUNTIME_DIR and TMPDIR, as the same user, on this machine's file system (not in a container), or give both LAB_PROFILE_TOKEN` };
  }
  return { token, note: `profiles with the token the agent wrote to ${tokenFileOf(folder, port)}` };
}

module.exports = { attachProfileToken };
