'use strict';
// The documents a service builds in slices are the documents generate() builds, and building them gives the event
// loop its turns: at the thinnest slices, a turn after every record (a bound in work units, not in time).
const test = require('node:test');
const assert = require('node:assert');
const { generate, documentSteps } = require('@lab/payloads');
const { countTurns } = require('@lab/test-kit/count-turns');
const { runStepsInSlices } = require('@lab/loop-kit/slices');

const generateInSlices = (spec, options) => runStepsInSlices(documentSteps(spec), options);

const THINNEST = { yieldMs: 1e-9 }; // a slice ends after every step

test('records and objects built in slices equal generate(), with a turn of the loop after every record', async () => {
  for (const spec of [{ document: 'records', seed: 5, size: 300 }, { document: 'objects', seed: 6, size: 300 }]) {
    const stop = countTurns();
    const value = await generateInSlices(spec, THINNEST);
    const turns = stop();
    assert.deepStrictEqual(value, generate(spec), spec.document);
    assert.ok(turns >= spec.size, `${turns} turns of the event loop for ${spec.size} records`);
  }
  assert.deepStrictEqual(await generateInSlices({ document: 'transfer', seed: 1, case: 'tree_d4_b3' }), generate({ document: 'transfer', seed: 1, case: 'tree_d4_b3' }));
  await assert.rejects(generateInSlices({ document: 'nope', seed: 1 }), RangeError);
});
