'use strict';
// A serializer plugin's failure fails its run and marks the plugin, never the service (issue 57: a plugin that threw
// its abort signal's reason from a timer callback, as plugins/README.md asks but outside its promise, killed both Node
// services; one that left a rejection unhandled killed node-async; four that never settled held every run slot).
// Three things make that so:
// - what a plugin throws where no caller catches it (a timer callback, an unhandled rejection) is traced to the
//   plugin by the process' handlers: through AsyncLocalStorage where it costs nothing (Node 24 carries the context
//   in V8's continuation data; on earlier lines it enables async hooks for every promise, which would slow every
//   approach the plugin is measured beside), else by the error itself (the reason of a run's signal, or a stack
//   through the plugin's file). The plugin is marked failing and its run, still going, fails with that error;
//   anything traced to no plugin keeps Node's own meaning (the process exits; on Node 14 a rejection is a warning);
// - a run whose signal aborted ends abortGraceMs later whatever its plugin does, interrupted, so its slot is free;
//   a plugin that did not stop by then is marked failing;
// - the handlers are the process' only while a registry with plugins is open.
// Node 14 syntax.
const { AsyncLocalStorage } = require('async_hooks');
const { describeError } = require('./serializer-plugin');

const MAJOR = Number(process.versions.node.split('.')[0]);
// Node 24 made AsyncContextFrame AsyncLocalStorage's implementation (unless --no-async-context-frame).
const RUNS = MAJOR >= 24 && !process.execArgv.concat((process.env.NODE_OPTIONS || '').split(/\s+/)).includes('--no-async-context-frame') ? new AsyncLocalStorage() : null;
// Node 15 and later end the process on an unhandled rejection; Node 14 warns.
const REJECTIONS_END_THE_PROCESS = MAJOR >= 15;

const plugins = new Set(); // {source, mark(why)} of every guarded plugin
const reasons = new WeakMap(); // an aborted run's signal.reason -> its run
let listening = false;

/** The run (or, for a stack through its file, the plugin) a failure nobody caught comes from; null: none. */
function traceOf(error) {
  const run = RUNS && RUNS.getStore();
  if (run) return run;
  if (error !== null && (typeof error === 'object' || typeof error === 'function') && reasons.has(error)) return reasons.get(error);
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  for (const plugin of plugins) if (stack.includes(plugin.source)) return { plugin, fail: null, done: true };
  return null;
}

function blame(trace, why, error) {
  trace.plugin.mark(why);
  if (trace.fail && !trace.done) trace.fail(error);
}

function onUncaught(error) {
  const trace = traceOf(error);
  if (trace) return blame(trace, `threw outside its promise, where nothing could catch it (${describeError(error)})`, error);
  // Node's own answer to an uncaught exception, which this listener took the place of.
  console.error(`uncaught exception: ${error && error.stack ? error.stack : String(error)}`);
  return process.exit(1);
}

function onUnhandled(reason) {
  const trace = traceOf(reason);
  if (trace) return blame(trace, `left a promise rejection unhandled (${describeError(reason)})`, reason);
  if (REJECTIONS_END_THE_PROCESS) throw reason; // an uncaught exception now, as Node would have made it
  console.error(`unhandled promise rejection: ${reason && reason.stack ? reason.stack : String(reason)}`);
  return undefined;
}

function listen(on) {
  if (on === listening) return;
  listening = on;
  const method = on ? 'on' : 'removeListener';
  process[method]('uncaughtException', onUncaught);
  process[method]('unhandledRejection', onUnhandled);
}

/**
 * Guards the plugin at source: mark(why) makes it failing. abortGraceMs: how long after its signal aborted a run
 * waits for it. Returns {wrap(workload, approach) -> the approach guarded, close()}.
 */
function guardPlugin(source, mark, abortGraceMs) {
  const plugin = { source, mark };
  plugins.add(plugin);
  listen(true);

  /** One run: {failed (rejects when the run must end without the plugin), call(fn), end()}. */
  function start(signal, yieldMs) {
    const run = { plugin, fail: null, done: false };
    const failed = new Promise((resolve, reject) => {
      run.fail = reject;
    });
    failed.catch(() => {}); // raced against the plugin; no one else waits for it
    let timer = null;
    const onAbort = () => {
      if (signal.reason !== null && typeof signal.reason === 'object') reasons.set(signal.reason, run);
      timer = setTimeout(() => {
        if (run.done) return;
        mark(`did not stop within ${abortGraceMs + yieldMs} ms of its abort signal (a run's timeoutMs, or its client gone)`);
        run.fail(signal.reason);
      }, abortGraceMs + yieldMs);
    };
    if (signal && signal.aborted) onAbort();
    else if (signal) signal.addEventListener('abort', onAbort);
    return {
      failed,
      call: (fn) => (RUNS ? RUNS.run(run, fn) : fn()),
      end() {
        run.done = true;
        if (timer !== null) clearTimeout(timer);
        if (signal) signal.removeEventListener('abort', onAbort);
      },
    };
  }

  const wrappers = {
    stringify: (approach) => async function* guardedStringify(value, options) {
      const run = start(options.signal, options.yieldMs);
      try {
        const chunks = approach(value, options);
        for (;;) {
          const step = await Promise.race([run.call(() => chunks.next()), run.failed]);
          if (step.done) return;
          yield step.value;
        }
      } finally {
        run.end();
      }
    },
    parse: (approach) => async function guardedParse(text, options) {
      const run = start(options.signal, options.yieldMs);
      try {
        return await Promise.race([run.call(() => approach(text, options)), run.failed]);
      } finally {
        run.end();
      }
    },
  };

  return {
    wrap: (workload, approach) => wrappers[workload](approach),
    close() {
      plugins.delete(plugin);
      if (plugins.size === 0) listen(false);
    },
  };
}

module.exports = { guardPlugin };
