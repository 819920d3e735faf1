'use strict';
// Runs an approach over the lab's corpora and lists where it departs from native: a stringify approach (the shape
// of stringify-approaches.js) over the torture corpus against JSON.stringify, a parse approach (parse-approaches.js)
// over the parse corpus against JSON.parse. The services' tests pin each approach's list: the lab's own approaches
// must have none; a third-party library's departures are written down, and a change in them fails the test. The
// services run it at start on serializer plugins (serializer-plugins.js), which is why it lives outside test/.
// Node 14 syntax.
// A case still running after this long is recorded as "did not finish" (yieldable-json on multi-megabyte strings).
const DEFAULT_CASE_TIMEOUT_MS = 8000;
const HUNG = 'did not finish';

function settleSync(run) {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
}

async function settleWithin(timeoutMs, run) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ hung: true }), timeoutMs);
  });
  const attempt = (async () => {
    try {
      return { value: await run() };
    } catch (error) {
      return { error };
    }
  })();
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function collectText(iterable) {
  const parts = [];
  for await (const chunk of iterable) parts.push(chunk);
  return parts.length === 0 ? undefined : parts.join('');
}

/** Why actual is not expected (both {value} or {error}), or null when they agree. */
function departure(actual, expected, sameValue, pastNativeDepth) {
  if (actual.hung) return HUNG;
  if (expected.error === undefined) {
    if (actual.error !== undefined) return `threw ${actual.error.name}: ${String(actual.error.message).slice(0, 120)}`;
    return sameValue(actual.value, expected.value) ? null : 'different result';
  }
  // Past native's stack depth, an approach that does not run out of stack must produce the correct result.
  if (pastNativeDepth && expected.error instanceof RangeError && actual.error === undefined) {
    return sameValue(actual.value, pastNativeDepth()) ? null : 'different result past native depth';
  }
  if (actual.error === undefined) return `returned a result where native throws ${expected.error.name}`;
  return actual.error.constructor === expected.error.constructor ? null : `threw ${actual.error.name} where native throws ${expected.error.name}`;
}

const sameText = (a, b) => a === b;
/**
 * Deep equality of two JSON.parse results: the same key order, the same prototypes (a parser that assigned a
 * "__proto__" key instead of defining it differs), -0 told from 0. Iterative, because the corpus nests deeper than
 * a recursive comparison can go.
 */
function sameParsed(a, b) {
  const pending = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop();
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
    const keysX = Object.keys(x);
    const keysY = Object.keys(y);
    if (keysX.length !== keysY.length) return false;
    for (let i = 0; i < keysX.length; i++) {
      if (keysX[i] !== keysY[i]) return false;
      pending.push([x[keysX[i]], y[keysY[i]]]);
    }
  }
  return true;
}

function stringifyCases() {
  return require('./torture-corpus').cases.map((c) => ({
    name: c.name,
    input: () => null, // each side makes its own value: a stateful toJSON or getter starts afresh for each
    expected: () => settleSync(() => JSON.stringify(c.make())),
    actual: (approach) => () => collectText(approach(c.make(), { yieldMs: 5, stats: {} })),
    sameValue: sameText,
    pastNativeDepth: c.text,
  }));
}

function parseCases() {
  const corpus = require('./parse-corpus');
  const textOf = (c) => (typeof c.text === 'function' ? c.text() : c.text);
  return corpus.valid.concat(corpus.invalid).map((c) => ({
    name: c.name,
    input: () => textOf(c), // built once for both sides: the large texts take longer to build than to parse
    expected: (text) => settleSync(() => JSON.parse(text)),
    actual: (approach, text) => () => approach(text, { yieldMs: 5, stats: {} }),
    sameValue: sameParsed,
  }));
}

const CASES = { stringify: stringifyCases, parse: parseCases };

/** The corpus of a workload: [{name, check(approach, timeoutMs) -> Promise<why | null>}]. */
function corpusOf(workload) {
  return CASES[workload]().map((c) => ({
    name: c.name,
    async check(approach, timeoutMs) {
      const input = c.input();
      const actual = await settleWithin(timeoutMs, c.actual(approach, input));
      return departure(actual, c.expected(input), c.sameValue, c.pastNativeDepth);
    },
  }));
}

/** Resolves to [{name, why}] for every case where the approach departs from native, in corpus order. */
async function departures(workload, approach, options) {
  const timeoutMs = (options && options.caseTimeoutMs) || DEFAULT_CASE_TIMEOUT_MS;
  const found = [];
  for (const c of corpusOf(workload)) {
    const why = await c.check(approach, timeoutMs);
    if (why !== null) found.push({ name: c.name, why });
  }
  return found;
}

module.exports = { departures, corpusOf, DEFAULT_CASE_TIMEOUT_MS, HUNG };
