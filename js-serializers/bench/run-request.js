'use strict';
// A workload run as the benchmarks ask for one: through the same parameter parsing as an HTTP request, defaults
// filled, so a parameter added to a workload cannot leave a benchmark behind (the document parameter once did: the
// fibers-to-async table then failed at its first run). Node 14 syntax.
const { parseRunRequest } = require('@lab/node-kit/params');

/** workload.run()'s {approach, params} for approach and params ({name: value}), as GET /run/<workload> gives them. */
function runRequest(workload, approach, params) {
  const query = { approach: [approach] };
  for (const name of Object.keys(params)) query[name] = [String(params[name])];
  return parseRunRequest(workload, query);
}

module.exports = { runRequest };
