'use strict';
// The `stringify` workload of the fibers-to-async experiment, shared by node14-fibers and node-async: each passes the
// approaches its Node line can run (stringify-approaches.js). A run is timed from the first call until the approach's
// last chunk (with body=1: until the last byte went to the client), watched for event-loop blocks, bounded by
// timeoutMs, and hashed in slices afterwards, so checking the output never blocks the service longer than producing it
// did; until then the output is kept as its UTF-8 bytes outside V8's heap (kept-output.js says why).
const { runControlled, controlFields } = require('@lab/node-kit/run-control');
const { badRequest } = require('@lab/node-kit/errors');
const { createTextHash, hashBytes } = require('./text-hash');
const { writeText } = require('./sink-writer');
const { createKeptOutput } = require('./kept-output');
const fastParse = require('./fast-parse');
const { DOCUMENT_PARAMS, runInput, caseOf } = require('./document-params');
const { createValueCache, reserve, valueBytesOf, outputBytesOf } = require('./document-values');
const { resolveApproach } = require('@lab/node-kit/params');
const { withPlugins } = require('./serializer-plugins');
const approachesModule = require('./stringify-approaches');

const PARAMS = Object.assign({}, DOCUMENT_PARAMS, {
  body: { default: 0, min: 0, max: 1 }, // 1: stream the JSON to the client; the summary goes in a trailer
});

/**
 * approaches: {name: approach} in the shape of stringify-approaches.js; `native` is added first.
 * inputs: node-kit's createInputs, shared with the service's other workloads; documents: node-kit's store of users'
 * documents (or null); plugins: serializer-plugins.js' registry (or null), whose checked plugins join the approaches.
 */
function stringifyWorkload(approaches, inputs, documents, plugins) {
  const all = Object.assign({ native: approachesModule.native }, approaches);
  const { names, approachOf, isPlugin, unavailable } = withPlugins('stringify', all, plugins);
  const memory = documents ? documents.memory : null;
  const values = createValueCache(memory);

  /**
   * The value a run serializes and what it holds of the heap until release(): a user's document's (the cached one,
   * and room for its output), or the generated one. A plugin gets a value of its own, parsed again from the text, so
   * that one that changes its input changes nothing another run or the reference reads (issue 57).
   */
  async function valueFor(approach, params, input) {
    const own = isPlugin(approach);
    if (!input.held) return { value: own ? await fastParse.parse(await inputs.text(input.spec), { yieldMs: params.yieldMs }) : await inputs.input(input.spec), release: () => {} };
    const output = reserve(memory, outputBytesOf(input.held) + (own ? valueBytesOf(input.held) : 0), `a stringify run of ${approach} on the stored document`);
    try {
      if (own) return { value: await fastParse.parse(input.held.text, { yieldMs: params.yieldMs }), release: output };
      const lease = await values.lease(input.held, params.yieldMs);
      return {
        value: lease.value,
        release: () => {
          lease.release();
          output();
        },
      };
    } catch (err) {
      output();
      throw err;
    }
  }

  const workload = {
    get approaches() {
      return names();
    },
    approachOf,
    unavailable,
    params: PARAMS,
    caseOf,
    checkParams: refuseStreamedDocument,
    streams: (params) => params.body === 1,
    async run({ approach, params }, options = {}) {
      const input = runInput(params, inputs, documents);
      const releases = input.held ? [input.held.release] : []; // what the run holds, let go last first
      try {
        const stringify = resolveApproach(workload, approach);
        const { value, release } = await valueFor(approach, params, input);
        releases.unshift(release);
        // An approach may have to wait for its turn first (yieldable: stringify-approaches.js), untimed.
        if (stringify.admit) releases.unshift(await stringify.admit({ signal: options.signal }));
        return await stringifyRun(stringify, value, await input.reference, params, options);
      } finally {
        for (const release of releases) release();
      }
    },
  };
  return workload;
}

/**
 * A user's document is never sent back (CONTRACT.md): body=1 streams what the approach writes, which for a stored
 * document is the document, so the two do not go together.
 */
function refuseStreamedDocument(params) {
  if (params.body === 1 && params.document !== '') {
    throw badRequest('body=1 would send the stored document back, and a document is never sent back: run it without body', { parameter: 'body', allowed: [0] });
  }
}

/** One timed run of approach on value, its output checked against expected ({hash, reference}). */
async function stringifyRun(approach, value, expected, params, { signal: clientSignal, sink, stalledClientTimeoutMs = 0 } = {}) {
  const stats = { yields: 0 };
  const streamed = sink ? createTextHash({ yieldMs: params.yieldMs }) : null;
  const produced = sink ? null : createKeptOutput();
  let run;
  let output;
  try {
    run = await runControlled(async (signal) => {
      for await (const chunk of approach(value, { yieldMs: params.yieldMs, signal, stats })) {
        if (sink) {
          await writeText(sink, chunk, signal, stalledClientTimeoutMs);
          await streamed.add(chunk);
        } else {
          produced.add(chunk);
        }
      }
    }, { timeoutMs: params.timeoutMs, clientSignal });
    output = run.timing.interrupted ? null : streamed ? streamed.digest() : await hashBytes(produced.take(), { yieldMs: params.yieldMs });
  } finally {
    if (produced) produced.release();
  }
  const result = {
    ms: run.timing.ms,
    bytes: output ? output.bytes : null,
    hash: output ? output.hash : null,
    validated: output !== null && output.hash === expected.hash,
    reference: expected.reference,
    yields: stats.yields,
  };
  return Object.assign(result, controlFields(run));
}

module.exports = { stringifyWorkload, PARAMS };
