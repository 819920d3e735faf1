'use strict';
// Serializer plugins (plugins/README.md): every module in the folder SERIALIZER_PLUGINS_DIR names becomes an approach
// of the stringify and parse workloads once the conformance corpus, run on it at start (plugin-check.js), found no
// departure from native. Until then it is listed in /info's `plugins` as checking; a plugin that cannot be loaded,
// whose name is taken, or that departs from native is listed as failing with why, and a /run naming it is refused
// with that reason. Nothing a plugin does at load stops the service. Node 14 syntax.
const fs = require('fs');
const path = require('path');
const { envInteger } = require('@lab/node-kit');
const { badRequest, busy } = require('@lab/node-kit/errors');
const { loadPlugin, defaultName, describeError } = require('./serializer-plugin');
const { checkPlugin } = require('./plugin-check');
const { guardPlugin } = require('./plugin-guard');
const { WORK_BUDGET } = require('./conformance/conformance');

// A plugin as fast as native passes both corpora in about 25 s on Node 14 and 17 s on Node 24 (2-core Xeon); one
// case still running after the corpus' own 8 s is a departure ("did not finish"), so this cap is for a plugin that
// blocks its thread, which no timer inside that thread can end.
const DEFAULT_CHECK_TIMEOUT_MS = 300000;
// A client retrying a run of a plugin still being checked waits this long first.
const RETRY_AFTER_SECONDS = 5;
// How long past its slice (yieldMs) a plugin has to stop once its run's signal aborted, before the run ends without
// it (plugin-guard.js): many times the slice a plugin is asked to keep.
const DEFAULT_ABORT_GRACE_MS = 2000;

/** The settings from the environment: the folder (empty: no plugins; relative: to the working directory), the cap. */
function pluginSettings() {
  const dir = process.env.SERIALIZER_PLUGINS_DIR || '';
  return {
    dir: dir === '' ? '' : path.resolve(dir),
    checkTimeoutMs: envInteger('SERIALIZER_PLUGIN_CHECK_TIMEOUT_MS', DEFAULT_CHECK_TIMEOUT_MS),
    abortGraceMs: envInteger('SERIALIZER_PLUGIN_ABORT_GRACE_MS', DEFAULT_ABORT_GRACE_MS),
    // A case is cut off by work, not by the clock (conformance.js): this many times native's CPU time on it.
    caseWorkBudget: WORK_BUDGET,
  };
}

/** The plugins in dir, in name order: each folder (a package or index.js) and each .js file; dot-files left out. */
function sourcesIn(dir) {
  return fs.readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || (entry.isFile() && entry.name.endsWith('.js'))))
    .map((entry) => path.join(dir, entry.name))
    .sort();
}

/**
 * settings: pluginSettings(), or the same shape (tests). approaches: the service's own {stringify, parse} approaches
 * (with native, their names are taken). Loads every plugin now and checks them one after another in the background.
 * Returns {names(workload), approach(workload, name) (of a name names() lists), unavailable(workload, name, allowed),
 * info(), settled, close()}.
 */
function serializerPlugins(settings, approaches, log = (line) => console.error(`[plugins] ${line}`)) {
  const builtIn = new Set(['native'].concat(Object.keys(approaches.stringify || {}), Object.keys(approaches.parse || {})));
  const plugins = [];
  let dirError = null;
  if (settings.dir !== '') {
    let sources = [];
    try {
      sources = sourcesIn(settings.dir);
    } catch (error) {
      dirError = `cannot read ${settings.dir}: ${describeError(error)}`;
      log(dirError);
    }
    for (const source of sources) plugins.push(load(source, builtIn, plugins, log));
  }
  // What a plugin does wrong at run time marks it failing for both workloads: it is refused from then on.
  const guards = plugins.filter((p) => !p.why).map((plugin) => {
    const mark = (why) => {
      if (plugin.why) return;
      plugin.why = why;
      log(`${plugin.name}: failing: ${why}`);
    };
    const guard = guardPlugin(plugin.source, mark, settings.abortGraceMs === undefined ? DEFAULT_ABORT_GRACE_MS : settings.abortGraceMs);
    for (const workload of Object.keys(plugin.approaches)) plugin.approaches[workload] = guard.wrap(workload, plugin.approaches[workload]);
    return guard;
  });
  let closed = false;
  let stopCurrent = null;
  const runCheck = (plugin, workload) => {
    const status = plugin.workloads[workload];
    if (closed) return Object.assign(status, { state: 'failing', case: null, why: 'the service closed before the check started' });
    const check = checkPlugin(plugin.source, workload, {
      timeoutMs: settings.checkTimeoutMs,
      onCase: (at) => Object.assign(status, { case: at.case, checked: at.index, of: at.of }),
    });
    stopCurrent = check.stop;
    return check.verdict.then((verdict) => {
      stopCurrent = null;
      plugin.workloads[workload] = verdict;
      log(`${plugin.name} ${workload}: ${verdict.state === 'ok' ? `passed ${verdict.cases} conformance cases` : `failing${verdict.case === null ? '' : ` at case "${verdict.case}"`}: ${verdict.why}`}`);
    });
  };
  // One check at a time: the service runs beside them, on cores it shares.
  let settled = Promise.resolve();
  for (const plugin of plugins) {
    for (const workload of Object.keys(plugin.workloads)) settled = settled.then(() => runCheck(plugin, workload));
  }

  const usable = (workload) => plugins.filter((p) => !p.why && p.workloads[workload] && p.workloads[workload].state === 'ok');
  return {
    names: (workload) => usable(workload).map((p) => p.name),
    // A usable plugin's approach (params.js' resolveApproach has just found the name among names(workload)).
    approach: (workload, name) => usable(workload).find((p) => p.name === name).approaches[workload],
    unavailable: (workload, name, allowed) => refusal(plugins.filter((p) => p.name === name), workload, allowed),
    info: () => ({
      dir: settings.dir === '' ? null : settings.dir,
      error: dirError,
      checkTimeoutMs: settings.checkTimeoutMs,
      abortGraceMs: settings.abortGraceMs,
      caseWorkBudget: settings.caseWorkBudget,
      plugins: plugins.map(describe),
    }),
    settled,
    close() {
      closed = true;
      if (stopCurrent) stopCurrent();
      for (const guard of guards) guard.close();
      return settled;
    },
  };
}

/**
 * A workload's approaches with the plugins': all ({name: approach}, the built-in ones) and plugins (the registry, or
 * null) -> {names() (built-in first, then the checked plugins), approachOf(name) and unavailable(name) (what
 * node-kit's resolveApproach asks, which is what decides), isPlugin(name)}.
 */
function withPlugins(workload, all, plugins) {
  const builtIn = Object.keys(all);
  const names = () => (plugins ? builtIn.concat(plugins.names(workload)) : builtIn);
  const isPlugin = (name) => !Object.prototype.hasOwnProperty.call(all, name);
  return {
    names,
    isPlugin,
    approachOf: (name) => (isPlugin(name) ? plugins.approach(workload, name) : all[name]),
    unavailable: (name) => (plugins ? plugins.unavailable(workload, name, names()) : null),
  };
}

/** One plugin: {name, source, why (it cannot be used) | approaches with workloads: {workload: status}}. */
function load(source, builtIn, loaded, log) {
  let plugin;
  try {
    plugin = Object.assign({ source }, loadPlugin(source));
  } catch (error) {
    plugin = { name: defaultName(source), source, why: error.message };
  }
  if (!plugin.why && builtIn.has(plugin.name)) plugin.why = `name "${plugin.name}" is taken by a built-in approach`;
  const first = loaded.find((p) => p.name === plugin.name && !p.why);
  if (!plugin.why && first) plugin.why = `name "${plugin.name}" is taken by the plugin at ${first.source}`;
  if (plugin.why) {
    log(`${source}: failing: ${plugin.why}`);
    return { name: plugin.name, source, why: plugin.why, workloads: {} };
  }
  plugin.workloads = Object.fromEntries(Object.keys(plugin.approaches).map((w) => [w, { state: 'checking', case: null }]));
  log(`${source}: ${plugin.name}, checking ${Object.keys(plugin.approaches).join(' and ')} against the conformance corpus`);
  return plugin;
}

/** A plugin as /info lists it; `state` sums up its workloads' (failing, else checking, else ok). */
function describe(plugin) {
  const states = Object.keys(plugin.workloads).map((w) => plugin.workloads[w].state);
  const state = plugin.why || states.includes('failing') ? 'failing' : states.includes('checking') ? 'checking' : 'ok';
  const entry = { name: plugin.name, source: plugin.source, state };
  if (plugin.why) entry.why = plugin.why;
  entry.workloads = plugin.workloads;
  return entry;
}

/** The answer to a run naming a plugin that is not among the approaches (null: no plugin has that name). */
function refusal(named, workload, allowed) {
  const plugin = named.find((p) => !p.why && p.workloads[workload]) || named[0];
  if (!plugin) return null;
  const what = `approach ${plugin.name} is the serializer plugin ${plugin.source}`;
  const details = { parameter: 'approach', allowed };
  if (plugin.why) return badRequest(`${what}, which cannot be used: ${plugin.why}`, details);
  const status = plugin.workloads[workload];
  if (!status) return badRequest(`${what}, which has no ${workload}`, details);
  if (status.state === 'checking') {
    return busy(`${what}, still being checked against the conformance corpus; retry once /info lists it`, details, RETRY_AFTER_SECONDS);
  }
  return badRequest(`${what}, which departs from native ${workload} at conformance case "${status.case}": ${status.why}`, Object.assign({ case: status.case }, details));
}

module.exports = { serializerPlugins, pluginSettings, withPlugins, DEFAULT_CHECK_TIMEOUT_MS };
