'use strict';
// Runs on users' documents admitted by the memory they need: a run whose approach and op could not fit the WASM
// memory even alone is refused with 400 naming its limit and the approaches that fit (memory-model.js); otherwise it
// reserves its WASM bytes here and its JS heap bytes from node-kit's budget of the process' document runs
// (node-kit/document-memory.js, which prices the values it holds) for as long as it lasts, and one that would take
// either past what the runs in flight leave gets 503 with Retry-After. Both before anything is done, instead of failing
// inside C++ (where an allocation that fails aborts the module) or ending the process (V8 out of heap). Runs on
// generated cases are small and not counted: the budgets leave room for them.
const { badRequest, busy } = require('@lab/node-kit');
const { valueBytes } = require('@lab/node-kit/document-memory');
const { wasmNeeds, limitNodes, JS_RUN } = require('./memory-model');

const MB = 2 ** 20;

/**
 * The JS heap bytes a run of op holds on a held document (node-kit's store: its check's counts, its text's bytes, and
 * the canonical text's, reference.bytes).
 */
const jsNeeds = (op, held) => JS_RUN[op].values * valueBytes({ counts: held.check.counts, bytes: held.bytes }) + JS_RUN[op].texts * 2 * held.reference.bytes;

/** wasmBudgetBytes: the WASM memory document runs may take together (memoryLimits' wasmBytes); jsMemory: node-kit's budget. */
function createRunMemory(wasmBudgetBytes, jsMemory) {
  let wasmTaken = 0;

  function refuseIfNeverFits(approach, op, document, approaches) {
    const limit = limitNodes(wasmBudgetBytes, approach, op, document.bytes);
    if (document.nodes <= limit) return;
    const allowed = approaches.filter((a) => document.nodes <= limitNodes(wasmBudgetBytes, a, op, document.bytes));
    throw badRequest(`a ${op} through ${approach} holds at most ${limit} nodes of a document this size in memory here, and this one has ${document.nodes}${allowed.length ? `; ${allowed.join(', ')} can` : ''}`, { parameter: 'approach', nodes: document.nodes, limitNodes: limit, allowed });
  }

  return {
    /**
     * Admits a run of approach and op on a held document: returns release() (safe to call twice), or throws 400 (it
     * never fits: approaches names the ones to offer instead), 413 (its JS values never fit) or 503 (not beside the
     * runs in flight).
     */
    admit(approach, op, held, approaches) {
      const document = { nodes: held.reference.nodes, bytes: held.reference.bytes };
      refuseIfNeverFits(approach, op, document, approaches);
      const wasmBytes = wasmNeeds(approach, op, document);
      if (wasmTaken + wasmBytes > wasmBudgetBytes) {
        throw busy(`this run needs ${Math.ceil(wasmBytes / MB)} MB of WASM memory and the runs in flight leave ${Math.floor((wasmBudgetBytes - wasmTaken) / MB)} MB; retry when they end`);
      }
      const releaseJs = jsMemory.reserve(jsNeeds(op, held), `a ${op} through ${approach} on the stored document`);
      wasmTaken += wasmBytes;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        wasmTaken -= wasmBytes;
        releaseJs();
      };
    },
    /** The WASM bytes the runs in flight hold now. */
    wasmTaken: () => wasmTaken,
  };
}

module.exports = { createRunMemory, jsNeeds };
