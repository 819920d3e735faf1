'use strict';
// The tree C++ keeps for `create` on a user's document, built in the service's own module from the MessagePack bytes
// the document worker made of it (document-worker.js), in slices: the bytes are copied in a piece at a time and read a
// bounded number of values at a time (src/documents.h), with a turn of the event loop between slices. Built in one
// call, a 64 MB document held the loop for seconds before its run started.
const { runSlices } = require('@lab/loop-kit/slices');
const { performance } = require('node:perf_hooks');

// One step of the C++ reader: at most this many values and about this many bytes (a string is read whole). A step
// then costs well under a millisecond (about 40 ns a value here), and a slice takes steps until its yieldMs is up.
const STEP_VALUES = 1 << 14;
const STEP_BYTES = 1 << 20;
// The bytes copied into WASM memory in one step: a memcpy of 1 MB, a fraction of a millisecond.
const COPY_BYTES = 1 << 20;
// A slice's bound in work, whatever the clock says (as the transfer ops' SLICE_NODES_PER_MS and loop-kit's characters):
// at most this many steps a slice for each millisecond of yieldMs. Above the rate steps run at, so here the time
// ends a slice first.
const STEPS_PER_MS = 8;

/** The most steps one slice may take for a given yieldMs. */
const maxSliceSteps = (yieldMs) => Math.max(1, Math.floor(yieldMs * STEPS_PER_MS));

/**
 * Builds the kept tree from `bytes` (a Uint8Array of one MessagePack value) in slices of about yieldMs; resolves its
 * id (wasm.dropDocument frees it). stats (optional) gets `yields` and `maxSliceSteps`, the most steps one slice took.
 * An aborted signal, or a failure, drops what was built and rejects.
 */
async function buildDocumentTree(wasm, bytes, { yieldMs, signal = null, stats = {} }) {
  const { id, write } = wasm.beginDocument(bytes.length);
  let copied = 0;
  let done = false;
  const bound = maxSliceSteps(yieldMs);
  stats.yields = 0;
  stats.maxSliceSteps = 0;
  const step = () => {
    if (copied < bytes.length) {
      const end = Math.min(bytes.length, copied + COPY_BYTES);
      write(bytes.subarray(copied, end), copied);
      copied = end;
    } else {
      done = wasm.continueDocument(id, STEP_VALUES, STEP_BYTES);
    }
  };
  try {
    await runSlices((deadline) => {
      let steps = 0;
      do {
        step();
        steps++;
      } while (!done && steps < bound && performance.now() < deadline);
      stats.maxSliceSteps = Math.max(stats.maxSliceSteps, steps);
      return done;
    }, { yieldMs, signal, stats });
    return id;
  } catch (err) {
    wasm.dropDocument(id);
    throw err;
  }
}

module.exports = { buildDocumentTree, maxSliceSteps, STEP_VALUES, STEP_BYTES, COPY_BYTES };
