'use strict';
// Runs an approach over the lab's corpora and lists where it departs from native: a stringify approach (the shape
// of stringify-approaches.js) over the torture corpus against JSON.stringify, a parse approach (parse-approaches.js)
// over the parse corpus against JSON.parse. The services' tests pin each approach's list: the lab's own approaches
// must have none; a third-party library's departures are written down, and a change in them fails the test. The
// services run it at start on serializer plugins (serializer-plugins.js), which is why it lives outside test/.
// Node 14 syntax.
//
// Whether a case finished is decided by work, not by the clock: native runs the case first and its CPU time on this
// thread is the unit; an approach that has used WORK_BUDGET times that (native's counted as at least
// MIN_NATIVE_CPU_MS) without settling "did not finish" (yieldable-json on multi-megabyte escaped strings rebuilds the
// whole string for every escape: quadratic, hours). Both are CPU times of one thread measured side by side, so a
// machine ten times slower scales both and a loaded one adds to neither (a wall-time bound of 8 s did: yieldable-json
// parses 'wide object, 100k keys with escapes' in 2.5 s of CPU, which took 6.8 s of wall time at load 5 and missed 8 s
// beside the JVM's build). The most a case that finishes used here is 98 units (yieldable-json parse, 'bushy tree whose
// strings hold balanced brackets': 1.5 s against native's 15 ms; stringify at most 36, on Node 14), so the budget is
// three times that: more would make each case that does not finish cost more (it spends the whole budget).
// SAFETY_NET_MS of wall time only keeps a case that stopped using CPU (a lost callback) from hanging the run; it is
// not a verdict anyone expects, and the departure it records names it.
const WORK_BUDGET = 300;
const MIN_NATIVE_CPU_MS = 10;
const SAFETY_NET_MS = 10 * 60 * 1000;
// How often the budget is checked, between the approach's own turns of the event loop.
const BUDGET_CHECK_MS = 20;
const HUNG = 'did not finish';
const STALLED = `still running after the ${SAFETY_NET_MS / 1000} s safety net, within its work budget`;

/** CPU ms of this thread (Node 24), or of the process where threadCpuUsage does not exist (Node 14). */
function cpuMs() {
  const usage = process.threadCpuUsage ? process.threadCpuUsage() : process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function settleSync(run) {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
}

/**
 * run's {value} or {error}; {hung: true} once it used budgetCpuMs of this thread's CPU without settling, {stalled:
 * true} if the safety net ran out first.
 */
async function settleWithin(budgetCpuMs, run) {
  let check;
  let net;
  const cpuStart = cpuMs();
  const cutOff = new Promise((resolve) => {
    check = setInterval(() => {
      if (cpuMs() - cpuStart > budgetCpuMs) resolve({ hung: true });
    }, BUDGET_CHECK_MS);
    net = setTimeout(() => resolve({ stalled: true }), SAFETY_NET_MS);
  });
  const attempt = (async () => {
    try {
      return { value: await run() };
    } catch (error) {
      return { error };
    }
  })();
  try {
    return await Promise.race([attempt, cutOff]);
  } finally {
    clearInterval(check);
    clearTimeout(net);
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
  if (actual.stalled) return STALLED;
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

/** native's result for a case on its input and the work budget it sets: {expected, budgetCpuMs}. */
function nativeRun(c, input) {
  const start = cpuMs();
  const expected = c.expected(input);
  return { expected, budgetCpuMs: WORK_BUDGET * Math.max(cpuMs() - start, MIN_NATIVE_CPU_MS) };
}

/** The corpus of a workload: [{name, check(approach) -> Promise<why | null>}]. */
function corpusOf(workload) {
  return CASES[workload]().map((c) => ({
    name: c.name,
    async check(approach) {
      const input = c.input();
      const { expected, budgetCpuMs } = nativeRun(c, input);
      const actual = await settleWithin(budgetCpuMs, c.actual(approach, input));
      return departure(actual, expected, c.sameValue, c.pastNativeDepth);
    },
  }));
}

/** Resolves to [{name, why}] for every case where the approach departs from native, in corpus order. */
async function departures(workload, approach) {
  const found = [];
  for (const c of corpusOf(workload)) {
    const why = await c.check(approach);
    if (why !== null) found.push({ name: c.name, why });
  }
  return found;
}

/** Whether a case's why means its run may still be going on (its process must not run another case). */
const leftRunning = (why) => why === HUNG || why === STALLED;

module.exports = { departures, corpusOf, leftRunning, HUNG, WORK_BUDGET };
