'use strict';
// What wasm-runner keeps beside a user's document when it is stored (node-kit's documentRoutes `reference`), so that
// every transfer run on it is checked against references taken once, outside any approach:
// - hash: the sha256 of native JSON.stringify's text of its value (node-kit's reference), which the value that
//   comes back from a round trip or a create must serialize to;
// - tree: the hash of the C++ tree (src/tree_walk.h) that yyjson builds from that same text, which the tree every
//   approach builds from what crossed must equal (null when C++ cannot read it, treeError saying why);
// - uncarried: what some approaches cannot carry, with its JSON pointer (uncarried.js).
// The text C++ reads is JSON.stringify's, not the user's: the approaches carry the JS value JSON.parse made of the
// document (one member per key, a large integer already a double), and the reference must be that value's tree.
const { sha256 } = require('@lab/node-kit');
const { findUncarried } = require('./uncarried');

/** documentRoutes' `reference` for wasm: (document {text}) -> a promise of {hash, tree, treeError, uncarried}. */
function documentReference(wasm) {
  return async (document) => {
    const value = JSON.parse(document.text);
    const canonical = JSON.stringify(value);
    const uncarried = findUncarried(value);
    let tree = null;
    let treeError = null;
    try {
      const id = wasm.loadDocument(canonical);
      try {
        tree = wasm.documentTreeHash(id);
      } finally {
        wasm.dropDocument(id);
      }
    } catch (err) {
      treeError = err.message;
    }
    return { hash: sha256(canonical), tree, treeError, uncarried };
  };
}

module.exports = { documentReference };
