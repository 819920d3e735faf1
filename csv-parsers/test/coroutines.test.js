'use strict';
// The two transpiled runtimes differ only in when they wait: the standard one answers every step with a promise,
// the eager one (transpiled-asyncish's point) runs on synchronously until it meets a real promise.
const test = require('node:test');
const assert = require('node:assert');
const { STANDARD, EAGER } = require('../approaches/coroutines');

function counter(runtime) {
  // async function* () { const one = await 1; yield one; yield one + 1; const three = await Promise.resolve(3); yield three; }
  return runtime.asyncGenerator(function* () {
    const one = yield runtime.awaitValue(1);
    yield one;
    yield one + 1;
    const three = yield runtime.awaitValue(Promise.resolve(3));
    yield three;
  })();
}

test('standard runtime: every next() answers with a promise', async () => {
  const steps = counter(STANDARD);
  for (const value of [1, 2, 3]) {
    const step = steps.next();
    assert.ok(step instanceof Promise);
    assert.deepStrictEqual(await step, { value, done: false });
  }
  assert.deepStrictEqual(await steps.next(), { value: undefined, done: true });
});

test('eager runtime: steps that await no promise are answered synchronously, a real promise asynchronously', async () => {
  const steps = counter(EAGER);
  assert.deepStrictEqual(steps.next(), { value: 1, done: false });
  assert.deepStrictEqual(steps.next(), { value: 2, done: false });
  const waiting = steps.next();
  assert.ok(waiting instanceof Promise);
  assert.deepStrictEqual(await waiting, { value: 3, done: false });
  assert.deepStrictEqual(steps.next(), { value: undefined, done: true });
});

test('eager async function: runs to its end within the call when nothing it awaits is a promise', async () => {
  const order = [];
  const body = (runtime) =>
    runtime.asyncFunction(function* () {
      const a = yield 1;
      const b = yield 2;
      order.push(`${runtime === EAGER ? 'eager' : 'standard'} body done`);
      return a + b;
    });
  const eager = body(EAGER)();
  order.push('after the eager call');
  const standard = body(STANDARD)();
  order.push('after the standard call');
  assert.deepStrictEqual([await eager, await standard], [3, 3]);
  assert.deepStrictEqual(order, ['eager body done', 'after the eager call', 'after the standard call', 'standard body done']);
});

test('both runtimes: an error thrown in the body rejects the step', async () => {
  for (const runtime of [STANDARD, EAGER]) {
    const failing = runtime.asyncGenerator(function* () {
      yield runtime.awaitValue(Promise.resolve());
      throw new Error('inside');
    })();
    await assert.rejects(Promise.resolve(failing.next()), /inside/);
  }
});
