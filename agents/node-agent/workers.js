'use strict';
// The user's worker threads, watched for their event loops' busy time (worker.performance.eventLoopUtilization(), read
// from the main thread: Node 14.17+). Node keeps no list of a process's workers, so the agent replaces
// worker_threads.Worker with a subclass of it that registers each new instance and forgets it on exit, and calls
// module.syncBuiltinESMExports() so that `import { Worker } from 'worker_threads'` gets the subclass too. That is the
// agent's only change to the user's process: the subclass adds one 'exit' listener and nothing else. Workers made
// before the agent loaded (none, with --require) are not seen. Node 14 syntax.
const workerThreads = require('worker_threads');
const { syncBuiltinESMExports } = require('module');
const { LAB, LABEL } = require('./names');
const { family } = require('./exposition');

function watchWorkers() {
  const running = new Set();
  const Original = workerThreads.Worker;
  // Named Worker, so that the user's code and stack traces read what they always did.
  class Worker extends Original {
    constructor(...args) {
      super(...args);
      running.add(this);
      this.once('exit', () => running.delete(this));
    }
  }
  workerThreads.Worker = Worker;
  syncBuiltinESMExports();
  return {
    count: () => running.size,
    names: [LAB.workerBusy, LAB.workers],
    text() {
      const samples = [];
      for (const worker of running) {
        // A worker not yet online (threadId set, its loop not started) reads 0; performance is missing before 14.17.
        if (worker.performance) samples.push({ labels: { [LABEL.threadId]: worker.threadId }, value: worker.performance.eventLoopUtilization().active / 1000 });
      }
      return family(LAB.workerBusy, 'counter', "Seconds each worker thread's event loop was busy (worker.performance.eventLoopUtilization().active), by thread id", samples)
        + family(LAB.workers, 'gauge', 'Worker threads running in this process (made with worker_threads.Worker after the agent loaded)', [{ value: running.size }]);
    },
    stop() {
      workerThreads.Worker = Original;
      syncBuiltinESMExports();
    },
  };
}

module.exports = { watchWorkers };
