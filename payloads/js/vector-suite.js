'use strict';
// The JS generator's check against ../vectors.json, registered with whichever test runner the caller's Node line has
// (node:test, or the `test` package on Node 14): the Node services run it so both Node lines are covered.
const { computeVectors, readVectors } = require('./vectors');

function vectorSuite(test, assert) {
  const expected = readVectors();
  const actual = computeVectors();
  test('payload generator: prng outputs match vectors.json', () => {
    assert.deepStrictEqual(actual.prng, expected.prng);
  });
  for (const [i, vector] of expected.documents.entries()) {
    const name = `${vector.document} seed=${vector.seed} ${vector.case || `size=${vector.size}`}`;
    test(`payload generator: ${name} matches vectors.json`, () => {
      assert.deepStrictEqual(actual.documents[i], vector);
    });
  }
}

module.exports = { vectorSuite };
