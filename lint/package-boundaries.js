'use strict';
// The ESLint rule that keeps the lab's packages apart: a relative import (require, require.resolve, import) may not
// leave the package it is written in, the nearest folder above the file with a package.json. Another package is
// imported by its name (@lab/<name>, linked by scripts/link-packages.sh), so the packages' dependencies are what their
// files say and the images copy what they name. The report names the import to write instead.
const fs = require('node:fs');
const path = require('node:path');

const manifests = new Map();

/** The package.json of dir, parsed, or null when it has none. */
function manifestIn(dir) {
  if (!manifests.has(dir)) {
    const file = path.join(dir, 'package.json');
    manifests.set(dir, fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
  }
  return manifests.get(dir);
}

/** The package a path belongs to: {dir, name} of the nearest folder at or above it with a package.json, or null. */
function packageOf(start) {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = manifestIn(dir);
    if (manifest) return { dir, name: manifest.name };
    if (path.dirname(dir) === dir) return null;
  }
}

/** The import of target by its package's name, as the report suggests it. */
function byName(target, pkg) {
  const rest = path.relative(pkg.dir, target).replace(/\.js$/, '').split(path.sep).join('/');
  return rest === '' ? pkg.name : `${pkg.name}/${rest}`;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'a relative import stays inside its own package' },
    schema: [],
    messages: { leaves: "'{{spec}}' leaves {{from}} for {{to}}: import it by name, '{{instead}}'" },
  },
  create(context) {
    const filename = context.filename;
    const own = packageOf(path.dirname(filename));
    function check(node) {
      if (!own || !node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const spec = node.value;
      if (spec !== '.' && spec !== '..' && !spec.startsWith('./') && !spec.startsWith('../')) return;
      const target = path.resolve(path.dirname(filename), spec);
      const theirs = packageOf(target);
      if (!theirs || theirs.dir === own.dir) return;
      context.report({ node, messageId: 'leaves', data: { spec, from: own.name, to: theirs.name, instead: byName(target, theirs) } });
    }
    const isRequire = (callee) => (callee.type === 'Identifier' && callee.name === 'require')
      || (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'require'
        && callee.property.type === 'Identifier' && callee.property.name === 'resolve');
    return {
      CallExpression(node) {
        if (isRequire(node.callee)) check(node.arguments[0]);
      },
      ImportDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

module.exports = { rules: { 'package-boundaries': rule } };
