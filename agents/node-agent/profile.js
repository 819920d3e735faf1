'use strict';
// A CPU profile of the main thread, for the load driver, exactly as node-kit/profiler.js answers it for the services
// (same parameters and ranges, same answer {thread: 'main', startedAtMs, endedAtMs, intervalUs, profile}): V8's
// profiler through the `inspector` module, in the process (no debugger port is opened). Worker threads are not
// profiled. Only a client with `Authorization: Bearer <LAB_PROFILE_TOKEN>` may ask (compared in constant time); one
// profile at a time; the sampling stops when the client goes away. Node 14 syntax.
const crypto = require('crypto');

// The driver asks the agent and the services alike: node-kit/profiler.js takes these, and profileFor and authorized.
const PROFILE_PARAMS = { seconds: { default: 10, min: 1, max: 300 }, intervalUs: { default: 1000, min: 100, max: 100000 } };
const INTEGER = /^-?\d+$/;

/** An error answer {status, error, ...details}, thrown and written as JSON by server.js. */
const refusal = (status, error, details, headers) => Object.assign(new Error(error), { status, details: details || {}, headers: headers || {} });

/**
 * The profile's {seconds, intervalUs} from a query ({name: [values]}), as node-kit/params.js' parseOnlyParams reads
 * them: an unknown parameter, one given twice, a value that is not a plain integer or outside its range is a 400
 * naming what is allowed.
 */
function profileParams(query) {
  for (const name of Object.keys(query)) {
    if (!Object.prototype.hasOwnProperty.call(PROFILE_PARAMS, name)) throw refusal(400, `unknown parameter ${name}`, { parameter: name, allowed: Object.keys(PROFILE_PARAMS) });
  }
  const params = {};
  for (const name of Object.keys(PROFILE_PARAMS)) {
    const schema = PROFILE_PARAMS[name];
    const allowed = { min: schema.min, max: schema.max };
    if (!Object.prototype.hasOwnProperty.call(query, name)) {
      params[name] = schema.default;
      continue;
    }
    if (query[name].length !== 1) throw refusal(400, `parameter ${name} must be given once`, { parameter: name, allowed });
    const value = INTEGER.test(query[name][0]) ? Number(query[name][0]) : NaN;
    if (!Number.isSafeInteger(value)) throw refusal(400, `${name} must be an integer`, { parameter: name, allowed });
    if (value < schema.min || value > schema.max) throw refusal(400, `${name} must be between ${schema.min} and ${schema.max}`, { parameter: name, allowed });
    params[name] = value;
  }
  return params;
}

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function authorized(req, token) {
  const given = Buffer.from(String(req.headers.authorization || ''));
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}

/** session.post as a promise (Node 14's inspector has the callback form only). */
const post = (session, method, params) => new Promise((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));

/** Profiles the main thread for `seconds` (stopping early when `stopped` resolves). */
async function profileFor(seconds, intervalUs, stopped) {
  // Required here, not at load: a Node built without the inspector still gets every metric.
  const inspector = require('inspector');
  const session = new inspector.Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: intervalUs });
    const startedAtMs = Date.now();
    await post(session, 'Profiler.start');
    let timer;
    // Unref'd, as the agent's server and its connections are: a profile never keeps the user's process alive.
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, seconds * 1000)).unref()), stopped]);
    clearTimeout(timer);
    const { profile } = await post(session, 'Profiler.stop');
    return { thread: 'main', startedAtMs, endedAtMs: Date.now(), intervalUs, profile };
  } finally {
    session.disconnect();
  }
}

/** The POST /profile handler for token: (req, res, query) -> promise of the answer's body, or a thrown refusal. */
function profileHandler(token) {
  let busy = false;
  return async (req, res, query) => {
    if (!authorized(req, token)) {
      throw refusal(401, 'profiling is for the load driver: send Authorization: Bearer <LAB_PROFILE_TOKEN>', { allowed: ['Authorization: Bearer <token>'] }, { 'WWW-Authenticate': 'Bearer' });
    }
    const { seconds, intervalUs } = profileParams(query);
    if (busy) throw refusal(409, 'a profile is being taken: one at a time', { allowed: [] });
    busy = true;
    try {
      // 'close' of the response: the answer was sent, or the client went away first (then the sampling stops).
      const gone = new Promise((resolve) => res.on('close', resolve));
      return await profileFor(seconds, intervalUs, gone);
    } finally {
      busy = false;
    }
  };
}

module.exports = { profileHandler, profileParams, profileFor, authorized, refusal, PROFILE_PARAMS };
