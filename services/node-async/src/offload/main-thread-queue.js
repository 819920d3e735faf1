'use strict';
// The unoptimized route's queue. Its work runs on the main thread by design (blocking the event loop is what the
// worker-offload experiment measures), but no longer straight from the handler: there, every request read while the
// loop was blocked ran one after another in the same turn, before the close of any client could be seen, so 12 maximal
// requests whose clients had left after 1 s still held the service for 16.5 s, all counted "ok". Here tasks run one per
// turn of the loop (setImmediate), so the closes that arrived meanwhile are read between two tasks, and a task whose
// client is gone is dropped at its turn instead of run. The queue is bounded like the pool's.
const { HttpError, busy } = require('@lab/node-kit');

/** Whether the answer can no longer reach the client: its connection closed, or half-closed (Node then ends it). */
const clientGone = (res) => res.destroyed || !res.socket || res.socket.destroyed || !res.socket.writable;

/**
 * {maxQueue} -> {run(res, work) -> Promise<work()'s value>, length}. run rejects with 503 (outcome "queue-full") when
 * maxQueue tasks are waiting, and with 499 (outcome "interrupted") when the client of `res` is gone at the task's
 * turn; work() then never runs.
 */
function createMainThreadQueue({ maxQueue }) {
  const waiting = [];

  function runNext() {
    const task = waiting.shift();
    if (waiting.length > 0) setImmediate(runNext); // the next turn: after the poll phase reads what came meanwhile
    if (clientGone(task.res)) {
      const gone = new HttpError(499, 'the client went away before its task started');
      gone.outcome = 'interrupted';
      task.reject(gone);
      return;
    }
    try {
      task.resolve(task.work());
    } catch (err) {
      task.reject(err);
    }
  }

  return {
    run(res, work) {
      if (waiting.length >= maxQueue) {
        const full = busy(`${maxQueue} tasks are waiting for the main thread (UNOPTIMIZED_MAX_QUEUE); retry later`, { maxQueue });
        full.outcome = 'queue-full';
        return Promise.reject(full);
      }
      return new Promise((resolve, reject) => {
        waiting.push({ res, work, resolve, reject });
        // An idle queue starts its first task a turn later than it could: Node reads a close that came with the
        // request one poll after the request itself, so a client that sent and left at once is seen too.
        if (waiting.length === 1) setImmediate(() => setImmediate(runNext));
      });
    },
    /** Tasks waiting for their turn. */
    get length() {
      return waiting.length;
    },
  };
}

module.exports = { createMainThreadQueue };
