'use strict';
// The parameters of a run over a records document or a user's own, written once for the workloads that share them
// (stringify adds its own `body`), and how a run finds its input. Node 14 syntax.
const { HttpError } = require('@lab/node-kit/errors');

const DOCUMENT_PARAMS = {
  size: { default: 1000, min: 1, max: 20000 }, // records of ~2 KB: the cap is a ~40 MB document (text or value)
  seed: { default: 1, min: 0, max: 2147483647 },
  yieldMs: { default: 5, min: 1, max: 1000 },
  timeoutMs: { default: 0, min: 0, max: 600000 }, // 0: no timeout
  // A user's own document in place of the generated one: the sha256 PUT /documents answered ('': none).
  document: { default: '', pattern: '[0-9a-f]{64}' },
};

/**
 * What a run serializes or parses: the user's document params.document names, held in the store until release(),
 * else the generated records. {spec, caseName, held (or null), reference} where reference is a promise of
 * {hash, reference} for the generated ones and the store's native hash for a user's.
 */
function runInput(params, inputs, documents) {
  if (params.document === '') {
    const spec = { document: 'records', seed: params.seed, size: params.size };
    return { spec, held: null, reference: inputs.reference(spec) };
  }
  if (!documents) throw new Error('this service keeps no documents');
  const held = documents.hold(params.document);
  if (held.kind === 'csv') {
    held.release();
    throw new HttpError(400, `document ${params.document} is CSV, not JSON: /run/csv runs it`, { parameter: 'document' });
  }
  return { spec: null, held, reference: Promise.resolve({ hash: held.reference.hash, reference: 'native' }) };
}

/** The case label of a run's metrics: records, or a user's document. */
const caseOf = (params) => (params.document === '' ? 'records' : 'document');

module.exports = { DOCUMENT_PARAMS, runInput, caseOf };
