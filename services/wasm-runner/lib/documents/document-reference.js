'use strict';
// What wasm-runner keeps beside a user's document when it is stored (node-kit's documentRoutes `reference`), so that
// every transfer run on it is checked against references taken once, outside any approach, and sized before it starts:
// - hash: the sha256 of native JSON.stringify's text of its value (node-kit's reference), which the value that
//   comes back from a round trip or a create must serialize to;
// - tree: the hash of the C++ tree (src/tree_walk.h) that yyjson builds from that same text, which the tree every
//   approach builds from what crossed must equal (null when C++ cannot read it, treeError saying why);
// - uncarried: what some approaches cannot carry, with its JSON pointer (uncarried.js);
// - nodes and bytes: its node count and the bytes of that text, what its runs need of memory (memory-model.js).
// All of it is taken by the document worker (document-worker.js), off the event loop. A document of more nodes than
// the memory model lets a run have here is refused, and nothing is kept.
const { HttpError } = require('@lab/node-kit');

/**
 * documentRoutes' `reference` for wasm-runner: (document {text}) -> a promise of {hash, tree, treeError, uncarried,
 * nodes, bytes}; a 413 {error, nodes, limitNodes} past maxNodes.
 */
function documentReference(worker, maxNodes) {
  return async (document) => {
    const reference = await worker.reference(document.text, { maxNodes });
    if (reference.nodes > maxNodes) {
      throw new HttpError(413, `the document has ${reference.nodes} nodes (JSON values); a transfer run here holds at most ${maxNodes} in memory`, { nodes: reference.nodes, limitNodes: maxNodes });
    }
    return reference;
  };
}

module.exports = { documentReference };
