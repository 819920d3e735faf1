'use strict';
// A scenario that runs a workload carries what it runs as data, {workload, approach, params}, from the moment it is
// planned (a suite file's `run`, coverage.js, try/try-suite.js): the metrics' labels, thresholds by approach, the
// report's grouping and the choice of approaches read it from there. Its request path is derived from it here, once,
// and nothing reads a path back.

const NAME = /^[a-z0-9-]+$/;
const PARAM = /^[a-zA-Z][a-zA-Z0-9]*$/;

/** The request path of a run: /run/<workload>?approach=<a>&<param>=<value>..., its parameters in the order given. */
function pathOf({ workload, approach, params = {} }) {
  const query = [['approach', approach]].concat(Object.entries(params)).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
  return `/run/${workload}?${query}`;
}

/** Why run is not {workload, approach, params?} of names and plain values, or null. */
function runProblem(run) {
  if (run === null || typeof run !== 'object' || Array.isArray(run)) return 'run must be an object: {workload, approach, params}';
  const unknown = Object.keys(run).filter((k) => !['workload', 'approach', 'params'].includes(k));
  if (unknown.length) return `run has unknown field ${unknown.join(', ')}; its fields are workload, approach, params`;
  if (typeof run.workload !== 'string' || !NAME.test(run.workload)) return 'run.workload must be lowercase letters, digits and dashes';
  if (typeof run.approach !== 'string' || !NAME.test(run.approach)) return 'run.approach must be lowercase letters, digits and dashes';
  const params = run.params === undefined ? {} : run.params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return 'run.params must be an object: {name: value}';
  for (const [name, value] of Object.entries(params)) {
    if (!PARAM.test(name) || name === 'approach') return `run.params: ${name} is not a parameter name`;
    if (!(Number.isSafeInteger(value) || (typeof value === 'string' && value !== ''))) return `run.params.${name} must be an integer or a string`;
  }
  return null;
}

/** A scenario of run (with its derived path) and the other fields given. */
const runScenarioOf = (run, fields) => Object.assign({ method: 'GET', path: pathOf(run), run }, fields);

module.exports = { pathOf, runProblem, runScenarioOf };
