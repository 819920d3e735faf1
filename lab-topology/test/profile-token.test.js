'use strict';
// The profile token every lab start hands its driver and services (profile-token.js): the user's own kept as it is,
// otherwise a new 256-bit one per call, so that no two starts share one and nothing needs to be set by hand.
const test = require('node:test');
const assert = require('node:assert');
const { profileTokenFor } = require('../profile-token');

test("the user's LAB_PROFILE_TOKEN is kept as it is", () => {
  assert.strictEqual(profileTokenFor({ LAB_PROFILE_TOKEN: 'my own token' }), 'my own token');
});

test('without one (unset or empty, as compose passes an unset variable), each call makes a new one of 64 hex characters', () => {
  const made = [{}, { LAB_PROFILE_TOKEN: '' }, {}, { LAB_PROFILE_TOKEN: '' }].map((env) => profileTokenFor(env));
  for (const token of made) assert.match(token, /^[0-9a-f]{64}$/);
  assert.strictEqual(new Set(made).size, made.length, 'two starts never share a token');
});

test('asked without an environment, it reads this process\'s own', (t) => {
  const saved = process.env.LAB_PROFILE_TOKEN;
  t.after(() => {
    if (saved === undefined) delete process.env.LAB_PROFILE_TOKEN;
    else process.env.LAB_PROFILE_TOKEN = saved;
  });
  process.env.LAB_PROFILE_TOKEN = 'from this process';
  assert.strictEqual(profileTokenFor(), 'from this process');
});
