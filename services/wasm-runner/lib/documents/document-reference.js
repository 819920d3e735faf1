'use strict';
// What wasm-runner keeps beside a user's document when it is stored (node-kit's documentRoutes `reference`), so that
// every transfer run on it is checked against references taken once, outside any approach, and sized before it starts:
// - hash: the sha256 of native JSON.stringify's text of its value (node-kit's reference), which the value that
//   comes back from a round trip or a create must serialize to;
// - tree: the hash of the C++ tree (src/tree_walk.h) that yyjson builds from that same text, which the tree every
//   approach builds from what crossed must equal (null when C++ cannot read it, treeError saying why);
// - uncarried: what some approaches cannot carry, with its JSON pointer (uncarried.js);
// - nodes and bytes: its node count and the bytes of that text, what its runs need of memory (memory-model.js).
// All of it is taken by the document worker (document-worker.js), off the event loop. node-kit has refused a document
// of more nodes than the memory model lets a run have here before this is asked.

/**
 * documentRoutes' `reference` for wasm-runner: (document {text}) -> a promise of {hash, tree, treeError, uncarried,
 * nodes, bytes}. maxNodes: the worker stops counting past it.
 */
const documentReference = (worker, maxNodes) => (document) => worker.reference(document.text, { maxNodes });

module.exports = { documentReference };
