'use strict';
// The transfer workload of the wasm-transfer experiment (docs/experiments/wasm-transfer.md): a spec transfer case moved
// between JS and C++/WASM by one of the approaches (approaches.js), op by op. An op is a round trip (the value in, C++
// builds its Value tree and writes it back), a count (the value in, C++ walks its tree and returns the node count) or a
// create (C++ generates the case and hands it to JS): the original's create/count measure beside the round trip. The
// ops run in slices of about yieldMs with a turn of the event loop between them, so a long run never holds the loop;
// each op is timed on its own (the original's avg / median / min / p95 come from those times). Generating the input,
// its references and checking the output happen outside the timed section.
const { performance } = require('node:perf_hooks');
const { createInputs, sha256 } = require('@lab/node-kit');
const { runControlled, controlFields } = require('@lab/node-kit/run-control');
const { runSlices, nextTurn, throwIfAborted } = require('@lab/loop-kit/slices');
const { TRANSFER_CASES } = require('@lab/payloads');
const { ALL_APPROACHES } = require('./approaches');
const { summarize } = require('./op-stats');
const { countNodes } = require('./nodes');
const { documentInput } = require('./document-input');

// Work in a slice is bounded in nodes as well as in time, like loop-kit's characters (slices.js): a slice does at most
// about yieldMs × SLICE_NODES_PER_MS nodes of ops (and always one op), whatever the clock says. The rate is above the
// fastest op measured (typed create of numbers_10000: 109 000 nodes a ms, 2026-11-26, 2-core Xeon), so here the time
// bound ends a slice first; the nodes are the bound that holds on any machine, the one the tests check.
const SLICE_NODES_PER_MS = 1 << 18;

/** The most ops one slice may do: yieldMs's nodes over an op's nodes, at least one. */
const maxSliceOps = (yieldMs, nodesPerOp) => Math.max(1, Math.floor((yieldMs * SLICE_NODES_PER_MS) / Math.max(nodesPerOp, 1)));

// Inputs cached at once (one per case and seed); the largest case is well under 1 MB as JS objects.
const CACHED_INPUTS = 32;

const OPS = ['roundtrip', 'count', 'create'];

// The iterations cap bounds how long a run takes, not how long the service stops answering: a run gives the loop a
// turn every yieldMs. The largest case (numbers_10000, about 105 KB of JSON) takes about 0.75 ms a json round trip,
// so a run at the cap does about 7.5 s of them; the per-op times it keeps are 80 KB. Memory stays flat at any count
// (docs/findings/wasm-runner.md has the figures).
const PARAMS = {
  op: { default: 'roundtrip', values: OPS },
  case: { default: 'flat_small', values: TRANSFER_CASES },
  seed: { default: 1, min: 0, max: 2147483647 },
  iterations: { default: 100, min: 1, max: 10000 },
  yieldMs: { default: 5, min: 1, max: 1000 },
  // A user's own document in place of the case and seed: the sha256 PUT /documents answered ('': none).
  document: { default: '', pattern: '[0-9a-f]{64}' },
};

/** The op as a function of nothing: over the input (roundtrip, count), the case itself or the document's tree (create). */
function opOf(approach, op, wasm, input, spec) {
  if (approach.sliced) return slicedOpOf(approach, op, input, spec);
  if (op === 'roundtrip') return () => approach.roundTrip(wasm, input);
  if (op === 'count') return () => approach.count(wasm, input);
  if (spec.treeId !== undefined) return () => approach.createDocument(wasm, spec.treeId);
  return () => approach.create(wasm, spec.case, spec.seed);
}

/** The op of a sliced approach (approaches.js' SLICED_APPROACHES) as a function of its options: a promise. */
function slicedOpOf(approach, op, input, spec) {
  if (op === 'roundtrip') return (options) => approach.roundTrip(input, options);
  if (op === 'count') return (options) => approach.count(input, options);
  if (spec.treeId !== undefined) return (options) => approach.createDocument(spec.treeId, options);
  return (options) => approach.create(spec.case, spec.seed, options);
}

/**
 * `iterations` ops of a sliced approach, one after the other: each op gives the loop its own turns (bounded in work
 * units by the approach) and the run one more between ops, so nothing here holds the loop longer than an op's slice.
 * Each op is timed from its start to its answer, turns included: what a caller waits for. The last op asks for the
 * hash of the tree C++ built (taken where the approach's C++ ran). progress as slicedOps'.
 */
async function awaitedOps(runOp, { iterations, yieldMs }, signal, progress) {
  while (progress.done < iterations) {
    const hashTree = progress.done === iterations - 1;
    const started = process.hrtime.bigint();
    progress.last = await runOp({ yieldMs, signal, stats: progress, hashTree });
    progress.times[progress.done++] = Number(process.hrtime.bigint() - started) / 1e6;
    if (hashTree) progress.treeHash = progress.last.treeHash;
    else {
      await nextTurn();
      progress.yields++;
      throwIfAborted(signal);
    }
  }
  return progress.treeHash;
}

/**
 * `iterations` ops in loop-kit's slice loop: each slice does at least one op, and more until yieldMs has passed since
 * it started or it did maxOps (maxSliceOps); between slices the loop gets a turn, and an aborted signal stops the run there (it throws the signal's
 * reason). progress {times, done, yields, last, treeHash} is kept up to date as it goes (times: each op's ms; last:
 * the last op's answer), so it also describes an interrupted run. The hash of the Value tree the last op built is
 * read in the same slice, before anything else can run (runs in flight together share the module).
 */
async function slicedOps(runOp, wasm, { iterations, yieldMs }, maxOps, signal, progress) {
  const step = (deadline) => {
    const sliceEnd = Math.min(iterations, progress.done + maxOps);
    do {
      const started = process.hrtime.bigint();
      progress.last = runOp();
      progress.times[progress.done++] = Number(process.hrtime.bigint() - started) / 1e6;
    } while (progress.done < sliceEnd && performance.now() < deadline);
    if (progress.done < iterations) return false;
    progress.treeHash = wasm.treeHash();
    return true;
  };
  await runSlices(step, { yieldMs, signal, stats: progress });
  return progress.treeHash;
}

/**
 * What the last op's answer must equal, and what it does: {hash, bytes} of its JSON text (the value that came back
 * for roundtrip and create; the count's decimal text for count) and {hash, reference} expected (for count, the
 * input's node count, `nodes`).
 */
async function checkAnswer(op, last, nodes, expected) {
  if (op === 'count') {
    const text = String(last.count);
    return { hash: sha256(text), bytes: text.length, expected: { hash: sha256(String(nodes)), reference: 'node-count' } };
  }
  const text = JSON.stringify(last.value);
  return { hash: sha256(text), bytes: Buffer.byteLength(text), expected: await expected() };
}

/**
 * The workload definition for node-kit's createService. wasm: a loaded WasmModule (lib/wasm-module.js). Options:
 * metrics (transfer-metrics.js's, observed for every validated run), approaches (default approaches.js's; the tests
 * pass ones that answer wrongly), documents (node-kit's store of users' documents) with documentRuns {worker, memory,
 * values} (lib/documents/document-worker.js, run-memory.js, document-values.js: what a run on one needs,
 * document-input.js).
 */
function createTransferWorkload(wasm, { metrics = null, approaches = ALL_APPROACHES, documents = null, documentRuns = {} } = {}) {
  const inputs = createInputs(CACHED_INPUTS);

  /** {spec, input, nodes, referenceTree, expected() -> Promise<{hash, reference}>, release()} of a run's parameters. */
  async function runInput(approach, params) {
    if (params.document) { // else '' (the default), or left out by a caller in the tests: a transfer case
      const service = Object.assign({ documents, wasm }, documentRuns);
      const held = await documentInput(service, { approach, sliced: approaches[approach].sliced === true ? approaches[approach] : null, op: params.op, sha256: params.document, approaches: Object.keys(approaches), yieldMs: params.yieldMs });
      return { spec: { case: 'document', treeId: held.treeId }, input: held.value, nodes: held.nodes, referenceTree: held.referenceTree, expected: async () => held.expected, release: held.release };
    }
    const spec = { document: 'transfer', seed: params.seed, case: params.case };
    const input = await inputs.input(spec);
    return { spec, input, nodes: countNodes(input), referenceTree: wasm.referenceTreeHash(spec.case, spec.seed), expected: () => inputs.reference(spec), release: () => {} };
  }

  /** The timed ops of one run on its input (runInput's), their validation and the answer. */
  async function runOn(approach, params, { signal: clientSignal } = {}, { spec, input, nodes, referenceTree, expected }) {
    const runOp = opOf(approaches[approach], params.op, wasm, input, spec);
    // create makes the case itself, the same value as the input: every op handles the input's nodes.
    const maxOps = maxSliceOps(params.yieldMs, nodes);

    const progress = { times: new Float64Array(params.iterations), done: 0, yields: 0, last: null };
    const sliced = approaches[approach].sliced === true;
    const run = await runControlled(
      (signal) => (sliced ? awaitedOps(runOp, params, signal, progress) : slicedOps(runOp, wasm, params, maxOps, signal, progress)),
      { timeoutMs: 0, clientSignal }, // no deadline: the run stops early only when its client goes away
    );
    const treeHash = run.timing.interrupted ? null : run.value;
    const answer = treeHash === null ? null : await checkAnswer(params.op, progress.last, nodes, expected);
    let ms = 0;
    for (let i = 0; i < progress.done; i++) ms += progress.times[i];
    const validated = answer !== null && answer.hash === answer.expected.hash && treeHash === referenceTree;
    const boundaryBytes = progress.last ? { in: progress.last.inBytes, out: progress.last.outBytes } : null;
    if (validated && metrics) {
      metrics.observeRun({ caseName: spec.case, approach, op: params.op, times: progress.times, count: progress.done, boundary: boundaryBytes });
    }
    const result = {
      ms,
      bytes: answer ? answer.bytes : null,
      hash: answer ? answer.hash : null,
      validated,
      reference: answer ? answer.expected.reference : null,
      treeHash,
      iterations: progress.done,
      msPerOp: progress.done > 0 ? ms / progress.done : null,
      stats: summarize(progress.times, progress.done),
      boundaryBytes,
      yields: progress.yields,
    };
    return Object.assign(result, controlFields(run));
  }

  return {
    approaches: Object.keys(approaches),
    params: PARAMS,
    // The metrics `case` label: the case (or `document`) for round trips, `<op>:<case>` for the tree operations (45
    // values at most).
    caseOf: (params) => {
      const caseName = params.document ? 'document' : params.case;
      return params.op === 'roundtrip' ? caseName : `${params.op}:${caseName}`;
    },
    async run({ approach, params }, options = {}) {
      const { release, ...input } = await runInput(approach, params);
      try {
        return await runOn(approach, params, options, input);
      } finally {
        release();
      }
    },
  };
}

module.exports = { createTransferWorkload, maxSliceOps, SLICE_NODES_PER_MS, TRANSFER_PARAMS: PARAMS, OPS };
