'use strict';
// A CPU profile of the service by itself, for the load driver (issue 39, "why it stalls"): POST /profile?seconds=N
// samples this process's main thread with V8's profiler (the `inspector` module, in the process: no debugger port is
// opened, and Node 14 and 24 both have it) for N seconds and answers the profile (the .cpuprofile format) with the wall
// time it started, so its samples line up with the scenario's window. Worker threads are not profiled: their
// sessions cost a port of their own per worker, and the stalls the lab explains are the main thread's.
// Only the driver may ask: LAB_PROFILE_TOKEN set, a request without `Authorization: Bearer <token>` is answered 401;
// unset, the route does not exist (404, and it is not listed). One profile at a time (409), and the sampling stops if
// the driver goes away.
const { HttpError } = require('./errors');
const { parseOnlyParams } = require('./params');
// The sampling itself, the token's check and the parameters are the agent's (agents/node-agent/profile.js): the
// driver asks a service and an attached service's agent alike.
const { profileFor, authorized, PROFILE_PARAMS } = require('@lab/node-agent/profile');

/** The route, where token (LAB_PROFILE_TOKEN) is set; none where it is not. */
function profileRoutes(token) {
  if (!token) return [];
  let busy = false;
  return [{
    method: 'POST',
    path: '/profile',
    handlers: [async (req, res) => {
      if (!authorized(req, token)) {
        res.set('WWW-Authenticate', 'Bearer');
        throw new HttpError(401, 'profiling is for the load driver: send Authorization: Bearer <LAB_PROFILE_TOKEN>', { allowed: ['Authorization: Bearer <token>'] });
      }
      const { seconds, intervalUs } = parseOnlyParams(PROFILE_PARAMS, req.query);
      if (busy) throw new HttpError(409, 'a profile is being taken: one at a time', { allowed: [] });
      busy = true;
      try {
        const gone = new Promise((resolve) => res.on('close', resolve));
        const taken = await profileFor(seconds, intervalUs, gone);
        if (!res.destroyed) res.json(taken);
      } finally {
        busy = false;
      }
    }],
  }];
}

module.exports = { profileRoutes, PROFILE_PARAMS };
