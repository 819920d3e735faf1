'use strict';
// fast-parse keeps the shapes of its walk (V8's hidden classes) alive between parses (fast-parse/parser.js'
// keepShapes()). V8 drops a shape at a full collection once no object has it: the next parse then rebuilt the shapes
// field by field, and the optimized code that checked them was thrown away (a tree of small arrays, 2.8 MB, parsed
// right after a collection: 17-19 ms where 14 are steady). The child (test/parse-after-collection.js) parses texts
// that take every kind of step of the walk, collects all garbage with no parse alive, and parses them again, under
// V8's --trace-generalization: a shape rebuilt from its constructor widens its fields again (a time field given its
// first fraction), and no such line may come from the walk's files after the collection. The work clock makes both
// passes take the same path on any machine. Node 14 syntax.
const assert = require('assert');
const path = require('path');
const { execFileSync } = require('child_process');
const test = require('./test-runner');
const { AFTER_COLLECTION } = require('./parse-after-collection');

// The walk's files: a line of V8's trace names the function and the file where a field widened. setMember() sets the
// document's own members, whose objects are the document's shapes (native rebuilds those after a collection too).
const WALK_FILES = /[\\/]js-serializers[\\/](fast-parse[\\/][a-z-]+|learnt-rate)\.js/;
const DOCUMENT_SHAPES = /\[~?setMember\+/;

test('a parse after a full collection finds the walk\'s shapes as the parses before left them', () => {
  const output = execFileSync(process.execPath, ['--trace-generalization', '--expose-gc', path.join(__dirname, 'parse-after-collection.js')], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const [before, after] = output.split(`${AFTER_COLLECTION}\n`);
  assert.ok(after !== undefined, 'the child did not reach the collection');
  const widened = (lines) => lines.split('\n').filter((line) => line.startsWith('[generalizing]') && WALK_FILES.test(line) && !DOCUMENT_SHAPES.test(line));
  // The check can fail: the first parses widen the walk's fields (times become fractions).
  assert.ok(widened(before).length > 0, 'V8 traced no field of the walk widening in the first parses');
  const again = widened(after);
  assert.deepStrictEqual(again, [], `the walk's shapes were rebuilt after the collection:\n${again.slice(0, 10).join('\n')}`);
});
