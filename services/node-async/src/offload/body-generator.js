'use strict';
// The worker-offload experiment's test-data.json, generated: the same parameters always give the same body. Served by
// GET /api/test-data (so the load driver and `curl > test-data.json` get exactly what the tests use).
const { mulberry32 } = require('@lab/payloads');
const { LIMITS } = require('./request-body');

// 21 items at Fibonacci(27) (~2.3 ms each on one core of this lab's machine) is ~50 ms of CPU per request, the
// issue's default.
const DEFAULTS = { items: 21, fibonacciN: 27, seed: 1 };
const PARAMS = {
  items: { default: DEFAULTS.items, min: LIMITS.items.min, max: LIMITS.items.max },
  fibonacciN: { default: DEFAULTS.fibonacciN, min: LIMITS.fibonacciN.min, max: LIMITS.fibonacciN.max },
  seed: { default: DEFAULTS.seed, min: 0, max: 2147483647 },
};

/** {fibonacciN, items: [{id, name, value}]}: ids 1..items, value an integer in [0, 1 000 000]. */
function testData({ items = DEFAULTS.items, fibonacciN = DEFAULTS.fibonacciN, seed = DEFAULTS.seed } = {}) {
  const next = mulberry32(seed); // the payloads' PRNG: values do not depend on the Node line
  const list = [];
  for (let id = 1; id <= items; id++) list.push({ id, name: `item-${id}`, value: next() % (LIMITS.value.max + 1) });
  return { fibonacciN, items: list };
}

module.exports = { testData, DEFAULTS, PARAMS };
