'use strict';
// fast-parse and fast-stringify keep the shapes of the objects a call makes (V8's hidden classes) alive between calls
// (fast-parse/parser.js' and fast-stringify.js' keepShapes()). V8 drops a shape at a full collection once no object has
// it: the next call then rebuilt the shapes field by field, and the optimized code that checked them was thrown away
// (a tree of small arrays, 2.8 MB, parsed right after a collection: 17-19 ms where 14 are steady). The child
// (test/shapes-after-collection.js) runs each module on documents that take every kind of step of its walk, collects
// all garbage with no call alive, and runs them again, under V8's --trace-generalization: a shape rebuilt from its
// constructor widens its fields again (a time field given its first fraction), and no such line may come from the
// module's files after the collection. The work clock makes the passes take the same path on any machine. Node 14
// syntax.
const assert = require('assert');
const path = require('path');
const { execFileSync } = require('child_process');
const test = require('./test-runner');
const { AFTER_COLLECTION } = require('./shapes-after-collection');

// A line of V8's trace names the function and the file where a field widened.
const MODULE_FILES = {
  parse: /[\\/]js-serializers[\\/](fast-parse[\\/][a-z-]+|learnt-rate)\.js/,
  stringify: /[\\/]js-serializers[\\/]fast-stringify([\\/][a-z-]+)?\.js/,
};
// setMember() sets the document's own members: their objects are the document's shapes, which native rebuilds after a
// collection too.
const DOCUMENT_SHAPES = /\[[~+*]?setMember\b/;

/** The lines of V8's trace of fields widening in the module's files, before the collection and after it. */
function widenedFields(module) {
  const output = execFileSync(process.execPath, ['--trace-generalization', '--expose-gc', path.join(__dirname, 'shapes-after-collection.js'), module], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const [before, after] = output.split(`${AFTER_COLLECTION}\n`);
  assert.ok(after !== undefined, `${module}: the child did not reach the collection`);
  const widened = (lines) => lines.split('\n').filter((line) => line.startsWith('[generalizing]') && MODULE_FILES[module].test(line) && !DOCUMENT_SHAPES.test(line));
  return { before: widened(before), after: widened(after) };
}

for (const module of Object.keys(MODULE_FILES)) {
  test(`${module}: a call after a full collection finds its shapes as the calls before left them`, () => {
    const { before, after } = widenedFields(module);
    // The check can fail: the first calls widen the module's fields (times become fractions).
    assert.ok(before.length > 0, `${module}: V8 traced no field of the module widening in the first calls`);
    assert.deepStrictEqual(after, [], `${module}: shapes were rebuilt after the collection:\n${after.slice(0, 10).join('\n')}`);
  });
}
