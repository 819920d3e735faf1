'use strict';
// The `worker` approach of stringify and parse: native JSON.parse / JSON.stringify on a thread of the documents pool
// (document-pool.js), in the shapes of js-serializers' parse-approaches.js and stringify-approaches.js. The main thread
// does not parse or serialize, but it still copies: posting a task serializes its input (structured clone) and
// receiving the answer deserializes it, both synchronously on the main thread, where the run's loop watch sees them.
// So parse blocks for the copy of the text out and of the whole value back (about as long as a JSON.parse of it:
// README's figures), stringify for the clone of the value out and the copy of the text back.
//
// stats.yields is 1: the main thread gives the loop one turn, the whole time the worker runs, between its two copies.
// The signal (deadline, client gone) drops a queued task and stops a running one's thread.

/** {stringify, parse} approaches running on pool (document-pool.js' createDocumentPool). */
function workerApproaches(pool) {
  async function* workerStringify(value, { signal, stats }) {
    stats.yields = 1;
    const text = await pool.run('stringify', value, signal);
    if (text !== undefined) yield text;
  }
  function workerParse(text, { signal, stats }) {
    stats.yields = 1;
    return pool.run('parse', text, signal);
  }
  return { stringify: workerStringify, parse: workerParse };
}

module.exports = { workerApproaches };
