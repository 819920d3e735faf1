'use strict';
// The driver's own HTTP face: /healthz and /metrics like every lab service, POST /runs?suite=NAME&loop=0|1 to start a
// suite on demand, GET /runs/latest to follow it and POST /runs/stop to end it, and the live page (src/live/). Every request passes CONTRACT.md's
// "Errors" checks first, in the table's order and with the services' answers (node-kit reads the raw target, matches
// the route table and writes the JSON refusal), on node-kit's server, which answers unparsable heads and cuts clients
// that stall. No express here: the routes are few and take no body.
const { createLabServer } = require('../../node-kit/http-server');
const { checkRequest } = require('../../node-kit/gate');
const { routeTable } = require('../../node-kit/route-table');
const { parseOnlyParams } = require('../../node-kit/params');
const { sendError, logUnexpected } = require('../../node-kit/answers');
const { HttpError, badRequest } = require('../../node-kit/errors');
const { checkSameSite, ownNames } = require('../../node-kit/cross-site');
const { suiteNames } = require('./suites');
const { liveRoutes } = require('./live/routes');

// What the 404 lists; POST /runs takes suite (required) and loop, POST /runs/stop nothing, the live page's routes
// (src/live/routes.js) what README.md says (README.md).
const LIVE_ROUTES = ['GET /', 'GET /live/page.js', 'GET /live/report.css', 'GET /live/page.css', 'GET /live/uplot.js', 'GET /live/uplot.css', 'GET /live/state', 'GET /live/series', 'GET /live/runs', 'GET /live/table', 'GET /live/compare', 'GET /results/:run/:file'];
const ROUTES = ['GET /healthz', 'GET /metrics', 'GET /runs/latest', 'POST /runs', 'POST /runs/stop'].concat(LIVE_ROUTES);
const LOOP = { default: 0, min: 0, max: 1 };
// What Prometheus and health checks reach by whatever name they were given (a compose or Swarm service name): read-only
// and about nothing but the driver itself. Every other route is kept from other sites' pages (checkSameSite).
const OPEN_ROUTES = new Set(['GET /healthz', 'GET /metrics']);

function sendJson(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** {suite, loop} from POST /runs' query, or a 400 naming the parameter. */
function runParams(query, suitesDir) {
  const suites = suiteNames(suitesDir);
  const params = parseOnlyParams({ suite: { values: suites }, loop: LOOP }, query);
  if (params.suite === undefined) throw badRequest(`parameter suite is required: one of ${suites.join(', ')}`, { parameter: 'suite', allowed: suites });
  return params;
}

/** The route a checked request's segments matched, as ROUTES writes it (`:name` takes one segment). */
function routeOf(method, segments) {
  return ROUTES.find((route) => {
    const [m, pattern] = route.split(' ');
    const parts = pattern.slice(1).split('/');
    return m === method && parts.length === segments.length && parts.every((p, i) => (p.startsWith(':') ? segments[i] !== '' : p === segments[i]));
  });
}

function createServer({ runner, metrics, suitesDir, timeouts, hostNames, config }) {
  let shuttingDown = false;
  const names = ownNames(hostNames);
  const check = routeTable(ROUTES);
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
      const { suite, loop } = runParams(query, suitesDir);
      if (shuttingDown) throw new HttpError(503, 'the load driver is shutting down');
      if (runner.running()) throw new HttpError(409, `suite ${runner.latest().suite} is running; POST /runs/stop ends it`, { state: runner.latest().state });
      runner.start(suite, loop === 1);
      sendJson(res, 202, { suite, loop, status: '/runs/latest', stop: '/runs/stop' });
    },
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
        const target = checkRequest(check, req);
        // The route table matched the segments (else it refused the request), so one route is this request's.
        const route = routeOf(req.method, target.segments);
        if (!OPEN_ROUTES.has(route)) checkSameSite(req, names);
        return handlers[route](res, target.query, target.segments);
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
