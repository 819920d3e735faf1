'use strict';
// What every Node service checks of a failure of its own (node-kit's app.js and answers.js): a workload or a route
// that throws what no refusal explains is answered 500 with its message and written to stderr once, naming the
// service, the workload and approach (or the route), with the error's stack; a refusal (4xx) and a run cut because its
// client left are not logged. Each service runs it with its own express, prom-client and Node line (node:test, or
// the `test` package on Node 14, which has no mock: console.error is replaced and restored here), on a real server
// on port 0. Node 14 syntax.
const http = require('http');
const { createService } = require('@lab/node-kit');
const { startService, request } = require('./index');

/** A promise and its resolve, for the workload to say where it is. */
function deferred() {
  let resolve;
  const promise = new Promise((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A service whose one workload fails as its approach says, and whose own route throws. `waits`: the run waits for
 * its client to leave (runStarted), then rejects with the signal's reason, as an approach stopped by an abort does
 * (runSettled).
 */
function failingService(express, promClient, runStarted, runSettled) {
  return createService({
    name: 'failing',
    defaultPort: 0,
    express,
    promClient,
    libraries: {},
    workloads: {
      broken: {
        approaches: ['throws', 'rejects', 'no-ms', 'waits'],
        params: {},
        caseOf: () => 'any',
        run: ({ approach }, { signal }) => {
          if (approach === 'throws') throw new TypeError('a bug in the approach');
          if (approach === 'rejects') return Promise.reject(new RangeError('a bug after a turn'));
          // A validated result without its ms: the run-duration histogram refuses NaN after the run has ended, and the
          // client must still get its answer.
          if (approach === 'no-ms') return Promise.resolve({ validated: true });
          runStarted.resolve();
          return new Promise((resolve, reject) => {
            signal.addEventListener('abort', () => {
              reject(signal.reason);
              runSettled.resolve();
            });
          });
        },
      },
    },
    routes: () => [{ method: 'GET', path: '/own', handlers: [async () => { throw new Error('a bug in an own route'); }] }],
  });
}

/** Runs fn with every console.error call's first argument collected in `logged` (emptied by the caller). */
async function capturingErrors(logged, fn) {
  const original = console.error;
  console.error = (line) => logged.push(String(line));
  try {
    return await fn();
  } finally {
    console.error = original;
  }
}

/** A request that the client abandons once the service has started its run; resolves once the run has settled. */
async function abandonedRun(url, runStarted, runSettled) {
  const req = http.request(url, { agent: false });
  req.on('error', () => {}); // the client's own socket hang up, which it asked for
  req.end();
  await runStarted.promise;
  req.destroy();
  await runSettled.promise;
  // The service's answer to the rejection runs in the microtasks after it: all of them have run by the next turn.
  await new Promise((resolve) => setImmediate(resolve));
}

/** Registers the checks with the given test runner; express and promClient are the service's own. */
function unexpectedErrorsSuite(test, assert, express, promClient) {
  test('an unexpected error answers 500 and is logged once with its workload and approach, or its route', async () => {
    const logged = [];
    const server = await startService(failingService(express, promClient, deferred(), deferred()));
    try {
      const cases = [
        ['/run/broken?approach=throws', /^unexpected error \(service=failing workload=broken approach=throws\): TypeError: a bug in the approach/],
        ['/run/broken?approach=rejects', /^unexpected error \(service=failing workload=broken approach=rejects\): RangeError: a bug after a turn/],
        ['/run/broken?approach=no-ms', /^unexpected error \(service=failing workload=broken approach=no-ms\): \w*Error: .*not a valid number/],
        ['/own', /^unexpected error \(service=failing route=GET \/own\): Error: a bug in an own route/],
      ];
      for (const [target, line] of cases) {
        logged.length = 0;
        const answer = await capturingErrors(logged, () => request(`${server.url}${target}`));
        assert.strictEqual(answer.status, 500, answer.text);
        assert.ok(answer.json.error, 'the 500 names the error');
        assert.strictEqual(logged.length, 1, `${target}: logged once, got ${JSON.stringify(logged)}`);
        assert.match(logged[0], line);
        assert.match(logged[0], /\n\s+at /, 'with its stack');
      }
    } finally {
      await server.close();
    }
  });

  test('a refusal (4xx) and a run whose client left are not logged', async () => {
    const logged = [];
    const runStarted = deferred();
    const runSettled = deferred();
    const server = await startService(failingService(express, promClient, runStarted, runSettled));
    try {
      await capturingErrors(logged, async () => {
        assert.strictEqual((await request(`${server.url}/run/broken?approach=nope`)).status, 400);
        assert.strictEqual((await request(`${server.url}/nope`)).status, 404);
        await abandonedRun(`${server.url}/run/broken?approach=waits`, runStarted, runSettled);
      });
      assert.deepStrictEqual(logged, [], 'nothing logged');
    } finally {
      await server.close();
    }
  });
}

module.exports = { unexpectedErrorsSuite };
