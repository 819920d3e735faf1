'use strict';
// The package-boundaries rule on the lab's real tree: a relative import inside its package passes, one that leaves it
// fails with the import by name to write instead, and a file outside any package is left alone.
const test = require('node:test');
const path = require('node:path');
const { RuleTester } = require('eslint');
const { rules } = require('../package-boundaries');

const ROOT = path.join(__dirname, '..', '..');
const at = (file) => path.join(ROOT, file);

test('relative imports stay inside their package; another package is named', () => {
  const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'commonjs' } });
  tester.run('package-boundaries', rules['package-boundaries'], {
    valid: [
      { filename: at('payloads/js/index.js'), code: "require('./steps');" },
      { filename: at('loop-kit/test/slices.test.js'), code: "require('../slices'); require('..');" },
      { filename: at('payloads/js/index.js'), code: "require('@lab/loop-kit/slices'); require('node:fs');" },
      { filename: at('services/node-async/src/service.js'), code: "require.resolve('../package.json');" },
      // A file in no package (the repository's root has no package.json) is not this rule's to judge.
      { filename: at('outside-any-package.js'), code: "require('./node-kit/params');" },
    ],
    invalid: [
      {
        filename: at('payloads/js/steps.js'),
        code: "require('../../node-kit/params');",
        errors: [{ message: "'../../node-kit/params' leaves @lab/payloads for @lab/node-kit: import it by name, '@lab/node-kit/params'" }],
      },
      {
        filename: at('load/test/driver.test.js'),
        code: "require.resolve('../../services/node-async/src/service.js');",
        errors: [{ message: "'../../services/node-async/src/service.js' leaves @lab/load for @lab/node-async: import it by name, '@lab/node-async/src/service'" }],
      },
      {
        filename: at('docker/smoke.js'),
        code: "import('../payloads');",
        errors: [{ message: "'../payloads' leaves @lab/docker for @lab/payloads: import it by name, '@lab/payloads'" }],
      },
    ],
  });
});
