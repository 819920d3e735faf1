'use strict';
// The ports of the checks' labs (compose-lab.js' PORT_OFFSETS): none shared with another check's lab, a lab in use or
// the native lab test's, and none among Linux's ephemeral ports, where a loopback client can be holding one.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { PORT_OFFSETS, publishedPorts } = require('../compose-lab');
const { ROOT } = require('../../lab-topology/manifests');

const FIRST_EPHEMERAL_PORT = 32768; // Linux's default ip_local_port_range starts here
const NATIVE_TEST_OFFSET = Number(/LAB_TEST_PORT_OFFSET \|\| (\d+)/.exec(fs.readFileSync(path.join(ROOT, 'tests/integration/native-lab.test.js'), 'utf8'))[1]);

test('every check\'s lab publishes its ports below the ephemeral range, on ports no other lab uses', () => {
  const labs = Object.assign({ 'a lab in use': 0, 'the native lab test': NATIVE_TEST_OFFSET }, PORT_OFFSETS);
  const owner = new Map();
  for (const [lab, offset] of Object.entries(labs)) {
    for (const port of publishedPorts(offset)) {
      assert.ok(port < FIRST_EPHEMERAL_PORT, `${lab}: port ${port} is in the ephemeral range`);
      assert.ok(!owner.has(port), `${lab} and ${owner.get(port)} both publish port ${port}`);
      owner.set(port, lab);
    }
  }
});
