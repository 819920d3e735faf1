'use strict';
// ESLint for every JavaScript file of the lab (`make lint`). The files that Node 14 loads (node14-fibers and what it
// shares: node-kit, loop-kit, js-serializers, payloads, test-kit, serializer plugins, bench-kit, and lab-topology, which the
// fibers-to-async table's Node 14 child loads; and the Node agent, which users load into Node 14 to 26) are parsed at ES2020, Node 14's syntax, and may not use
// the globals Node 14 lacks; the rest at the syntax of Node 24. Patterns are relative to the repository root, where
// `make lint` runs ESLint. Every file keeps its relative imports inside its own package (package-boundaries.js).
const js = require('@eslint/js');
const globals = require('globals');
const lab = require('./package-boundaries');

// What these Node 14 files must not reach for: Node 24 globals that Node 14 does not have (loop-kit/abort.js checks
// for AbortController before it uses it, and says so).
const NOT_ON_NODE_14 = ['fetch', 'AbortSignal', 'structuredClone', 'Blob', 'FormData', 'Headers', 'Request', 'Response', 'BroadcastChannel']
  .map((name) => ({ name, message: 'Node 14 runs this file: it has no such global' }));

const NODE_14_FILES = ['services/node14-fibers/**/*.js', 'node-kit/**/*.js', 'loop-kit/**/*.js', 'js-serializers/**/*.js', 'plugins/**/*.js', 'payloads/js/**/*.js', 'test-kit/*.js', 'lab-topology/*.js', 'bench-kit/*.js', 'agents/node-agent/**/*.js'];

module.exports = [
  {
    ignores: ['**/node_modules/**', '.runtimes/**', '.tools/**', '.smoke/**', '.native/**', 'results/**', '**/build/**', '**/target/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'commonjs', globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { lab },
    rules: {
      'lab/package-boundaries': 'error',
      'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'none' }],
      strict: ['error', 'global'],
    },
  },
  {
    files: NODE_14_FILES,
    // js-serializers' benchmarks run on Node 24 only (the fibers-to-async table's Node 14 child loads the approaches,
    // not them), and so do the tests that start a real Prometheus and the agent's tests (their children, the fixtures,
    // run on every Node line the agent supports).
    ignores: ['js-serializers/bench/fast-*-bench.js', 'js-serializers/test/**/*.test.js', 'test-kit/prometheus-process.js', 'agents/node-agent/test/*.test.js'],
    languageOptions: { ecmaVersion: 2020 },
    rules: { 'no-restricted-globals': ['error', ...NOT_ON_NODE_14] },
  },
];
