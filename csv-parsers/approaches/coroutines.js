'use strict';
// What a transpiler (Babel's async-generator and async-to-generator helpers) turns async functions into: a sync
// generator driven by a runner. The generator yields `awaitValue(x)` where the source said `await x`, and a plain
// value where it said `yield`. Two runners:
// - STANDARD behaves like the helpers: every next() answers with a promise and every await takes a microtask;
// - EAGER is async-char-streams' alteration: it keeps running the generator synchronously while what it awaits is not a
//   promise, and next() answers a plain {value, done} when the generator reached a yield without waiting. A
//   consumer built on the same runner then skips the await of that step too. Only real promises (the chunks)
//   cost a turn.
// A value is taken as a promise only if it is an instance of Promise (native async sources): the original's check.

class Awaited {
  constructor(value) {
    this.value = value;
  }
}

const awaitValue = (value) => new Awaited(value);

/** The object a transpiled async generator returns: requests queue up and settle in order. */
class CoroutineGenerator {
  constructor(generator) {
    this.generator = generator;
    this.requests = [];
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next(arg) {
    return this.send('next', arg);
  }

  return(arg) {
    return this.send('return', arg);
  }

  send(method, arg) {
    return new Promise((resolve, reject) => {
      this.requests.push({ method, arg, resolve, reject });
      if (this.requests.length === 1) this.resume(method, arg);
    });
  }

  /** Runs the generator to its next yield or await. */
  advance(method, arg) {
    return this.generator[method](arg);
  }

  resume(method, arg) {
    let step;
    try {
      step = this.advance(method, arg);
    } catch (error) {
      this.settle('throw', error);
      return;
    }
    this.continueAfter(step);
  }

  continueAfter(step) {
    const awaiting = step.value instanceof Awaited;
    Promise.resolve(awaiting ? step.value.value : step.value).then(
      (value) => (awaiting ? this.resume('next', value) : this.settle(step.done ? 'return' : 'yield', value)),
      (error) => this.resume('throw', error),
    );
  }

  settle(kind, value) {
    const request = this.requests.shift();
    if (kind === 'throw') request.reject(value);
    else request.resolve({ value, done: kind === 'return' });
    if (this.requests.length > 0) this.resume(this.requests[0].method, this.requests[0].arg);
  }
}

class EagerCoroutineGenerator extends CoroutineGenerator {
  advance(method, arg) {
    for (;;) {
      const step = this.generator[method](arg);
      if (!(step.value instanceof Awaited) || step.value.value instanceof Promise) return step;
      method = 'next'; // an await of a plain value: resume at once with it
      arg = step.value.value;
    }
  }

  send(method, arg) {
    if (this.requests.length > 0) return super.send(method, arg); // behind a request still waiting
    let step;
    try {
      step = this.advance(method, arg);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!(step.value instanceof Awaited) && !(step.value instanceof Promise)) return step; // answered synchronously
    return new Promise((resolve, reject) => {
      this.requests.push({ method, arg, resolve, reject });
      this.continueAfter(step);
    });
  }
}

/** The transpiled `for await` target: the object's async iterator (the parsers only iterate async sources). */
function asyncIterator(iterable) {
  const method = iterable[Symbol.asyncIterator];
  if (typeof method !== 'function') throw new TypeError('object is not async iterable');
  return method.call(iterable);
}

/** An async function from a generator that yields where the source awaits: each await takes a microtask. */
function standardAsyncFunction(body) {
  return (...args) =>
    new Promise((resolve, reject) => {
      const generator = body(...args);
      const step = (method, arg) => {
        let result;
        try {
          result = generator[method](arg);
        } catch (error) {
          reject(error);
          return;
        }
        if (result.done) resolve(result.value);
        else Promise.resolve(result.value).then((value) => step('next', value), (error) => step('throw', error));
      };
      step('next');
    });
}

/** The same, continuing synchronously while what it awaits is not a promise. */
function eagerAsyncFunction(body) {
  return (...args) =>
    new Promise((resolve, reject) => {
      const generator = body(...args);
      const step = (method, arg) => {
        for (;;) {
          let result;
          try {
            result = generator[method](arg);
          } catch (error) {
            reject(error);
            return;
          }
          if (result.done) {
            resolve(result.value);
            return;
          }
          if (result.value instanceof Promise) {
            result.value.then((value) => step('next', value), (error) => step('throw', error));
            return;
          }
          method = 'next';
          arg = result.value;
        }
      };
      step('next');
    });
}

const runtime = (Generator, asyncFunction) => ({
  asyncGenerator: (body) => (...args) => new Generator(body(...args)),
  asyncFunction,
  awaitValue,
  asyncIterator,
});

const STANDARD = runtime(CoroutineGenerator, standardAsyncFunction);
const EAGER = runtime(EagerCoroutineGenerator, eagerAsyncFunction);

module.exports = { STANDARD, EAGER };
