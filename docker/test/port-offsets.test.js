'use strict';
// The ports of the checks' labs (compose-lab.js' PORT_OFFSETS): none shared with another check's lab, a lab in use or
// the native lab test's, and none among Linux's ephemeral ports, where a loopback client can be holding one.
const test = require('node:test');
const assert = require('node:assert');
const { PORT_OFFSETS, publishedPorts } = require('../compose-lab');
const { INTEGRATION_PORT_OFFSETS } = require('@lab/tests/integration/port-offsets');

const FIRST_EPHEMERAL_PORT = 32768; // Linux's default ip_local_port_range starts here

/** Fails on a port in the ephemeral range or published by two of `labs` ({name: offset}), which run at once. */
function assertApart(labs) {
  const owner = new Map();
  for (const [lab, offset] of Object.entries(labs)) {
    for (const port of publishedPorts(offset)) {
      assert.ok(port < FIRST_EPHEMERAL_PORT, `${lab}: port ${port} is in the ephemeral range`);
      assert.ok(!owner.has(port), `${lab} and ${owner.get(port)} both publish port ${port}`);
      owner.set(port, lab);
    }
  }
}

test('every check\'s lab publishes its ports below the ephemeral range, on ports no other lab uses', () => {
  assertApart(Object.assign({ 'a lab in use': 0, 'the native lab test': INTEGRATION_PORT_OFFSETS['native-lab'] }, PORT_OFFSETS));
});

test('the native integration tests, which run side by side, and a lab in use publish no port in common', () => {
  assertApart(Object.assign({ 'a lab in use': 0 }, INTEGRATION_PORT_OFFSETS));
});
