'use strict';
// The port offset of each native integration test's lab. They run side by side (test-integration), so no two may
// publish a port in common; docker/test/port-offsets.test.js holds them to that and below the ephemeral range, and
// make test's leftovers check watches their ports.
const INTEGRATION_PORT_OFFSETS = {
  'native-lab': Number(process.env.LAB_TEST_PORT_OFFSET || 20000),
  'native-stop': 22000,
  try: 16000,
  'profile-token': 14000,
  attach: 10000,
};

module.exports = { INTEGRATION_PORT_OFFSETS };
