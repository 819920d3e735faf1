'use strict';
// `make try FILE=doc.json`: your own JSON document through every stringify and parse approach of the services that keep
// documents (their manifests' `documents: true`: node14-fibers, node-async, wasm-runner, whose transfer approaches
// carry it across the JS/WASM boundary, and jvm-serializer, whose serde runs it through its documentApproaches, started
// natively as `make native` starts it), each under load with the probe beside it and every answer validated against
// the service's reference (native's; wasm-runner's C++ tree too), then the approach to pick per service and workload:
// the fastest whose longest event-loop block stays under TRY_BLOCK_MS (load/src/try/try-choice.js; the JVM, without an
// event loop, by the probe's p99 instead), over TRY_ROUNDS interleaved rounds of every approach, compared with the
// others by their runs' times (a Mann-Whitney p-value; one it cannot be told from and that is simpler is picked).
// `make try FILE=x.csv` does the same with a CSV file through every approach of node-async's csv workload, validated
// against the reference parser's rows (csv-parsers/user-document.js). The kind is the file's extension (.json, .csv),
// else its content (JSON if it starts with `{` or `[`, else CSV).
//
// It starts a native lab of its own (only those services, the load driver and Prometheus, on ports shifted by
// TRY_PORT_OFFSET, so a running `make native` is left alone), hands the document to the driver (PUT /documents, which
// hands it on), runs the try suite (POST /runs?suite=try), prints progress as scenarios end, the summary table and
// where report.html is, and stops what it started however it ends. With LOAD_URL it uses that running driver instead
// (a `make native` or `make up` lab) and starts and stops nothing. The file is checked first (missing, empty, too
// large, not UTF-8 with its byte offset, not JSON with its line and column or nested too deep, not CSV with its row),
// before anything starts.
//
// Settings: FILE (or the first argument), TRY_BLOCK_MS (10), TRY_SECONDS (each scenario's duration) and TRY_ROUNDS
// (how many rounds each approach runs; both the try suite's by default), TRY_PORT_OFFSET (17000), LOAD_URL (none),
// LAB_RESULTS_DIR (results), DOCUMENT_MAX_BYTES and DOCUMENT_MAX_DEPTH (the lab's caps), each checked before anything
// starts, and LAB_BUSY_PERCENT (25: the share of the machine's CPU going elsewhere past which a scenario is no verdict;
// the machine is watched for 2 s before the start too). Exit status: 0 when the run ended and its summary is printed (a
// pick or, per service and workload, why there is none), 1 when the run could not be made, 2 for a file or a setting
// the lab cannot take.
const { readManifests, documentServicesOf } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { startNativeSubset } = require('./native-subset');
const { answersOk } = require('@lab/test-kit');
const { documentSettings } = require('@lab/node-kit/document-store');
const { readDocumentFile, InputError } = require('./try-document');
const { describeChoice } = require('@lab/load/src/try/try-choice-text');
const { MAX_ROUNDS } = require('@lab/load/src/try/try-suite');
const { busyPercentSetting, describeRunMachine } = require('@lab/load/src/machine/busy-machine');
const { machineBeforeStart } = require('@lab/load/src/machine/before-start');
const { followRun, json } = require('./follow-run');

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);
const say = (line) => console.log(`try: ${line}`);
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function integerSetting(name, fallback, min, max) {
  const raw = env(name, String(fallback));
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new InputError(`${name} must be an integer in [${min}, ${max}], got ${raw}`);
  return value;
}

/** Starts the native lab of the document services and the load driver; {driverUrl, ready(), stop()}. */
async function startLab(onOutput) {
  const offset = integerSetting('TRY_PORT_OFFSET', 17000, 0, 60000);
  const manifests = readManifests();
  const only = documentServicesOf(manifests).map((m) => m.name).concat(manifests.filter((m) => m.kind === 'load').map((m) => m.name));
  const driverUrl = nativeLab(offset, manifests.filter((m) => m.kind === 'load')).components[0].url;
  if (await answersOk(`${driverUrl}/healthz`)) throw new Error(`something already answers on ${driverUrl} (another make try?): set TRY_PORT_OFFSET, or LOAD_URL=${driverUrl} to use it`);
  const lab = startNativeSubset(only, { offset, onOutput, say });
  say(`starting ${only.join(', ')} and Prometheus natively on ports ${lab.components.map((c) => c.port).concat(lab.prometheus.port).join(', ')} (TRY_PORT_OFFSET=${offset})`);
  return {
    driverUrl,
    stop: lab.stop,
    ready: async () => {
      await lab.ready();
      say('the lab is up');
    },
  };
}

/** Hands the document ({bytes, kind}) to the driver; its sha256, or throws with the driver's refusal. */
async function handOver(driverUrl, { bytes, kind }) {
  say(`handing the ${kind.toUpperCase()} document (${mb(bytes.length)}) to the load driver, which hands it to every service that keeps ${kind.toUpperCase()} documents`);
  const { status, body } = await json(`${driverUrl}/documents`, { method: 'PUT', headers: { 'Content-Type': kind === 'csv' ? 'text/csv' : 'application/json' }, body: bytes });
  if (status !== 200 && status !== 201) {
    const where = body.line ? ` at line ${body.line}, column ${body.column}` : body.row ? ` at row ${body.row}` : '';
    throw new InputError(`the load driver refused the document (HTTP ${status})${where}: ${body.error}`);
  }
  for (const [name, h] of Object.entries(body.services)) {
    say(`  ${name}: ${h.stored ? 'stored' : `not stored: ${h.error}`}`);
    // What runtimes may treat differently in the document, and what this one does with it: findings, not failures.
    for (const f of h.findings || []) say(`    ${f.topic} at ${f.path || 'the document itself'} (${f.count}): ${f.detail}`);
  }
  return body.sha256;
}

/**
 * The try run's own settings as POST /runs' parameters: the block limit, and each scenario's duration and the rounds
 * where given (else the suite's). Read before anything starts: a bad one is the user's to fix, and starts nothing.
 */
function runSettings() {
  const settings = { blockMs: String(integerSetting('TRY_BLOCK_MS', 10, 0, 60000)) };
  if (env('TRY_SECONDS', '') !== '') settings.durationSeconds = String(integerSetting('TRY_SECONDS', 0, 1, 120));
  if (env('TRY_ROUNDS', '') !== '') settings.rounds = String(integerSetting('TRY_ROUNDS', 0, 1, MAX_ROUNDS));
  return settings;
}

/** LAB_BUSY_PERCENT, the driver's setting too, checked here first: a bad one starts nothing. */
function busyPercentOf() {
  try {
    return busyPercentSetting();
  } catch (err) {
    throw new InputError(err.message);
  }
}

/** Runs the try suite with settings (runSettings') and follows it to its end, printing progress; the final /runs/latest. */
const runTry = (driverUrl, sha256, settings) => followRun(driverUrl, `/runs?${new URLSearchParams(Object.assign({ suite: 'try', document: sha256 }, settings))}`, 'the try run', say);

async function main() {
  const startedAt = Date.now();
  const file = process.argv[2] || env('FILE', '');
  const caps = documentSettings((name, fallback) => integerSetting(name, fallback, 0, Number.MAX_SAFE_INTEGER));
  const settings = runSettings();
  const busyPercent = busyPercentOf();
  const document = await readDocumentFile(file, caps);
  say(`${file}: ${document.kind.toUpperCase()}, ${mb(document.bytes.length)}${document.kind === 'csv' ? `, ${document.rows} records` : ''}`);
  // The machine first: a busy one is named before the run, not discovered in its figures.
  const before = await machineBeforeStart(busyPercent, env('LOAD_URL', '') === '' ? null : 'the lab at LOAD_URL');
  if (before) say(before.line);
  let output = ''; // the lab's own log, shown when something went wrong
  const lab = env('LOAD_URL', '') === '' ? await startLab((chunk) => (output = (output + chunk).slice(-20000))) : null;
  const stopLab = lab ? lab.stop : async () => {};
  const onSignal = () => stopLab().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (lab) await lab.ready();
    const driverUrl = lab ? lab.driverUrl : env('LOAD_URL', '').replace(/\/$/, '');
    const sha256 = await handOver(driverUrl, document);
    const status = await runTry(driverUrl, sha256, settings);
    say(`the try run ${status.state} in ${Math.round((Date.now() - startedAt) / 1000)} s; document ${sha256}`);
    console.log('');
    for (const line of describeChoice(status.choice)) console.log(line);
    console.log('');
    say(describeRunMachine(status.machineBusy));
    say(`report: ${status.report || 'not written'}`);
    say(`results: ${status.resultsDir}`);
    const none = status.choice.groups.filter((g) => !g.pick);
    if (none.length) say(`no pick for ${none.map((g) => `${g.target} ${g.workload}`).join(', ')}: TRY_BLOCK_MS=<ms> sets the longest block you accept (${status.choice.blockMs} ms now)`);
    for (const g of none.filter((n) => n.limitsToPick && n.limitsToPick.length)) say(`  ${g.target} ${g.workload}: ${g.limitsToPick.map((l) => `TRY_BLOCK_MS=${l.blockMs} would pick ${l.approach}`).join(', ')}`);
    return 0;
  } catch (err) {
    if (lab && !(err instanceof InputError)) console.error(`try: the lab's last output:\n${output}`);
    throw err;
  } finally {
    if (lab) {
      say('stopping the lab it started');
      await stopLab();
    }
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`try: ${err.message}`);
    process.exit(err instanceof InputError ? 2 : 1);
  },
);
