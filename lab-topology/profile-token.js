'use strict';
// The secret a lab's load driver and its services share for POST /profile (node-kit/profiler.js, the JVM's
// ProfileRoute.kt, load/src/profile/take-profile.js). The user's LAB_PROFILE_TOKEN where they set one; else a fresh one
// for each start of a lab, so that `PROFILE=1 make native` (or make try, make up) profiles without a secret for the
// user to invent and copy into every process. Every starter asks this one function, once per start, and hands the
// answer to the driver and the services alone, through their environment: it is never written to a file, printed or
// kept in results. A service started by hand without one has no profile route, but an agent started without one
// makes its own, in a file of the user's that make attach reads (agents/node-agent/token-file.js). Node 14 syntax.
const { newProfileToken } = require('@lab/node-agent/token-file');

/** env's LAB_PROFILE_TOKEN when set and not empty, else a new random one (64 hex characters) on every call. */
function profileTokenFor(env = process.env) {
  const own = env.LAB_PROFILE_TOKEN;
  return typeof own === 'string' && own !== '' ? own : newProfileToken();
}

module.exports = { profileTokenFor };
