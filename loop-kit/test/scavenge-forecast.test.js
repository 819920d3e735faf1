'use strict';
// The slice loop's forecast of V8's scavenges (scavenge-forecast.js), on the real young generation: scavenges are
// forced with V8's own gc(), so each test knows whether one ran.
const test = require('node:test');
const assert = require('node:assert');
const v8 = require('node:v8');
const vm = require('node:vm');
const { ScavengeForecast } = require('../scavenge-forecast');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const scavenge = () => gc({ type: 'minor' });

// Less than the young generation holds after a scavenge (its semi-space starts at 1 MB): allocating it after one
// cannot run another.
const GARBAGE_BYTES = 1 << 18;

/** About `bytes` of short-lived objects: garbage once this returns. */
function allocate(bytes) {
  let keep = null;
  for (let i = 0; i < bytes / 64; i++) keep = { i, next: keep };
  return keep !== null;
}

test('a scavenge between two steps is seen, and no scavenge is not', () => {
  const forecast = new ScavengeForecast();
  assert.strictEqual(forecast.ranSinceLastStep(), false, 'before any step there is nothing to compare with');
  scavenge();
  forecast.allowance(5);
  allocate(GARBAGE_BYTES);
  forecast.learn(1, 5);
  assert.strictEqual(forecast.ranSinceLastStep(), false);
  scavenge();
  assert.strictEqual(forecast.ranSinceLastStep(), true);
});

test('a step that overran its deadline while a scavenge ran teaches the pause, taken off a step that will fill the young generation', () => {
  const forecast = new ScavengeForecast();
  scavenge();
  forecast.allowance(5);
  allocate(GARBAGE_BYTES);
  forecast.learn(2, 5); // no scavenge: the allocation rate
  assert.strictEqual(forecast.allowance(1e9), 0, 'no pause seen yet: nothing taken off');
  allocate(GARBAGE_BYTES);
  scavenge();
  forecast.learn(8, 5); // a scavenge ran and the step ended 3 ms late
  assert.strictEqual(forecast.allowance(1e9), 3, 'a step long enough to fill the young generation');
  forecast.learn(1, 5);
  assert.strictEqual(forecast.allowance(0), 0, 'a step that allocates nothing');
});
