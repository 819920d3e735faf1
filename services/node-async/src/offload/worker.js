'use strict';
// A pool worker (piscina): runs one process-data request and says when it started, so the main thread can split the
// request's time into queue wait and run. Both threads read the same clock: timeOrigin + now() is wall time in ms.
const { performance } = require('node:perf_hooks');
const { threadId } = require('node:worker_threads');
const { processData } = require('./process-data');

const now = () => performance.timeOrigin + performance.now();

module.exports = function runProcessData({ request }) {
  const startedAt = now();
  const result = processData(request);
  return { result, startedAt, runMs: now() - startedAt, threadId };
};
