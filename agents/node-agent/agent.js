'use strict';
// The lab's Node agent: `node -r /path/agents/node-agent/agent.js app.js`, or NODE_OPTIONS="--require <that path>"
// in front of any Node service (Node 14.17 to 26), serves the lab's metrics of that process on a side port of its own
// (README.md: settings, routes, metrics). It depends on nothing but Node's built-ins and changes nothing in the user's
// process but worker_threads.Worker (workers.js). Whatever goes wrong, the user's process goes on, unwatched, with one
// line on stderr saying why. Node 14 syntax.
const fs = require('fs');
const { isMainThread } = require('worker_threads');
const { readSettings, SettingError } = require('./settings');
const { wrapperOf } = require('./wrappers');
const { newProfileToken, ownUid, openTokenFolder, writeTokenFile, removeTokenFile, TokenFolderError } = require('./token-file');

const say = (line) => process.stderr.write(`lab agent: ${line}\n`);
const who = () => `pid ${process.pid}, ${JSON.stringify(process.argv.join(' '))}`;

/** Why the agent stays off in this process, or null: a worker thread, a package manager's own process, a cluster worker. */
function skipReason() {
  // A worker thread of the user's: the main thread's agent watches it (and NODE_OPTIONS' --require runs in workers too).
  if (!isMainThread) return 'worker thread';
  const wrapper = wrapperOf(process.argv[1]);
  if (wrapper) return `package manager ${wrapper}`;
  // A cluster worker's listen would share the primary's port: scrapes would reach a worker at random.
  if (process.env.NODE_UNIQUE_ID !== undefined) return 'cluster worker';
  return null;
}

/**
 * POST /profile's token and where it comes from: {token, source: 'env' | 'file' | null, folder (the token file's, for
 * 'file')}. LAB_PROFILE_TOKEN's; else a new one for a token file in the user's own folder; else none, said in one line.
 */
function profileTokenOf(settings) {
  if (settings.profileToken) return { token: settings.profileToken, source: 'env', folder: null };
  try {
    return { token: newProfileToken(), source: 'file', folder: openTokenFolder(settings.tokenFolder, ownUid()) };
  } catch (err) {
    const why = err instanceof TokenFolderError ? err.message : `the token folder ${settings.tokenFolder}: ${err.code || err.message}`;
    say(`no POST /profile: ${why}; set LAB_AGENT_TOKEN_DIR to a folder of your own, or LAB_PROFILE_TOKEN (${who()})`);
    return { token: null, source: null, folder: null };
  }
}

function start() {
  let settings;
  try {
    settings = readSettings();
  } catch (err) {
    if (err instanceof SettingError) return say(`${err.message}; the agent is off (${who()})`);
    throw err;
  }
  // Required only in a process the agent watches: a skipped one loads nothing more.
  const { startMetrics } = require('./metrics');
  const { createAgentServer } = require('./server');
  const { AGENT_VERSION } = require('./process-metrics');
  const profile = profileTokenOf(settings);
  const metrics = startMetrics(settings);
  const startedAt = new Date().toISOString();
  const agent = {
    metrics,
    info: () => ({
      agent: 'node',
      agentVersion: AGENT_VERSION,
      runtime: { name: 'node', version: process.versions.node },
      pid: process.pid,
      argv: process.argv,
      startedAt,
      profile: Boolean(profile.token),
      // Where the token comes from, never the token nor the file's path: a client finds the file by the port alone.
      profileToken: profile.source,
      // The lag figures are whole timer intervals: an idle loop reads about this much, which a reader subtracts.
      lagResolutionMs: settings.lagResolutionMs,
      workers: metrics.workers(),
      metrics: metrics.names(),
    }),
  };
  const server = createAgentServer(agent, Object.assign({}, settings, { profileToken: profile.token }));
  server.once('error', (err) => {
    metrics.stop();
    say(`cannot listen on ${settings.host}:${settings.port} (${err.code || err.message}) in ${who()}; this process goes on unwatched`);
  });
  server.listen(settings.port, settings.host, () => {
    const { port } = server.address();
    const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
    // Before the port file: whoever waits for that finds the token file written too.
    if (profile.folder) {
      try {
        const file = writeTokenFile(profile.folder, port, profile.token);
        // 'exit' only: a handler for SIGTERM would change how the user's process ends. A file left by a killed process
        // is overwritten by the next agent on its port.
        process.on('exit', () => removeTokenFile(file, profile.token));
      } catch (err) {
        profile.source = null;
        say(`cannot write the token file in ${profile.folder} (${err.code || err.message}): no client can be given the token for POST /profile; set LAB_PROFILE_TOKEN`);
      }
    }
    if (settings.portFile) {
      try {
        // Written aside and renamed, so that a reader never sees the file empty.
        const aside = `${settings.portFile}.${process.pid}.tmp`;
        fs.writeFileSync(aside, String(port));
        fs.renameSync(aside, settings.portFile);
      } catch (err) {
        say(`cannot write LAB_AGENT_PORT_FILE ${settings.portFile} (${err.code || err.message}); serving on port ${port} all the same`);
      }
    }
    say(`metrics on http://${host}:${port}/metrics (pid ${process.pid})`);
  });
  return undefined;
}

const reason = skipReason();
if (reason === null) {
  try {
    start();
  } catch (err) {
    say(`failed to start (${err && err.message}); this process goes on unwatched (${who()})`);
  }
}
