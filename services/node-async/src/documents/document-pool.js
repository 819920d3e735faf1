'use strict';
// The pool that runs the `worker` approaches of stringify and parse (piscina), apart from worker-offload's: its own
// threads, so that a 20 MB document never waits behind process-data requests and the reverse. The threads start with
// the first task and stop at close(); a task after close() starts them again (tests make several services in one
// process).
const path = require('node:path');
const Piscina = require('piscina');
const { busy } = require('@lab/node-kit');

const WORKER_FILE = path.join(__dirname, 'document-worker.js');
const SETTINGS = {
  // One thread: a document run is a whole core's work for its duration; the service's main thread needs the other.
  workers: { env: 'DOCUMENT_WORKERS', default: 1, min: 1, max: 16 },
  // Each queued task holds a reference to its text or value (no copy until it is posted), so the bound is about
  // waiting, not memory: eight 20 MB runs queued are over a second of waiting behind one thread.
  maxQueue: { env: 'DOCUMENT_MAX_QUEUE', default: 8, min: 0, max: 1024 },
};

/** {workers, maxQueue} from the environment, overrides on top; throws a TypeError naming the setting and its range. */
function documentPoolSettings(overrides = {}, env = process.env) {
  const settings = {};
  for (const [name, spec] of Object.entries(SETTINGS)) {
    const given = name in overrides ? overrides[name] : env[spec.env] === undefined || env[spec.env] === '' ? spec.default : Number(env[spec.env]);
    if (!Number.isSafeInteger(given) || given < spec.min || given > spec.max) {
      throw new TypeError(`${spec.env} must be an integer from ${spec.min} to ${spec.max} (got ${name in overrides ? overrides[name] : env[spec.env]})`);
    }
    settings[name] = given;
  }
  return settings;
}

/**
 * settings: documentPoolSettings(). Returns {settings, run(name, input, signal) -> Promise, running (tasks queued or
 * running), threads (live worker threads), close()}. run rejects with 503 when every thread is busy and maxQueue tasks
 * wait; with the signal's abort, a queued task is dropped and a running one has its thread stopped (piscina replaces
 * it), so an abandoned 20 MB parse does not hold the thread.
 */
function createDocumentPool(settings) {
  let piscina = null;
  let running = 0;
  const capacity = settings.workers + settings.maxQueue;
  const started = () => {
    if (piscina === null) {
      piscina = new Piscina({ filename: WORKER_FILE, minThreads: settings.workers, maxThreads: settings.workers, idleTimeout: Infinity });
      piscina.on('error', (err) => console.error(`[documents] worker error outside a task: ${err.message}`));
    }
    return piscina;
  };

  async function run(name, input, signal) {
    // The queue is bounded here: piscina 5.3's maxQueue does not count tasks with an AbortSignal (offload/pool.js).
    if (running >= capacity) {
      throw busy(`all ${settings.workers} document workers are busy and ${settings.maxQueue} runs wait (DOCUMENT_WORKERS, DOCUMENT_MAX_QUEUE); retry later`, { workers: settings.workers, maxQueue: settings.maxQueue });
    }
    running++;
    try {
      return await started().run(input, signal ? { name, signal } : { name });
    } finally {
      running--;
    }
  }

  return {
    settings,
    run,
    get running() {
      return running;
    },
    get threads() {
      return piscina === null ? 0 : piscina.threads.length;
    },
    async close() {
      const closing = piscina;
      piscina = null;
      if (closing !== null) await closing.close({ force: true });
    },
  };
}

module.exports = { documentPoolSettings, createDocumentPool, SETTINGS };
