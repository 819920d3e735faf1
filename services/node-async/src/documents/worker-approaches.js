'use strict';
// The `worker` approach of stringify and parse: native JSON.parse / JSON.stringify on a thread of the documents pool
// (document-pool.js, document-worker.js), in the shapes of js-serializers' parse-approaches.js and
// stringify-approaches.js. The main thread does not parse or serialize JSON, but it still copies the document across,
// synchronously, inside the run's loop watch: stringify serializes the whole value (v8.serialize, the structured
// clone's work) before posting it and receives the text; parse posts the text and deserializes the whole value
// (v8.deserialize) when it comes back. Those copies are the main thread's block (README, "worker").
//
// stats.yields is 1: the main thread gives the loop one turn, the whole time the worker runs, between its two copies.
// The signal (deadline, client gone) drops a queued task and stops a running one's thread.
//
// `worker-pieces` (parse) bounds the block back: the worker cuts the value into pieces of bounded weight
// (value-pieces.js) and the main thread deserializes them one by one, a turn of the loop whenever yieldMs passed.
const v8 = require('node:v8');
const Piscina = require('piscina');
const { assembleValue } = require('./value-pieces');

/** {stringify, parse, parsePieces} approaches running on pool (document-pool.js' createDocumentPool). */
function workerApproaches(pool) {
  async function* workerStringify(value, { signal, stats }) {
    stats.yields = 0;
    const buffer = v8.serialize(value); // the main thread's block out: the whole value
    stats.yields = 1;
    const text = await pool.run('stringify', Piscina.move(buffer), signal);
    if (text !== undefined) yield text;
  }
  async function workerParse(text, { signal, stats }) {
    stats.yields = 1;
    const buffer = await pool.run('parse', text, signal);
    return v8.deserialize(buffer); // the main thread's block back: the whole value
  }
  async function workerParsePieces(text, { yieldMs, signal, stats }) {
    stats.yields = 1;
    return assembleValue(await pool.run('parsePieces', text, signal), { yieldMs, signal, stats });
  }
  return { stringify: workerStringify, parse: workerParse, parsePieces: workerParsePieces };
}

module.exports = { workerApproaches };
