'use strict';
// The real driver (src/main.js) as a child process on port 0, for the tests that talk HTTP to it. Not a test file:
// the Makefile runs test/*.test.js only.
const path = require('node:path');
const { startProcess, stopProcess } = require('@lab/test-kit/service-process');

/** Starts the driver with env added to this process's (its own HOST and PORT win); resolves the child with .port and .url. */
const startDriver = (env) => startProcess(path.join(__dirname, '..', 'src', 'main.js'), env);

module.exports = { startDriver, stopDriver: stopProcess };
