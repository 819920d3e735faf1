'use strict';
// What the report shows, as plain data: the header, the ranking of approaches per workload and a section per
// scenario. Numbers stay numbers here; html.js formats and escapes them.
const { chartsOf } = require('./chart-data');
const { machineBusyOfRun } = require('../machine/busy-machine');
const { stallOf } = require('./stall');
const { summarize, verdictOf } = require('../run/summary');
const { chooseApproaches } = require('../try/try-choice');
const { attachVerdict } = require('../attach/attach-verdict');

// The figures every scenario shows, as the run's summary holds them.
const NUMBERS = ['requests', 'requestsPerSecond', 'latencyP50Ms', 'latencyP90Ms', 'latencyP99Ms', 'latencyMaxMs', 'errors', 'timeouts', 'non2xx', 'invalid'];

/** "2 CPUs usable (0-1, quota 2)" from a runtime's or the driver's CPU layout; null when it says nothing. */
function cpusOf(layout) {
  if (layout.availableProcessors === undefined) return null;
  const where = [layout.cpusAllowed, layout.cgroupCpuQuota ? `quota ${layout.cgroupCpuQuota}` : null].filter(Boolean).join(', ');
  return `${layout.availableProcessors} CPUs usable${where ? ` (${where})` : ''}`;
}

function headerOf(runId, run) {
  const machine = run.machine || {};
  const images = (run.lab && run.lab.images) || {};
  const targets = Object.entries(run.targets || {}).map(([name, info]) => ({
    name,
    url: info.url || null,
    runtime: info.runtime ? [info.runtime.name, info.runtime.version].filter(Boolean).join(' ') : null,
    runtimeDetail: [info.runtime && info.runtime.vm, info.runtime && cpusOf(info.runtime)].filter(Boolean).join('; ') || null,
    libraries: Object.entries(info.libraries || info.versions || {}),
    image: images[name] || null,
    error: info.error || null,
  }));
  return {
    suite: run.suite,
    description: run.description || null,
    runId,
    startedAt: run.startedAt || null,
    endedAt: run.endedAt || null,
    verdict: run.verdict || 'unfinished',
    machine: [machine.cpuModel, machine.platform].filter(Boolean).join(', ') || null,
    cpus: machine.cpus === undefined ? null : machine.cpus,
    memoryBytes: machine.memoryBytes === undefined ? null : machine.memoryBytes,
    loadDriverNode: machine.loadDriverNode || null,
    loadDriverCpus: machine.loadDriverCpus ? cpusOf(machine.loadDriverCpus) : null,
    commit: (run.lab && run.lab.commit) || null,
    prometheus: run.prometheus || null,
    targets,
    images: Object.entries(images),
  };
}

function sectionOf(file, index) {
  const s = file.scenario;
  const summary = summarize(Object.assign({ flags: [], thresholds: [] }, file));
  const stall = stallOf(file);
  const { charts, serverNotice } = chartsOf(file);
  return {
    id: `scenario-${index + 1}`,
    index,
    name: s.name,
    target: s.target,
    request: `${s.method || 'GET'} ${s.path}`,
    connections: s.connections,
    workload: summary.workload,
    approach: summary.approach,
    window: file.window,
    verdict: verdictOf(summary),
    problems: file.problems || [],
    numbers: Object.fromEntries(NUMBERS.map((name) => [name, summary[name]])),
    probe: file.probe || null,
    thresholds: file.thresholds || [],
    flags: file.flags || [],
    driver: file.driver || null,
    littlesLaw: file.littlesLaw || null,
    openLoop: file.openLoop || null,
    profile: file.profile || null,
    warmup: file.warmup || null,
    // The JVM's peaks are its stand-in's, named by stall.lagFrom wherever they are shown.
    serverLagP99PeakMs: stall.lagP99PeakMs,
    serverLagMaxPeakMs: stall.lagMaxPeakMs,
    stall,
    charts,
    serverNotice,
    machineBusy: summary.machineBusy,
  };
}

/** Sections grouped by target and workload, each group ranked by requests/s (highest first); /run routes only. */
function rankingOf(sections) {
  const groups = new Map();
  for (const section of sections.filter((x) => x.workload)) {
    const key = `${section.target}\u0000${section.workload}`;
    if (!groups.has(key)) groups.set(key, { target: section.target, workload: section.workload, rows: [] });
    groups.get(key).rows.push(section);
  }
  return [...groups.values()].map((group) => Object.assign(group, { rows: group.rows.slice().sort((a, b) => b.numbers.requestsPerSecond - a.numbers.requestsPerSecond) }));
}

/**
 * The report's model from readRun's {runId, run, scenarios}; a try run (run.try: a user's document) adds the choice
 * of approach, made again from the scenario files (try-choice.js) with the run's blockMs; an attach run its verdict.
 */
function buildModel({ runId, run, scenarios }) {
  const sections = scenarios.map((file, i) => sectionOf(file, i));
  const model = { header: headerOf(runId, run), ranking: rankingOf(sections), unranked: sections.filter((x) => !x.workload), sections, choice: null, document: null, attachVerdict: null };
  // Read again from the scenario files, as everything else here: what the machine did beside the lab.
  model.header.machineBusy = machineBusyOfRun(sections);
  if (run && run.try) {
    model.document = run.try;
    model.choice = chooseApproaches(scenarios.map((file) => summarize(Object.assign({ flags: [], thresholds: [] }, file))), run.try.blockMs, run.targets || {});
  }
  // An attach run (run.attach: a service the lab did not write): its verdict, made again from the scenario files.
  if (run && run.attach) model.attachVerdict = attachVerdict(scenarios, run.attach);
  return model;
}

module.exports = { buildModel };
