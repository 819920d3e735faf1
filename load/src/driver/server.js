'use strict';
// The driver's own HTTP face: /healthz and /metrics like every lab service, POST /runs?suite=NAME&loop=0|1 to start a
// suite on demand, GET /runs/latest to follow it and POST /runs/stop to end it, PUT /documents for a user's document
// (documents.js) and POST /runs?suite=try&document=<sha256> to run it through every approach, POST /attach?url=... to
// load a service the lab did not write as make attach does (attach/attach-request.js), and the live page
// (src/live/). Every request passes CONTRACT.md's "Errors" checks first, in the table's order and with the services'
// answers (node-kit reads the raw target, matches the route table and writes the JSON refusal), on node-kit's server,
// which answers unparsable heads and cuts clients that stall. No express here: the routes are few, and the one body
// (PUT /documents) is read by node-kit's readDocument.
const { createLabServer } = require('@lab/node-kit/http-server');
const { checkRequest } = require('@lab/node-kit/gate');
const { routeTable } = require('@lab/node-kit/route-table');
const { parseOnlyParams } = require('@lab/node-kit/params');
const { sendError, logUnexpected } = require('@lab/node-kit/answers');
const { HttpError, badRequest } = require('@lab/node-kit/errors');
const { checkRoute, ownNames } = require('@lab/node-kit/cross-site');
const { suiteNames, LIMITS } = require('../suite/suites');
const { DEFAULT_BLOCK_MS } = require('../try/try-choice');
const { MAX_ROUNDS } = require('../try/try-suite');
const { liveRoutes, LIVE_ROUTES } = require('../live/routes');
const { attachParams, bodyOf, attachRun } = require('../attach/attach-request');

// POST /attach's run is a suite of this name, made in memory (attach/attach-suite.js).
const ATTACH_SUITE = 'attach';

// What the 404 lists; POST /runs takes suite (required) and loop, POST /runs/stop nothing, the live page's routes
// (src/live/routes.js) what README.md says (README.md).
const ROUTES = ['GET /healthz', 'GET /metrics', 'GET /runs/latest', 'POST /runs', 'POST /runs/stop', 'POST /attach', 'PUT /documents', 'GET /documents'].concat(LIVE_ROUTES);
const LOOP = { default: 0, min: 0, max: 1 };
// A try run's own parameters (run/plan.js' checkRunOptions refuses them for other suites): the stored document, the
// longest block the user accepts (ms; try-choice.js), each scenario's duration and the rounds each approach runs
// (0: the suite's; try-suite.js).
const TRY_PARAMS = {
  document: { default: '', pattern: '[0-9a-f]{64}' },
  blockMs: { default: DEFAULT_BLOCK_MS, min: 0, max: 60000 },
  durationSeconds: { default: 0, min: 0, max: LIMITS.durationSeconds },
  rounds: { default: 0, min: 0, max: MAX_ROUNDS },
};
// Any run's own narrowing: only the scenarios of these targets (comma-separated names; runner.js checks them against
// the driver's targets and the suite), so one suite serves a run against part of the lab (make matrix's steps).
const TARGETS_PARAM = { targets: { default: '', pattern: '[a-z0-9-]+(,[a-z0-9-]+)*' } };

function sendJson(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * {suite, loop, options} from POST /runs' query, or a 400 naming the parameter; options holds the try parameters the
 * query gave (runner.js checks them against the suite).
 */
function runParams(query, suitesDir) {
  const suites = suiteNames(suitesDir);
  const params = parseOnlyParams(Object.assign({ suite: { values: suites }, loop: LOOP }, TRY_PARAMS, TARGETS_PARAM), query);
  if (params.suite === undefined) throw badRequest(`parameter suite is required: one of ${suites.join(', ')}`, { parameter: 'suite', allowed: suites });
  const options = Object.fromEntries(Object.keys(TRY_PARAMS).filter((name) => Object.prototype.hasOwnProperty.call(query, name)).map((name) => [name, params[name]]));
  if (params.targets) options.targets = params.targets.split(',');
  return { suite: params.suite, loop: params.loop, options };
}

/** The route a checked request's segments matched, as ROUTES writes it (`:name` takes one segment). */
function routeOf(method, segments) {
  return ROUTES.find((route) => {
    const [m, pattern] = route.split(' ');
    const parts = pattern.slice(1).split('/');
    return m === method && parts.length === segments.length && parts.every((p, i) => (p.startsWith(':') ? segments[i] !== '' : p === segments[i]));
  });
}

function createServer({ runner, metrics, suitesDir, timeouts, hostNames, config, documents }) {
  let shuttingDown = false;
  const names = ownNames(hostNames);
  const check = routeTable(ROUTES);
  // POST /attach loads loopback addresses and the hosts of the driver's own targets (in compose, the services' names).
  const attachWhere = { hosts: [...new Set(Object.values(config.targets).map((url) => new URL(url).hostname))], allowRemote: config.attachAllowRemote };
  const refuseIfBusy = () => {
    if (shuttingDown) throw new HttpError(503, 'the load driver is shutting down');
    if (runner.running()) throw new HttpError(409, `suite ${runner.latest().suite} is running; POST /runs/stop ends it`, { state: runner.latest().state });
  };
  // The query is read (and refused if malformed) for every route; GET routes ignore it, as the services' do.
  const handlers = {
    'GET /healthz': (res) => sendJson(res, shuttingDown ? 503 : 200, { status: shuttingDown ? 'shutting-down' : 'ok' }),
    'GET /metrics': async (res) => {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
      res.end(text);
    },
    'GET /runs/latest': (res) => {
      const latest = runner.latest();
      if (!latest) throw new HttpError(404, 'no suite has run yet');
      sendJson(res, 200, latest);
    },
    'POST /runs': (res, query) => {
      const { suite, loop, options } = runParams(query, suitesDir);
      if (shuttingDown) throw new HttpError(503, 'the load driver is shutting down');
      if (runner.running()) throw new HttpError(409, `suite ${runner.latest().suite} is running; POST /runs/stop ends it`, { state: runner.latest().state });
      runner.start(suite, loop === 1, options);
      sendJson(res, 202, Object.assign({ suite, loop }, options, { status: '/runs/latest', stop: '/runs/stop' }));
    },
    'POST /attach': async (res, query, segments, req) => {
      const request = attachParams(query, attachWhere);
      refuseIfBusy();
      request.endpoint.body = await bodyOf(req);
      const { suite, attachment, info } = await attachRun(config, request);
      refuseIfBusy(); // again: a run may have started while the endpoint was asked
      runner.startAttached(ATTACH_SUITE, suite, attachment);
      const agent = info ? { kind: info.agent, runtime: info.runtime || null } : null;
      sendJson(res, 202, { suite: ATTACH_SUITE, url: request.endpoint.url.href, method: request.endpoint.method, agent, unscraped: attachment.unscraped, waitingFor: attachment.waitingFor, status: '/runs/latest', stop: '/runs/stop' });
    },
    'PUT /documents': async (res, query, segments, req) => {
      parseOnlyParams({}, query);
      if (shuttingDown) throw new HttpError(503, 'the load driver is shutting down');
      // Handing a document over makes every service read and hash it: a measurement running meanwhile would pay.
      if (runner.running()) throw new HttpError(409, `suite ${runner.latest().suite} is running: a document handed over now would disturb its measurements; POST /runs/stop ends it`, { state: runner.latest().state });
      const { status, body } = await documents.put(req);
      sendJson(res, status, body);
    },
    'GET /documents': (res) => sendJson(res, 200, documents.list()),
    'POST /runs/stop': async (res, query) => {
      parseOnlyParams({}, query);
      const stopped = runner.stop();
      if (!stopped) {
        const latest = runner.latest();
        throw new HttpError(409, 'no suite is running', { state: latest ? latest.state : null });
      }
      sendJson(res, 200, await stopped); // the run's state once its scenario has stopped and its results are written
    },
  };
  Object.assign(handlers, liveRoutes({ config, runner }));
  const server = createLabServer((req, res) => {
    Promise.resolve()
      .then(() => {
        // The route table matched the segments (else it refused the request), so one route is this request's; every
        // route but the open ones is kept from other sites' pages and rebound names, before the query is read.
        const target = checkRequest(check, req, (segments) => checkRoute(routeOf(req.method, segments), req, names));
        return handlers[routeOf(req.method, target.segments)](res, target.query, target.segments, req);
      })
      .catch((err) => {
        logUnexpected(err, { service: 'load', route: `${req.method} ${req.url}` });
        sendError(res, err, req);
      });
  }, timeouts);
  server.markShuttingDown = () => {
    shuttingDown = true;
  };
  return server;
}

module.exports = { createServer, ROUTES };
