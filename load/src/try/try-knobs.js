'use strict';
// What would move an approach's block, said when nothing is under the limit (try-choice.js): the parameter of the
// service that bounds the work an approach does between two turns of its event loop. A service's /info lists each
// workload's parameters (name, default, bounds) but not which approaches read them, so BLOCK_KNOBS says that, and a
// knob is named only where the service's /info lists the parameter: none is made up for a service that lacks it.
// Left out on purpose:
// - native and yieldable-json take no such parameter (one synchronous call; yieldable-json yields on its own schedule);
// - the `sync-chunks` csv approaches (memory, sync, sync-composed) never give the loop a turn
//   (csv-parsers/README.md), whatever the chunk;
// - wasm-runner's transfer approaches but `worker`: their yieldMs ends a slice of ops, and the try suite runs one op a
//   request (try-suite.js), one synchronous call; `worker`'s yieldMs bounds the slices inside its one op;
// - the JVM's serde: it has no event loop, and no parameter bounds what its probe's p99 stands in for;
// - node-async's `worker` (stringify, parse): its block is the copy of the whole value between the threads
//   (services/node-async/README.md, "worker"), which no parameter bounds; `worker-pieces` reads yieldMs between the
//   pieces it rebuilds, but the text it hands over is one copy.
// wasm-runner's `worker` is the one transfer approach whose C++ runs on a worker thread; node-async's `worker` runs
// native JSON on one (src/documents/).

// workload -> the /info parameter that bounds an approach's slice, what it means, and the approaches that read it.
const BLOCK_KNOBS = {
  stringify: { param: 'yieldMs', means: 'how long it runs before giving the event loop a turn', approaches: ['fast', 'json-ext', 'async', 'fiber'] },
  parse: { param: 'yieldMs', means: 'how long it runs before giving the event loop a turn', approaches: ['fast', 'json-ext', 'worker-pieces'] },
  transfer: { param: 'yieldMs', means: 'how long its main-thread part of an op runs before giving the event loop a turn', approaches: ['worker'] },
  csv: {
    param: 'chunkChars',
    means: 'how many characters it parses between turns of the event loop',
    approaches: ['async-of-sync', 'transpiled-asyncish', 'async', 'transpiled-async', 'async-composed', 'csv-parse', 'fast'],
  },
};

/**
 * The knob of each approach of workload on a service (info: its /info): [{approach, param, means, default, min}],
 * param null where nothing the service lists moves the approach's block; [] without the /info.
 */
function knobsOf(info, workload, approaches) {
  if (!info) return []; // nothing known of the service: nothing said
  const knob = BLOCK_KNOBS[workload];
  const entry = info && info.workloads && info.workloads[workload];
  const param = knob && entry && entry.params ? entry.params[knob.param] : undefined;
  return approaches.map((approach) => {
    if (!param || !knob.approaches.includes(approach)) return { approach, param: null };
    return { approach, param: knob.param, means: knob.means, default: param.default, min: param.min };
  });
}

/** 'a', 'a and b', 'a, b and c'. */
const listWords = (names) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/** The knobs (knobsOf's) of target's approaches in words: each parameter with the approaches it moves, then the rest. */
function knobWords(knobs, target) {
  const byParam = new Map();
  for (const k of knobs) {
    if (!byParam.has(k.param)) byParam.set(k.param, []);
    byParam.get(k.param).push(k);
  }
  const parts = [...byParam].filter(([param]) => param !== null).map(([param, ks]) => `${param} for ${listWords(ks.map((k) => k.approach))} (${ks[0].means}; ${ks[0].default} by default, ${ks[0].min} at least)`);
  const none = byParam.get(null);
  if (none) parts.push(`none of ${target}'s parameters for ${listWords(none.map((k) => k.approach))}`);
  return parts.join(', ');
}

module.exports = { knobsOf, knobWords, BLOCK_KNOBS };
