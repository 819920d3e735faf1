'use strict';
// Registers one test per approach of a service: its departures from native on the lab's corpora (conformance.js),
// each approach in child processes so that a library crashing its process is recorded rather than fatal, must be
// exactly the expected list. The approaches come from the service's own module, so a new approach cannot skip the
// check: one without an entry in `expected` fails. Runs under node:test (Node 24) and the `test` package (Node 14).
const { isolatedDepartures } = require('./isolated-conformance');

// The workloads whose approaches the corpora check (native is each one's reference, added by the workload).
const WORKLOADS = ['stringify', 'parse'];

/**
 * approachesModule: absolute path of a module exporting {approaches: {<workload>: {<approach>: fn}}}.
 * expected: {<workload>: {<approach>: [case name, ...] | {skip: why}}}: an entry for every approach of the module
 * (a service may skip one that another service already checks on the same library version, saying why).
 */
function conformanceSuite(test, assert, approachesModule, expected) {
  const { approaches } = require(approachesModule);
  for (const workload of WORKLOADS) {
    const listed = expected[workload] || {};
    const present = Object.keys(approaches[workload] || {});
    for (const approach of present) {
      test(`conformance: ${workload} ${approach} departs from native exactly where expected`, async (t) => {
        const departures = listed[approach];
        assert.ok(departures !== undefined, `${workload} approach ${approach} has no expected departures: list them (or [] for none) in the service's conformance test`);
        if (departures.skip) {
          t.skip(departures.skip);
          return;
        }
        const found = await isolatedDepartures(approachesModule, workload, approach);
        assert.deepStrictEqual(
          found.map((d) => d.name),
          departures,
          `${workload} ${approach} departures:\n${found.map((d) => `  ${d.name}: ${d.why}`).join('\n')}`,
        );
      });
    }
    test(`conformance: every ${workload} approach listed is one the service has`, () => {
      assert.deepStrictEqual(Object.keys(listed).filter((approach) => !present.includes(approach)), []);
    });
  }
}

module.exports = { conformanceSuite };
