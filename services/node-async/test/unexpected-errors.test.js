'use strict';
// A failure of the service itself (a workload or a route that throws what no refusal explains) is answered 500 with
// its message, and written to stderr once, naming the workload and approach or the route, so an operator can find
// it; a refusal (4xx) is the client's and is not logged. node-kit does this for every Node service; here it runs on
// node-async's express 5 and prom-client, with a workload and a route that throw.
const test = require('node:test');
const assert = require('node:assert');
const express = require('express');
const promClient = require('prom-client');
const { createService } = require('../../../node-kit');
const { startService, request } = require('../../../node-kit/testing');

function failingService() {
  return createService({
    name: 'failing',
    defaultPort: 0,
    express,
    promClient,
    libraries: {},
    workloads: {
      broken: {
        approaches: ['throws', 'rejects', 'no-ms'],
        params: {},
        caseOf: () => 'any',
        run: ({ approach }) => {
          if (approach === 'throws') throw new TypeError('a bug in the approach');
          // A validated result without its ms: the run-duration histogram refuses NaN after the run has ended.
          if (approach === 'no-ms') return Promise.resolve({ validated: true });
          return Promise.reject(new RangeError('a bug after a turn'));
        },
      },
    },
    routes: () => [{ method: 'GET', path: '/own', handlers: [async () => { throw new Error('a bug in an own route'); }] }],
  });
}

test('an unexpected error answers 500 and is logged once with its workload and approach, or its route', async (t) => {
  const logged = [];
  t.mock.method(console, 'error', (line) => logged.push(String(line)));
  const server = await startService(failingService());
  t.after(server.close);
  const cases = [
    ['/run/broken?approach=throws', /^unexpected error \(service=failing workload=broken approach=throws\): TypeError: a bug in the approach/],
    ['/run/broken?approach=rejects', /^unexpected error \(service=failing workload=broken approach=rejects\): RangeError: a bug after a turn/],
    ['/run/broken?approach=no-ms', /^unexpected error \(service=failing workload=broken approach=no-ms\): \w*Error: .*not a valid number/],
    ['/own', /^unexpected error \(service=failing route=GET \/own\): Error: a bug in an own route/],
  ];
  for (const [target, line] of cases) {
    logged.length = 0;
    const answer = await request(`${server.url}${target}`);
    assert.strictEqual(answer.status, 500, answer.text);
    assert.ok(answer.json.error, 'the 500 names the error');
    assert.strictEqual(logged.length, 1, `${target}: logged once, got ${JSON.stringify(logged)}`);
    assert.match(logged[0], line);
    assert.match(logged[0], /\n\s+at /, 'with its stack');
  }
  logged.length = 0;
  assert.strictEqual((await request(`${server.url}/run/broken?approach=nope`)).status, 400);
  assert.strictEqual((await request(`${server.url}/nope`)).status, 404);
  assert.deepStrictEqual(logged, [], 'refusals are not logged');
});
