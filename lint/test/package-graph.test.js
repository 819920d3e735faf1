'use strict';
// The lab's packages depend on one another in one direction: payloads and the Node agent at the bottom (the agent is
// loaded alone into users' processes), loop-kit on the agent, then node-kit, the
// serializers and kits, the services and the load driver, and docker, scripts and tests on top. What a package's own
// code imports by name (@lab/<name>) must form no cycle; its tests and benchmarks may use any package (test-kit's
// helpers start node-kit's services), so they are left out. A cycle is named with a file for each of its arrows.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const SKIPPED = new Set(['node_modules', 'test', 'bench', 'build', 'target', 'results', 'fixtures']);

/** The lab's packages, {name: folder}, as scripts/link-packages.sh linked them (make setup, which make lint runs). */
function labPackages() {
  const links = path.join(ROOT, 'node_modules', '@lab');
  const out = {};
  for (const name of fs.readdirSync(links)) {
    if (!name.startsWith('.')) out[`@lab/${name}`] = fs.realpathSync(path.join(links, name));
  }
  return out;
}

/** The .js files of a package's own code: not its tests, benchmarks, dependencies or build output. */
function* ownFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // A folder with a package.json of its own is another package (bench/peers, a plugin example).
      if (!fs.existsSync(path.join(full, 'package.json'))) yield* ownFiles(full);
    } else if (entry.name.endsWith('.js')) {
      yield full;
    }
  }
}

/** {name: {otherName: a file importing it}} */
function dependencies(packages) {
  const graph = {};
  for (const [name, dir] of Object.entries(packages)) {
    graph[name] = {};
    for (const file of ownFiles(dir)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/['"](@lab\/[a-z0-9-]+)/g)) {
        if (match[1] !== name && !graph[name][match[1]]) graph[name][match[1]] = path.relative(ROOT, file);
      }
    }
  }
  return graph;
}

/** The first cycle found, as [name, ...] ending where it began, or null. */
function findCycle(graph) {
  const state = {};
  const stack = [];
  function visit(name) {
    state[name] = 'open';
    stack.push(name);
    for (const next of Object.keys(graph[name] || {})) {
      if (state[next] === 'open') return stack.slice(stack.indexOf(next)).concat(next);
      if (!state[next]) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state[name] = 'done';
    return null;
  }
  for (const name of Object.keys(graph)) {
    if (!state[name]) {
      const cycle = visit(name);
      if (cycle) return cycle;
    }
  }
  return null;
}

test('the packages form no cycle, and the ones below import none of the ones above', () => {
  const packages = labPackages();
  for (const name of ['@lab/payloads', '@lab/node-agent', '@lab/loop-kit', '@lab/node-kit', '@lab/test-kit', '@lab/load']) assert.ok(packages[name], `${name} is a package`);
  const graph = dependencies(packages);
  const cycle = findCycle(graph);
  const arrows = cycle && cycle.slice(1).map((to, i) => `${cycle[i]} -> ${to} (${graph[cycle[i]][to]})`);
  assert.strictEqual(cycle, null, cycle && `a cycle: ${arrows.join(', ')}`);
  assert.deepStrictEqual(Object.keys(graph['@lab/payloads']), [], 'payloads is the bottom: it imports no package');
  assert.deepStrictEqual(Object.keys(graph['@lab/node-agent']), [], 'the Node agent is the bottom: it imports no package (it is mounted alone into users\' containers)');
  assert.deepStrictEqual(Object.keys(graph['@lab/loop-kit']), ['@lab/node-agent'], 'loop-kit imports the agent alone (the thread\'s clock)');
  assert.deepStrictEqual(Object.keys(graph['@lab/node-kit']).sort(), ['@lab/loop-kit', '@lab/node-agent', '@lab/payloads'], 'node-kit stands on loop-kit, the agent and payloads alone');
});

/** The file a require names from file (relative, or @lab/<name>/<path>), or null for anything else (a library, node:). */
function requiredFile(file, spec, packages) {
  const lab = /^(@lab\/[a-z0-9-]+)(\/.*)?$/.exec(spec);
  const base = lab ? (packages[lab[1]] ? path.join(packages[lab[1]], lab[2] || 'index') : null) : spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.js`, path.join(base, 'index.js')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

test('no file imports itself through others (a circle between two modules is one place in two files)', () => {
  const packages = labPackages();
  const graph = {};
  for (const dir of Object.values(packages)) {
    for (const file of ownFiles(dir)) {
      const name = path.relative(ROOT, file);
      graph[name] = {};
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/require\(['"]([^'"]+)['"]\)/g)) {
        const to = requiredFile(file, match[1], packages);
        if (to) graph[name][path.relative(ROOT, to)] = name;
      }
    }
  }
  assert.ok(Object.keys(graph).length > 100, `${Object.keys(graph).length} files read`);
  assert.strictEqual(findCycle(graph), null, `a circle of imports: ${(findCycle(graph) || []).join(' -> ')}`);
});

test('findCycle finds a cycle and passes a tree', () => {
  assert.deepStrictEqual(findCycle({ a: { b: 'x' }, b: { c: 'y' }, c: { a: 'z' } }), ['a', 'b', 'c', 'a']);
  assert.strictEqual(findCycle({ a: { b: 'x', c: 'y' }, b: { c: 'z' }, c: {} }), null);
});
