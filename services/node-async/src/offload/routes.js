'use strict';
// The worker-offload experiment's two routes, the same work either way: `unoptimized` runs it on the main thread (every
// other request waits; its queue skips the tasks of clients that left), `optimized` hands it to the worker pool. Bodies
// are checked before any work starts; GET /api/test-data serves the original's test-data.json, generated.
const { jsonBody, parseOnlyParams, watchClient, round } = require('@lab/node-kit');
const { readProcessRequest, LIMITS } = require('./request-body');
const { processData, referenceOf, hashOf } = require('./process-data');
const { testData, PARAMS } = require('./body-generator');

const ROUTE = { optimized: '/api/optimized/process-data', unoptimized: '/api/unoptimized/process-data' };

/** The answer both routes give: the result, its check against the iterative reference, and where the time went. */
function answer(route, request, work) {
  const expected = referenceOf(request);
  const hash = hashOf(work.result);
  return {
    route,
    result: work.result,
    hash,
    validated: hash === expected.hash,
    reference: expected.reference,
    ms: round(work.runMs),
    waitMs: work.waitMs === null ? null : round(work.waitMs),
    threadId: work.threadId,
  };
}


/** {pool (pool.js), mainThread (main-thread-queue.js), metrics (offload-metrics.js)} -> node-kit routes. */
function offloadRoutes({ pool, mainThread, metrics }) {
  const body = jsonBody(LIMITS.bodyBytes);
  const count = (route, outcome) => metrics.tasks.inc({ route, outcome });

  async function unoptimized(req, res) {
    const request = readProcessRequest(req.body);
    let work;
    try {
      work = await mainThread.run(res, () => {
        const started = process.hrtime.bigint();
        const result = processData(request); // blocks the event loop: the original's point
        return { result, runMs: Number(process.hrtime.bigint() - started) / 1e6 };
      });
    } catch (err) {
      count('unoptimized', err.outcome || 'failed');
      throw err;
    }
    metrics.runSeconds.observe({ route: 'unoptimized' }, work.runMs / 1000);
    count('unoptimized', 'ok');
    res.json(answer('unoptimized', request, { result: work.result, runMs: work.runMs, waitMs: null, threadId: 0 }));
  }

  async function optimized(req, res) {
    const request = readProcessRequest(req.body);
    const clientGone = watchClient(res);
    let work;
    try {
      work = await pool.run(request, clientGone.signal);
    } catch (err) {
      count('optimized', err.outcome || 'failed');
      throw err;
    } finally {
      clientGone.stop();
    }
    metrics.runSeconds.observe({ route: 'optimized' }, work.runMs / 1000);
    metrics.waitSeconds.observe(work.waitMs / 1000);
    count('optimized', 'ok');
    res.json(answer('optimized', request, work));
  }

  return [
    { method: 'POST', path: ROUTE.unoptimized, handlers: [body, unoptimized] },
    { method: 'POST', path: ROUTE.optimized, handlers: [body, optimized] },
    { method: 'GET', path: '/api/test-data', handlers: [(req, res) => res.json(testData(parseOnlyParams(PARAMS, req.query)))] },
  ];
}

module.exports = { offloadRoutes, ROUTE };
