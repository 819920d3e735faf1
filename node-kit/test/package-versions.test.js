'use strict';
// packageVersions reads each library's own package.json, whatever its `exports` make of `<name>/package.json`.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { createRequire } = require('node:module');
const { packageVersions } = require('..');

const fixtureRequire = createRequire(path.join(__dirname, 'fixtures', 'package-versions', 'package.json'));

test('a plain package and one whose exports pattern maps package.json into src/ (stream-json 3) both give their version', () => {
  assert.deepStrictEqual(packageVersions(fixtureRequire, ['plain', 'patterned']), { plain: '1.2.3', patterned: '3.8.0' });
});

test('a package that is not installed is an error naming it', () => {
  assert.throws(() => packageVersions(fixtureRequire, ['absent']), { code: 'MODULE_NOT_FOUND', message: /absent/ });
});
