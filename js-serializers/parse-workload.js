'use strict';
// The `parse` workload: the same documents as `stringify` (generated, or a user's own as sent), parsed from their text. A run is timed from
// the call until the value is complete, watched for event-loop blocks and bounded by timeoutMs. The value is then
// checked by serializing it again with fast-stringify (byte-identical to JSON.stringify, and non-blocking) and
// hashing that in slices: it must hash like the reference text.
const { runControlled, controlFields } = require('@lab/node-kit/run-control');
const { hashText } = require('./text-hash');
const fastStringify = require('./fast-stringify');
const { DOCUMENT_PARAMS, runInput, caseOf } = require('./document-params');
const { reserve, valueBytesOf } = require('./document-values');
const { resolveApproach } = require('@lab/node-kit/params');
const { withPlugins } = require('./serializer-plugins');
const approachesModule = require('./parse-approaches');

const PARAMS = DOCUMENT_PARAMS;

/**
 * approaches: {name: approach} in the shape of parse-approaches.js; `native` is added first.
 * inputs: node-kit's createInputs, shared with the service's other workloads; documents: node-kit's store of users'
 * documents (or null); plugins: serializer-plugins.js' registry (or null), whose checked plugins join the approaches.
 */
function parseWorkload(approaches, inputs, documents, plugins) {
  const all = Object.assign({ native: approachesModule.native }, approaches);
  const textBytes = new Map(); // the UTF-8 length of each generated text, measured once (a few entries: cleared past 64)
  const generatedText = async (spec) => {
    const text = await inputs.text(spec);
    const key = `${spec.seed}/${spec.size}`;
    if (!textBytes.has(key)) {
      if (textBytes.size >= 64) textBytes.clear();
      textBytes.set(key, Buffer.byteLength(text, 'utf8'));
    }
    return { text, bytes: textBytes.get(key) };
  };
  const { names, approachOf, unavailable } = withPlugins('parse', all, plugins);
  const workload = {
    get approaches() {
      return names();
    },
    approachOf,
    unavailable,
    params: PARAMS,
    caseOf,
    async run({ approach, params }, { signal: clientSignal } = {}) {
      const input = runInput(params, inputs, documents);
      const releases = input.held ? [input.held.release] : []; // what the run holds, let go last first
      try {
        // A run on a stored document holds the value it makes until it is checked.
        if (input.held) releases.unshift(reserve(documents.memory, valueBytesOf(input.held), `a parse run of ${approach} on the stored document`));
        const { text, bytes } = input.held ? input.held : await generatedText(input.spec);
        const expected = await input.reference;
        const stats = { yields: 0 };
        const parse = resolveApproach(workload, approach);
        // An approach may refuse the document or wait for its turn first (yieldable: parse-approaches.js), untimed.
        const endTurn = parse.admit ? await parse.admit({ check: input.held ? input.held.check : null, signal: clientSignal, allowed: names().filter((n) => n !== approach) }) : () => {};
        releases.unshift(endTurn);
        const run = await runControlled((signal) => parse(text, { yieldMs: params.yieldMs, signal, stats }), { timeoutMs: params.timeoutMs, clientSignal });
        endTurn(); // the turn ends with the timed section: checking the value needs none
        const check = run.timing.interrupted ? null : await hashText(fastStringify.chunks(run.value, { yieldMs: params.yieldMs }), { yieldMs: params.yieldMs });
        const result = {
          ms: run.timing.ms,
          bytes,
          hash: check ? check.hash : null,
          validated: check !== null && check.hash === expected.hash,
          reference: expected.reference,
          yields: stats.yields,
        };
        return Object.assign(result, controlFields(run));
      } finally {
        for (const release of releases) release();
      }
    },
  };
  return workload;
}

module.exports = { parseWorkload, PARAMS };
