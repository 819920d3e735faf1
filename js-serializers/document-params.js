'use strict';
// The parameters of a run over a records document, written once for the workloads that share them (stringify adds
// its own `body`). Node 14 syntax.

const DOCUMENT_PARAMS = {
  size: { default: 1000, min: 1, max: 20000 }, // records of ~2 KB: the cap is a ~40 MB document (text or value)
  seed: { default: 1, min: 0, max: 2147483647 },
  yieldMs: { default: 5, min: 1, max: 1000 },
  timeoutMs: { default: 0, min: 0, max: 600000 }, // 0: no timeout
};

module.exports = { DOCUMENT_PARAMS };
