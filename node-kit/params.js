'use strict';
// The one place where /run query strings become typed parameters (row 8 of CONTRACT.md's "Errors" table). It takes
// a query as request-target.js reads it ({name: [values]}) and throws HttpError(400) on anything it cannot accept, so
// a handler never sees an unchecked value.
const { badRequest } = require('./errors');

const INTEGER = /^-?\d+$/;
// Names are looked up as own properties: `constructor` or `toString` must be unknown, not found on Object.prototype.
const has = (object, name) => Object.prototype.hasOwnProperty.call(object, name);

function describeWorkload(workload) {
  return { approaches: workload.approaches, params: workload.params };
}

/** What a parameter allows, as its 400s name it: the list of values, the pattern, or the range. */
const allowedValues = (schema) => (schema.values ? schema.values : schema.pattern ? { pattern: schema.pattern } : { min: schema.min, max: schema.max });

function parseOne(name, values, schema) {
  if (values.length !== 1) throw badRequest(`parameter ${name} must be given once`, { parameter: name, allowed: allowedValues(schema) });
  const raw = values[0];
  if (schema.values) {
    if (!schema.values.includes(raw)) {
      throw badRequest(`${name} must be one of ${schema.values.join(', ')}`, { parameter: name, allowed: allowedValues(schema) });
    }
    return raw;
  }
  if (schema.pattern) {
    if (!new RegExp(`^(?:${schema.pattern})$`).test(raw)) throw badRequest(`${name} must match ${schema.pattern}`, { parameter: name, allowed: allowedValues(schema) });
    return raw;
  }
  const value = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw badRequest(`${name} must be an integer`, { parameter: name, allowed: allowedValues(schema) });
  }
  if (value < schema.min || value > schema.max) {
    throw badRequest(`${name} must be between ${schema.min} and ${schema.max}`, { parameter: name, allowed: allowedValues(schema) });
  }
  return value;
}

/**
 * The one place a service decides what an approach name means for a workload: the code that runs it (the workload's
 * approachOf(name); a workload without one looks the name up in its own table and gets the name back), or the
 * refusal. Known names are the workload's `approaches` now; a name the workload knows but cannot run now (a serializer
 * plugin that failed its check, or is still being checked) is refused with the workload's own why (unavailable(name)),
 * any other with a 400 listing the approaches. Reading a run's parameters and starting its run both ask here, so a
 * plugin marked failing in between is refused at its start as it would be at its request.
 */
function resolveApproach(workload, name) {
  const known = workload.approaches;
  if (known.includes(name)) return workload.approachOf ? workload.approachOf(name) : name;
  const refusal = workload.unavailable ? workload.unavailable(name) : null;
  throw refusal || badRequest(`approach must be one of ${known.join(', ')}`, { parameter: 'approach', allowed: known });
}

/** Returns {approach, params} for a workload from a query ({name: [values]}), or throws a 400. */
function parseRunRequest(workload, query) {
  const approaches = has(query, 'approach') ? query.approach : [workload.approaches[0]];
  if (approaches.length !== 1) {
    throw badRequest('parameter approach must be given once', { parameter: 'approach', allowed: workload.approaches });
  }
  const approach = approaches[0];
  resolveApproach(workload, approach);
  for (const name of Object.keys(query)) {
    if (name !== 'approach' && !has(workload.params, name)) {
      throw badRequest(`unknown parameter ${name}`, { parameter: name, allowed: ['approach'].concat(Object.keys(workload.params)) });
    }
  }
  const params = parseParams(workload.params, query);
  // What one parameter's value forbids of another's, a workload's own rule (row 8 all the same).
  if (workload.checkParams) workload.checkParams(params, approach);
  return { approach, params };
}

/** Typed values of every parameter in schemas ({name: schema}, as a workload's params) from a query, defaults filled. */
function parseParams(schemas, query) {
  const params = {};
  for (const [name, schema] of Object.entries(schemas)) {
    params[name] = has(query, name) ? parseOne(name, query[name], schema) : schema.default;
  }
  return params;
}

/** parseParams, refusing any parameter that schemas does not name. */
function parseOnlyParams(schemas, query) {
  for (const name of Object.keys(query)) {
    if (!has(schemas, name)) throw badRequest(`unknown parameter ${name}`, { parameter: name, allowed: Object.keys(schemas) });
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
      : schema.pattern
      ? typeof schema.default === 'string'
      : Number.isSafeInteger(schema.min) && Number.isSafeInteger(schema.max) && schema.min <= schema.default && schema.default <= schema.max;
    if (!ok) throw new TypeError(`workload ${name}: parameter ${param} has an invalid schema`);
  }
}

module.exports = { parseRunRequest, resolveApproach, parseOnlyParams, describeWorkload, checkWorkload };
