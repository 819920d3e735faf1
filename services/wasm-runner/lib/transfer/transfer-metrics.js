'use strict';
// The transfer workload's metrics (README.md), beside node-kit's: the time of every op (a run's per-op times, observed
// after its timed section), the bytes that cross the JS/WASM boundary per op, and the WASM heap.
const METRIC = {
  opSeconds: 'lab_transfer_op_seconds',
  boundaryBytes: 'lab_transfer_boundary_bytes',
  wasmHeapBytes: 'lab_wasm_heap_bytes',
};

// One op spans about a microsecond (a small flat object through typed) to tens of milliseconds (numbers_10000 through
// embind on a busy machine).
const OP_BUCKETS = [1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];

// The wasm-transfer experiment's five families, which the dashboard groups by: flat, nested, numbers, objects, tree
// (`numbers_1000` -> `numbers`). A label of its own, because a label_replace in a panel would read as a Grafana
// variable ($1).
// A user's document (case `document`) is a family of its own.
const familyOf = (caseName) => (caseName.includes('_') ? caseName.slice(0, caseName.indexOf('_')) : caseName);

/**
 * promClient, registry: node-kit's; wasm: the loaded module (its heap is read at every scrape).
 * Returns {observeRun({caseName, approach, op, times, count, boundaryBytes})}: for a validated run, every op's time and
 * the bytes one op sent each way (embind sends none through a buffer: no series for it).
 */
function createTransferMetrics(promClient, registry, wasm) {
  const registers = [registry];
  const opSeconds = new promClient.Histogram({
    name: METRIC.opSeconds,
    help: 'Time of each transfer op of validated runs (one round trip, count or create)',
    labelNames: ['family', 'case', 'approach', 'op'],
    buckets: OP_BUCKETS,
    registers,
  });
  const boundaryBytes = new promClient.Gauge({
    name: METRIC.boundaryBytes,
    help: 'Bytes one transfer op handed across the JS/WASM boundary, per direction, in the last validated run',
    labelNames: ['family', 'case', 'approach', 'op', 'direction'],
    registers,
  });
  new promClient.Gauge({
    name: METRIC.wasmHeapBytes,
    help: 'Size of the WebAssembly memory (it grows, never shrinks)',
    registers,
    collect() {
      this.set(wasm.heapBytes());
    },
  });
  return {
    observeRun({ caseName, approach, op, times, count, boundary }) {
      const family = familyOf(caseName);
      const child = opSeconds.labels(family, caseName, approach, op);
      for (let i = 0; i < count; i++) child.observe(times[i] / 1000);
      for (const direction of ['in', 'out']) {
        if (boundary[direction] !== null) boundaryBytes.labels(family, caseName, approach, op, direction).set(boundary[direction]);
      }
    },
  };
}

module.exports = { createTransferMetrics, METRIC };
