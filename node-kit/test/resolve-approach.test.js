'use strict';
// params.js' resolveApproach, the one place a service decides what an approach name means: the code that runs it, or
// the refusal, for a request and again at the run's start.
const test = require('node:test');
const assert = require('node:assert');
const { resolveApproach, parseRunRequest } = require('../params');
const { HttpError } = require('../errors');

const native = () => 'native';
const plugin = () => 'plugin';

/** A workload whose plugin `mine` is usable until failing() is called, as serializer-plugins.js marks one. */
function workloadWithPlugin() {
  let usable = true;
  return {
    get approaches() {
      return usable ? ['native', 'mine'] : ['native'];
    },
    approachOf: (name) => ({ native, mine: plugin }[name]),
    unavailable: (name) => (name === 'mine' ? new HttpError(400, 'approach mine is the serializer plugin mine.js, which departs from native', { parameter: 'approach' }) : null),
    params: {},
    failing: () => (usable = false),
  };
}

test('a known name resolves to the code that runs it; a workload without approachOf gets the name back', () => {
  const workload = workloadWithPlugin();
  assert.strictEqual(resolveApproach(workload, 'native'), native);
  assert.strictEqual(resolveApproach(workload, 'mine'), plugin);
  assert.strictEqual(resolveApproach({ approaches: ['memory', 'fast'] }, 'fast'), 'fast');
});

test('an unknown name is refused with a 400 naming every approach; a name the workload knows but cannot run, with its why', () => {
  const workload = workloadWithPlugin();
  assert.throws(() => resolveApproach(workload, 'constructor'), (err) => err.status === 400 && /one of native, mine/.test(err.message) && err.details.allowed.join() === 'native,mine');
  workload.failing();
  assert.throws(() => resolveApproach(workload, 'mine'), /serializer plugin mine\.js, which departs from native/);
});

test('a request and a run ask the same function: a plugin marked failing after its request was read is refused at its start', () => {
  const workload = workloadWithPlugin();
  assert.deepStrictEqual(parseRunRequest(workload, { approach: ['mine'] }), { approach: 'mine', params: {} });
  workload.failing();
  assert.throws(() => resolveApproach(workload, 'mine'), /departs from native/);
  assert.throws(() => parseRunRequest(workload, { approach: ['mine'] }), /departs from native/);
});
