'use strict';
// The soak's settings (docker/soak.js): how long and how many passes, each refused with what is allowed when it
// cannot be a soak.
const test = require('node:test');
const assert = require('node:assert');
const { settings } = require('../soak');
const { MIN_PASSES, MAX_RSS_GROWTH } = require('../soak-checks');

test('by default: ten minutes of the demo suite, at least the fewest passes a verdict needs', () => {
  assert.deepStrictEqual(settings({}), { minutes: 10, passes: MIN_PASSES, suite: 'demo', maxRssGrowth: MAX_RSS_GROWTH });
});

test('a count of passes alone (make test\'s): SOAK_MINUTES=0 and SOAK_PASSES', () => {
  assert.deepStrictEqual(settings({ SOAK_MINUTES: '0', SOAK_PASSES: '6', SOAK_SUITE: 'soak-short', SOAK_MAX_RSS_GROWTH: '0.5' }), { minutes: 0, passes: 6, suite: 'soak-short', maxRssGrowth: 0.5 });
});

test('settings that cannot make a soak are refused, naming what is allowed', () => {
  const refusals = [
    [{ SOAK_MINUTES: '-1' }, /SOAK_MINUTES must be a number of minutes, 0 or more, got "-1"/],
    [{ SOAK_MINUTES: 'ten' }, /SOAK_MINUTES must be/],
    [{ SOAK_PASSES: String(MIN_PASSES - 1) }, new RegExp(`SOAK_PASSES must be a whole number of passes, at least ${MIN_PASSES}`)],
    [{ SOAK_PASSES: '4.5' }, /SOAK_PASSES must be a whole number/],
    [{ SOAK_SUITE: 'no-such-suite' }, /SOAK_SUITE: no suite "no-such-suite" in load\/suites/],
    [{ SOAK_MAX_RSS_GROWTH: '-0.1' }, /SOAK_MAX_RSS_GROWTH must be a fraction/],
  ];
  for (const [env, message] of refusals) assert.throws(() => settings(env), message, JSON.stringify(env));
});
