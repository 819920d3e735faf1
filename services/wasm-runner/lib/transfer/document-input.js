'use strict';
// A transfer run on a user's document (document=<sha256>, PUT /documents): the document held in node-kit's store
// for the run, the references taken when it was stored (lib/documents/document-reference.js), the memory the run
// needs reserved (lib/documents/run-memory.js), and what its ops take: the value (roundtrip, count) or the tree C++
// keeps for it (create). An approach that cannot carry something in it is refused before the run with the value's
// JSON pointer (uncarried.js), never run to a wrong answer.
//
// Preparing the input is a pass over the whole document, done without holding the event loop: the value is parsed by
// the lab's fast-parse in slices (document-values.js), and create's tree is built in slices from the MessagePack the
// document worker makes of it (document-tree.js). Only the timed ops are blocks of the document's size: they are what
// is measured.
const { HttpError, badRequest } = require('@lab/node-kit');
const { uncarriedBy } = require('../documents/uncarried');
const { buildDocumentTree } = require('../documents/document-tree');

const where = (path) => (path === '' ? 'the document itself' : path);

/** Refuses a run the document cannot take (not JSON, uncarried by the approach, unreadable by C++) before anything is done. */
function checkRunnable(held, { approach, sha256, approaches }) {
  if (held.kind !== 'json') throw new HttpError(400, `document ${sha256} is ${held.kind.toUpperCase()}, not JSON: transfer runs JSON documents`, { parameter: 'document' });
  const { uncarried, tree, treeError } = held.reference;
  const refusal = uncarriedBy(uncarried, approach);
  if (refusal) {
    const allowed = approaches.filter((a) => !uncarriedBy(uncarried, a));
    throw badRequest(`${approach} cannot carry this document: ${refusal.why}, at ${where(refusal.path)}${allowed.length ? `; ${allowed.join(', ')} can` : '; no approach can'}`, { parameter: 'approach', path: refusal.path, allowed });
  }
  if (tree === null) throw badRequest(`C++ cannot read this document: ${treeError}`, { parameter: 'document' });
}

/**
 * A promise of {value (null for create), treeId (create's, else null), nodes, referenceTree, expected {hash,
 * reference}, release()} for a run of `approach` and `op` on the document `sha256`. service: {documents (the store),
 * wasm, worker (document-worker.js), memory (run-memory.js), values (document-values.js)}. Throws 404 (not stored), 400 (CSV, an approach that
 * cannot carry it, or
 * not in this memory: run-memory.js), 503 (the runs in flight leave it too little memory).
 */
async function documentInput({ documents, wasm, worker, memory, values }, { approach, sliced = null, op, sha256, approaches, yieldMs }) {
  if (!documents) throw new Error('this service keeps no documents');
  const held = documents.hold(sha256);
  let releaseMemory = null;
  let heldValue = null;
  let treeId = null;
  const release = () => {
    if (heldValue) heldValue.release();
    // A sliced approach's thread gives back its own (a thread that stopped kept nothing).
    if (sliced) (treeId !== null ? sliced.dropDocument(treeId) : sliced.releaseMemory()).catch(() => {});
    else if (treeId !== null) wasm.dropDocument(treeId);
    treeId = null;
    // What the ops left in the module (their buffers, the last tree) goes back with the run: a large document's
    // buffers would otherwise stay for every later run to fit beside (src/exchange_buffers.h).
    wasm.releaseMemory();
    if (releaseMemory) releaseMemory();
    held.release();
  };
  try {
    checkRunnable(held, { approach, sha256, approaches });
    const { hash, tree, nodes } = held.reference;
    releaseMemory = memory.admit(approach, op, held, approaches);
    let value = null;
    // A sliced approach (the worker's) keeps create's tree in its own thread: the MessagePack goes there, transferred.
    if (op === 'create' && sliced) treeId = await sliced.loadDocument(await worker.msgpack(held.text));
    else if (op === 'create') treeId = await buildDocumentTree(wasm, await worker.msgpack(held.text), { yieldMs });
    else {
      heldValue = values.hold(held, yieldMs);
      value = await heldValue.value;
    }
    return { value, treeId, nodes, referenceTree: tree, expected: { hash, reference: 'native' }, release };
  } catch (err) {
    release();
    throw err;
  }
}

module.exports = { documentInput };
