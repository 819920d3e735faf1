'use strict';
// The worker thread of plugin-check.js: loads one plugin and runs one workload's conformance corpus on it, case by
// case, telling the service which case it is on and stopping at the first departure from native. In a thread of its
// own, the corpus (texts of many megabytes, native's reference runs) and a plugin that blocks never block the
// service's event loop, and a plugin that never returns can be ended from outside. Node 14 syntax.
const { parentPort, workerData } = require('worker_threads');
const { loadPlugin, describeError } = require('./serializer-plugin');
const { corpusOf } = require('./conformance/conformance');

async function check({ source, workload }) {
  const approach = loadPlugin(source).approaches[workload];
  const corpus = corpusOf(workload);
  for (let index = 0; index < corpus.length; index++) {
    parentPort.postMessage({ index, case: corpus[index].name, of: corpus.length });
    const why = await corpus[index].check(approach);
    if (why !== null) return { departure: { case: corpus[index].name, why } };
  }
  return { passed: corpus.length };
}

check(workerData).then(
  (verdict) => parentPort.postMessage(verdict),
  (error) => parentPort.postMessage({ error: describeError(error) }),
);
