'use strict';
// The contract's routes on an injected express (4 on Node 14, 5 on Node 24), behind gate.js, which has checked every
// request first. Handlers catch their own promise rejections because express 4 would not.
const { HttpError, busy } = require('./errors');
const { slicedExposition } = require('./exposition');
const { parseRunRequest, describeWorkload } = require('./params');
const { createAbortController } = require('@lab/loop-kit/abort');
const { sendError, asClientError, logUnexpected } = require('./answers');
const { gate } = require('./gate');
const { checkRoute, ownNames } = require('./cross-site');

const ROUTES = ['GET /healthz', 'GET /metrics', 'GET /info', 'GET /run/:workload'];

function outcomeOf(result) {
  if (result.interrupted) return 'interrupted';
  return result.validated ? 'ok' : 'invalid';
}

function runWorkload(definition, metrics, limiter) {
  return (req, res) => {
    const name = req.params.workload;
    const workload = definition.workloads[name]; // one of them: the gate refused the others (unknownWorkload)
    let request;
    try {
      request = parseRunRequest(workload, req.query);
    } catch (err) {
      sendError(res, err);
      return;
    }
    if (!limiter.tryAcquire()) {
      sendError(res, busy(`${limiter.limit} runs already in progress; retry later`));
      return;
    }
    const labels = { workload: name, approach: request.approach };
    const summary = { service: definition.name, workload: name, approach: request.approach, params: request.params, case: workload.caseOf(request.params) };
    const clientGone = watchClient(res);
    const sink = workload.streams && workload.streams(request.params) ? startStream(res) : undefined;
    // One catch for the run and for what is done with its result: a result the metrics cannot take (a run without
    // its ms) must still be answered, never leave its client waiting.
    Promise.resolve()
      .then(() => workload.run(request, { signal: clientGone.signal, sink, stalledClientTimeoutMs: definition.stalledClientTimeoutMs }))
      .then((result) => {
        recordRun(metrics, labels, workload.caseOf(request.params), result);
        const body = Object.assign(summary, result);
        if (sink) endStream(res, body);
        else res.json(body);
      })
      .catch((err) => {
        metrics.runs.inc(Object.assign({ outcome: 'error' }, labels));
        // A run cut because its client left ends however its approach ends; that is no failure of the service.
        if (!clientGone.signal.aborted) logUnexpected(err, { service: definition.name, workload: name, approach: request.approach });
        sendError(res, err);
      })
      .then(clientGone.stop, clientGone.stop)
      .then(limiter.release, limiter.release);
  };
}

function recordRun(metrics, labels, runCase, result) {
  const outcome = outcomeOf(result);
  metrics.runs.inc(Object.assign({ outcome }, labels));
  if (result.eventLoop) metrics.maxBlock.observe(labels, result.eventLoop.maxBlockMs / 1000);
  if (typeof result.yields === 'number') metrics.yields.inc(labels, result.yields);
  if (outcome !== 'ok') return;
  metrics.runDuration.observe(Object.assign({ case: runCase }, labels), result.ms / 1000);
  if (typeof result.bytes === 'number') metrics.bytes.inc(labels, result.bytes);
}

/** An abort signal for the run that fires if the client disconnects before the response is complete. */
function watchClient(res) {
  const controller = createAbortController();
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'));
  };
  res.on('close', onClose);
  return { signal: controller.signal, stop: () => res.removeListener('close', onClose) };
}

// A streamed run writes the document as the body; its result arrives after the last byte, so it travels as an HTTP
// trailer (chunked encoding), and a failure after the first byte can only cut the connection.
const RESULT_TRAILER = 'X-Lab-Result';

function startStream(res) {
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Trailer', RESULT_TRAILER);
  return res;
}

function endStream(res, body) {
  if (res.destroyed) return;
  if (!res.headersSent) res.flushHeaders();
  res.addTrailers({ [RESULT_TRAILER]: JSON.stringify(body) });
  res.end();
}

function concurrencyLimiter(limit) {
  let running = 0;
  return {
    limit,
    get running() {
      return running;
    },
    tryAcquire() {
      if (running >= limit) return false;
      running++;
      return true;
    },
    release() {
      running--;
    },
  };
}

/**
 * A service's own routes beside the contract's: {method, path, handlers: [middleware..., handler]}. A handler may
 * return a promise; its rejection is answered like any error (express 4 would leave it hanging).
 */
function addRoutes(app, routes) {
  for (const route of routes) {
    const handlers = route.handlers.map((handler) => (req, res, next) => {
      let outcome;
      try {
        outcome = handler(req, res, next);
      } catch (err) {
        next(err);
        return;
      }
      if (outcome && typeof outcome.then === 'function') outcome.then(undefined, next);
    });
    app[route.method.toLowerCase()](route.path, ...handlers);
  }
}

/**
 * Rows 6 and 6a of CONTRACT.md's table, once the route is known: /run/<workload> naming no workload is a 404 naming
 * the workloads; then every route but the open ones refuses a Host that is not one of `names` and other sites' pages.
 */
function checkRouted(workloads, names) {
  return (segments, req) => {
    if (segments.length === 2 && segments[0] === 'run' && !Object.prototype.hasOwnProperty.call(workloads, segments[1])) {
      throw new HttpError(404, `no workload ${segments[1]}`, { allowed: Object.keys(workloads) });
    }
    checkRoute(`${req.method} /${segments.join('/')}`, req, names);
  };
}

/** The service's request handler: express with the contract's routes and the service's own, behind the gate. */
function buildApp(definition, metrics, state) {
  const app = definition.express();
  app.disable('x-powered-by');
  app.set('query parser', false); // gate.js reads the query, strictly, once
  const routes = definition.routes || [];
  const allRoutes = ROUTES.concat(routes.map((r) => `${r.method.toUpperCase()} ${r.path}`));
  const limiter = concurrencyLimiter(definition.maxConcurrentRuns);
  // `runs`: the runs in progress, a run whose client went away counted until its approach stops (yieldable-json cannot
  // be stopped): the load driver waits for none before its next scenario, so that such a run's blocks are not charged
  // to the approach measured next (load/src/run/idle-target.js).
  app.get('/healthz', (req, res) => {
    if (state.shuttingDown) res.status(503).json({ status: 'shutting-down' });
    else res.json({ status: 'ok', runs: limiter.running });
  });
  app.get('/metrics', (req, res) => {
    slicedExposition(metrics.registry).then(
      (text) => res.set('Content-Type', metrics.registry.contentType).send(text),
      (err) => {
        logUnexpected(err, { service: definition.name, route: 'GET /metrics' });
        sendError(res, err);
      },
    );
  });
  // Read on each request: a workload's approaches can change while the service runs (serializer plugins join once
  // checked), and an entry of definition.info may be a function for a section that changes (their states).
  const info = () => {
    const now = {
      service: definition.name,
      runtime: definition.runtime,
      restarts: definition.restarts,
      libraries: definition.libraries,
      workloads: Object.fromEntries(Object.entries(definition.workloads).map(([name, w]) => [name, describeWorkload(w)])),
    };
    // What a service adds about its own routes (node-async: the worker pool).
    for (const [key, value] of Object.entries(definition.info || {})) now[key] = typeof value === 'function' ? value() : value;
    return now;
  };
  app.get('/info', (req, res) => res.json(info()));
  app.get('/run/:workload', runWorkload(definition, metrics, limiter));
  addRoutes(app, routes);
  // gate.js took every request no route has; this is the contract's 404 should express disagree.
  app.use((req, res) => sendError(res, new HttpError(404, `no route ${req.path}`, { routes: allRoutes })));
  // eslint-disable-next-line no-unused-vars
  app.use((err, req, res, next) => {
    const answer = asClientError(err);
    // A body cut off because its client left (Node's "aborted", ECONNRESET) is no failure of the service.
    const clientLeft = (err && err.code === 'ECONNRESET') || (req.socket && req.socket.destroyed);
    if (!clientLeft) logUnexpected(answer, { service: definition.name, route: `${req.method} ${req.route ? req.baseUrl + req.route.path : req.path}` });
    sendError(res, answer);
  });
  return gate(app, allRoutes, metrics, checkRouted(definition.workloads, ownNames(definition.hostNames)));
}

module.exports = { buildApp, watchClient };
