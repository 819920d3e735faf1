'use strict';
// Registers one test per approach of a service: its departures from native on the lab's corpora (conformance.js),
// each approach in child processes so that a library crashing its process is recorded rather than fatal, must be
// exactly the expected list. Runs under node:test (Node 24) and the `test` package (Node 14).
const { isolatedDepartures } = require('./isolated-conformance');

/**
 * approachesModule: absolute path of a module exporting {approaches: {<workload>: {<approach>: fn}}}.
 * expected: {<workload>: {<approach>: [case name, ...]}}: one test per approach listed (a service may leave out one
 * that another service already checks on the same library version, saying why).
 */
function conformanceSuite(test, assert, approachesModule, expected) {
  const { approaches } = require(approachesModule);
  for (const workload of Object.keys(expected)) {
    for (const approach of Object.keys(expected[workload])) {
      test(`conformance: ${workload} ${approach} departs from native exactly where expected`, async () => {
        assert.strictEqual(typeof (approaches[workload] || {})[approach], 'function', `the service has no ${workload} approach ${approach}`);
        const found = await isolatedDepartures(approachesModule, workload, approach);
        assert.deepStrictEqual(
          found.map((d) => d.name),
          expected[workload][approach],
          `${workload} ${approach} departures:\n${found.map((d) => `  ${d.name}: ${d.why}`).join('\n')}`,
        );
      });
    }
  }
}

module.exports = { conformanceSuite };
