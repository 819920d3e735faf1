'use strict';
// Runs on users' documents admitted by the memory they need (memory-model.js): a run whose approach and op could not
// fit even alone is refused with 400 naming its limit and the approaches that fit; otherwise it reserves its WASM and
// JS heap bytes for as long as it lasts, and one that would take either past what the runs in flight leave gets 503
// with Retry-After. Both before anything is done, instead of failing inside C++ (where an allocation that fails
// aborts the module) or ending the process (V8 out of heap). Runs on generated cases are small and not counted: the
// budgets leave room for them.
const { badRequest, busy } = require('@lab/node-kit');
const { runNeeds, limitNodes } = require('./memory-model');

const MB = 2 ** 20;

/** budgets: {wasmBytes, jsBytes} the document runs may take together (memory-model.js' memoryLimits). */
function createRunMemory(budgets) {
  const taken = { wasmBytes: 0, jsBytes: 0 };

  function refuseIfNeverFits(approach, op, document, approaches) {
    const limit = limitNodes(budgets, approach, op, document.bytes);
    if (document.nodes <= limit) return;
    const allowed = approaches.filter((a) => document.nodes <= limitNodes(budgets, a, op, document.bytes));
    throw badRequest(`a ${op} through ${approach} holds at most ${limit} nodes of a document this size in memory here, and this one has ${document.nodes}${allowed.length ? `; ${allowed.join(', ')} can` : ''}`, { parameter: 'approach', nodes: document.nodes, limitNodes: limit, allowed });
  }

  return {
    /**
     * Admits a run of approach and op on a document {nodes, bytes}: returns release() (safe to call twice), or throws
     * 400 (it never fits: approaches names the ones to offer instead) or 503 (not beside the runs in flight).
     */
    admit(approach, op, document, approaches) {
      refuseIfNeverFits(approach, op, document, approaches);
      const needs = runNeeds(approach, op, document);
      for (const kind of ['wasmBytes', 'jsBytes']) {
        if (taken[kind] + needs[kind] > budgets[kind]) {
          const what = kind === 'wasmBytes' ? 'WASM memory' : 'JS heap';
          throw busy(`this run needs ${Math.ceil(needs[kind] / MB)} MB of ${what} and the runs in flight leave ${Math.floor((budgets[kind] - taken[kind]) / MB)} MB; retry when they end`);
        }
      }
      taken.wasmBytes += needs.wasmBytes;
      taken.jsBytes += needs.jsBytes;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        taken.wasmBytes -= needs.wasmBytes;
        taken.jsBytes -= needs.jsBytes;
      };
    },
    /** What the runs in flight hold now. */
    taken: () => Object.assign({}, taken),
  };
}

module.exports = { createRunMemory };
