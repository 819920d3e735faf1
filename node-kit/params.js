'use strict';
// The one place where /run query strings become typed parameters. It throws HttpError(400) on anything it cannot
// accept, so a handler never sees an unchecked value.
const { badRequest } = require('./errors');

const INTEGER = /^-?\d+$/;

function describeWorkload(workload) {
  return { approaches: workload.approaches, params: workload.params };
}

function parseOne(name, raw, schema) {
  if (typeof raw !== 'string') throw badRequest(`parameter ${name} must be given once`, { parameter: name, allowed: schema });
  if (schema.values) {
    if (!schema.values.includes(raw)) {
      throw badRequest(`${name} must be one of ${schema.values.join(', ')}`, { parameter: name, allowed: schema.values });
    }
    return raw;
  }
  const value = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw badRequest(`${name} must be an integer`, { parameter: name, allowed: { min: schema.min, max: schema.max } });
  }
  if (value < schema.min || value > schema.max) {
    throw badRequest(`${name} must be between ${schema.min} and ${schema.max}`, {
      parameter: name,
      allowed: { min: schema.min, max: schema.max },
    });
  }
  return value;
}

/** Returns {approach, params} for a workload from a parsed query object, or throws a 400. */
function parseRunRequest(workload, query) {
  const approach = query.approach === undefined ? workload.approaches[0] : query.approach;
  if (!workload.approaches.includes(approach)) {
    throw badRequest(`approach must be one of ${workload.approaches.join(', ')}`, {
      parameter: 'approach',
      allowed: workload.approaches,
    });
  }
  for (const name of Object.keys(query)) {
    if (name !== 'approach' && !(name in workload.params)) {
      throw badRequest(`unknown parameter ${name}`, { parameter: name, allowed: ['approach'].concat(Object.keys(workload.params)) });
    }
  }
  return { approach, params: parseParams(workload.params, query) };
}

/** Typed values of every parameter in schemas ({name: schema}, as a workload's params) from a query, defaults filled. */
function parseParams(schemas, query) {
  const params = {};
  for (const [name, schema] of Object.entries(schemas)) {
    params[name] = query[name] === undefined ? schema.default : parseOne(name, query[name], schema);
  }
  return params;
}

/** parseParams, refusing any parameter that schemas does not name. */
function parseOnlyParams(schemas, query) {
  for (const name of Object.keys(query)) {
    if (!(name in schemas)) throw badRequest(`unknown parameter ${name}`, { parameter: name, allowed: Object.keys(schemas) });
  }
  return parseParams(schemas, query);
}

/** Checks a workload definition at start-up, so a bad default fails the service, not a request. */
function checkWorkload(name, workload) {
  if (!Array.isArray(workload.approaches) || workload.approaches.length === 0) {
    throw new TypeError(`workload ${name}: approaches must be a non-empty array`);
  }
  if (typeof workload.run !== 'function') throw new TypeError(`workload ${name}: run must be a function`);
  if (typeof workload.caseOf !== 'function') throw new TypeError(`workload ${name}: caseOf must be a function`);
  for (const [param, schema] of Object.entries(workload.params || {})) {
    const ok = schema.values
      ? schema.values.includes(schema.default)
      : Number.isSafeInteger(schema.min) && Number.isSafeInteger(schema.max) && schema.min <= schema.default && schema.default <= schema.max;
    if (!ok) throw new TypeError(`workload ${name}: parameter ${param} has an invalid schema`);
  }
}

module.exports = { parseRunRequest, parseOnlyParams, describeWorkload, checkWorkload };
