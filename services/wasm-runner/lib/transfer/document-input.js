'use strict';
// A transfer run on a user's document (document=<sha256>, PUT /documents): the document held in node-kit's store
// for the run, its value, the references taken when it was stored (lib/documents/document-reference.js), and for
// `create` the tree C++ keeps for it (wasm.loadDocument), dropped when the run ends. An approach that cannot carry
// something in it is refused before the run with the value's JSON pointer (uncarried.js), never run to a wrong answer.
const { HttpError, badRequest } = require('@lab/node-kit');
const { uncarriedBy } = require('../documents/uncarried');

// The value of the document parsed last: the store keeps texts only, and the runs of a try suite on one document come
// in a row, so one parse serves them all while memory holds one value (js-serializers/document-params.js does the
// same). JSON.parse holds the loop for a large document (about a second for 64 MB), as PUT /documents' own parse does.
let lastParsed = { sha256: null, value: null };

function valueOf(held) {
  if (lastParsed.sha256 !== held.sha256) lastParsed = { sha256: held.sha256, value: JSON.parse(held.text) };
  return lastParsed.value;
}

const where = (path) => (path === '' ? 'the document itself' : path);

/**
 * {value, treeId (create's, else null), referenceTree, expected {hash, reference}, release()} for a run of `approach`
 * and `op` on the document params.document; throws 404 (not stored), 400 (CSV, or an approach that cannot carry it).
 */
function documentInput(documents, wasm, { approach, op, sha256, approaches }) {
  if (!documents) throw new Error('this service keeps no documents');
  const held = documents.hold(sha256);
  let treeId = null;
  try {
    if (held.kind !== 'json') throw new HttpError(400, `document ${sha256} is ${held.kind.toUpperCase()}, not JSON: transfer runs JSON documents`, { parameter: 'document' });
    const { hash, tree, treeError, uncarried } = held.reference;
    const refusal = uncarriedBy(uncarried, approach);
    if (refusal) {
      const allowed = approaches.filter((a) => !uncarriedBy(uncarried, a));
      throw badRequest(`${approach} cannot carry this document: ${refusal.why}, at ${where(refusal.path)}${allowed.length ? `; ${allowed.join(', ')} can` : '; no approach can'}`, { parameter: 'approach', path: refusal.path, allowed });
    }
    if (tree === null) throw badRequest(`C++ cannot read this document: ${treeError}`, { parameter: 'document' });
    const value = valueOf(held);
    if (op === 'create') treeId = wasm.loadDocument(JSON.stringify(value));
    return {
      value,
      treeId,
      referenceTree: tree,
      expected: { hash, reference: 'native' },
      release() {
        if (treeId !== null) wasm.dropDocument(treeId);
        treeId = null;
        held.release();
      },
    };
  } catch (err) {
    if (treeId !== null) wasm.dropDocument(treeId);
    held.release();
    throw err;
  }
}

module.exports = { documentInput };
