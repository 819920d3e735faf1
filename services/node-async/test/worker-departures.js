'use strict';
// Where the `worker` approaches depart from native on the lab's corpora, pinned by conformance.test.js. Both come from
// what crosses the threads: V8's serialization (the structured clone's format) carries data, not a JavaScript object.
// stringify: functions, symbols, proxies and an object holding one cannot be cloned (DataCloneError), and what can
// arrives without its prototype, getters and toJSON, so the worker serializes a different value. Values parsed from
// JSON text, the workload's own, have none of these.
// parse: V8's serializer and deserializer recurse, and past ~1 500-2 000 levels (the main thread's stack, where the
// value is deserialized) they throw RangeError where JSON.parse does not (README, "worker").
const WORKER_DEPARTURES = {
  stringify: [
    'top-level function',
    'top-level symbol',
    'top-level toJSON returning undefined',
    'top-level toJSON gets the empty key',
    'skipped values: left out of objects, null in arrays',
    'object with only skipped values',
    'boxed primitives unwrapped the way native does',
    'arguments object',
    'toJSON on nested values and Dates',
    'toJSON gets the array index as a string, also far into a large array',
    'toJSON gets the property key, also in a wide object',
    'toJSON on functions is called',
    'toJSON result is serialized without calling its own toJSON',
    'toJSON on the prototype (class instances) and on an Array subclass',
    'records with Dates and toJSON at every level',
    'getters run once each, in order, interleaved with toJSON',
    'a toJSON getter is read the way native reads it',
    'index getters in a large array see the side effects of earlier elements',
    'proxies of objects and arrays',
    'cycle through a toJSON result',
    'a toJSON that throws',
  ],
  parse: [
    'nested arrays, 10k levels',
    'nested objects, 10k levels',
    'nested arrays and objects alternating, 10k levels',
    'nested arrays, 200k levels',
  ],
};

module.exports = { WORKER_DEPARTURES };
