'use strict';
// `make attach URL=http://127.0.0.1:3000/path`: a service the lab did not write, loaded at that endpoint, with the
// lab's agent beside it where the user started it with one (agents/node-agent: NODE_OPTIONS="--require …/agent.js";
// agents/jvm-agent: JAVA_TOOL_OPTIONS="-javaagent:…/lab-agent.jar"). It checks the endpoint and the agent first
// (attach-endpoint.js), then starts a native lab of its own (the load driver and Prometheus, which scrapes the agent,
// on ports shifted by ATTACH_PORT_OFFSET), runs the suite load/src/attach/attach-suite.js makes for the endpoint
// (closed loops at a few connection counts, open loops at shares of the saturated rate, the probe beside each, every
// scenario profiled through the agent), prints each scenario's line and the verdict (load/src/attach/attach-verdict.js:
// from which load the event loop blocks past ATTACH_BLOCK_MS, the longest block and what ran in it), writes the usual
// run folder and report.html, and stops what it started however it ends.
//
// Settings: URL (or the first argument), METHOD (GET), BODY_FILE, HEADERS ("Name: value; Name: value"), PROBE_PATH (a
// cheap GET on the service; without one, the agent's /healthz), AGENT (http://127.0.0.1:9464; `none`), ATTACH_SECONDS
// (5: each scenario's window), ATTACH_BLOCK_MS (10), ATTACH_ALLOW_REMOTE (0: loopback only), ATTACH_PORT_OFFSET
// (12000), LAB_PROFILE_TOKEN (the one the agent was started with: profiles need it), LAB_RESULTS_DIR (results), BEFORE
// (an earlier make attach's run: the same loads again, then make compare against it: attach-before.js). Exit status:
// 0 when the run ended and its verdict is printed (with BEFORE: and no significant regression past MAX_REGRESSION),
// 1 when it could not be made (with BEFORE: or regressed), 2 for a setting or an endpoint the lab cannot load.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, readManifests } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { attachSuite } = require('@lab/load/src/attach/attach-suite');
const { describeRunMachine, busyPercentSetting } = require('@lab/load/src/machine/busy-machine');
const { machineBeforeStart } = require('@lab/load/src/machine/before-start');
const { startNativeSubset, answers } = require('./native-subset');
const { InputError } = require('./try-document');
const { followRun } = require('./follow-run');
const { queryInstant, quote } = require('@lab/load/src/scenario/server-series');
const { until } = require('@lab/test-kit');
const { endpointSettings, checkEndpoint, agentInfo } = require('./attach-endpoint');
const { beforeRun, compareWithBefore } = require('./attach-before');

// The driver's names for the service and its agent: the Prometheus job of the agent's series is the service's name.
const TARGET = 'attached';
const AGENT_TARGET = 'attached-agent';
const SUITE = 'attach';
// A bound on Prometheus' first scrapes of the agent (it reads its targets file every 5 s, scrapes every second).
const SCRAPES_TIMEOUT_MS = 60000;

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);
const say = (line) => console.log(`attach: ${line}`);

function integerSetting(name, fallback, min, max) {
  const raw = env(name, String(fallback));
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new InputError(`${name} must be an integer in [${min}, ${max}], got ${raw}`);
  return value;
}

/** What the user is told of profiles before the run: whether the agent can be asked for them. */
function profileWords(info) {
  if (!info) return null;
  if (!info.profile) return 'the agent has no profile route (started without LAB_PROFILE_TOKEN): no CPU profiles; start the service with LAB_PROFILE_TOKEN=<secret> and give make attach the same';
  if (!process.env.LAB_PROFILE_TOKEN) return 'the agent takes profiles, but make attach has no LAB_PROFILE_TOKEN: give it the one the service was started with';
  return null;
}

/** The suite's scenarios' settings and the endpoint, as attach-suite.js takes them; before: BEFORE's run, or null. */
function suiteFor(endpoint, info, before) {
  const durationSeconds = integerSetting('ATTACH_SECONDS', before && before.durationSeconds ? before.durationSeconds : 5, 1, 120);
  const blockMs = integerSetting('ATTACH_BLOCK_MS', 10, 1, 60000);
  return attachSuite({
    target: TARGET,
    agentTarget: info ? AGENT_TARGET : null,
    agentKind: info ? info.agent : null,
    lagResolutionMs: info && typeof info.lagResolutionMs === 'number' ? info.lagResolutionMs : 0,
    url: endpoint.url.href,
    method: endpoint.method,
    path: `${endpoint.url.pathname}${endpoint.url.search}`,
    headers: endpoint.headers,
    body: endpoint.body,
    // Without PROBE_PATH the agent's /healthz: a Node agent answers it on the service's event loop; a JVM agent on a
    // thread of its own, which feels only what stops every thread (GC pauses, safepoints): a service path says more.
    probePath: endpoint.probePath,
  }, { durationSeconds, blockMs, rates: before ? before.rates : null });
}

/** The native lab (load driver, Prometheus) aimed at the endpoint and its agent; {driverUrl, ready(), stop()}. */
async function startLab(endpoint, info, suitesDir, onOutput) {
  const offset = integerSetting('ATTACH_PORT_OFFSET', 12000, 0, 60000);
  const load = readManifests().filter((m) => m.kind === 'load');
  const driverUrl = nativeLab(offset, load).components[0].url;
  if (await answers(`${driverUrl}/healthz`)) throw new Error(`something already answers on ${driverUrl} (another make attach?): set ATTACH_PORT_OFFSET`);
  const targets = [`${TARGET}=${endpoint.url.origin}`].concat(info ? [`${AGENT_TARGET}=${endpoint.agentUrl}`] : []);
  const lab = startNativeSubset(load.map((m) => m.name), {
    offset,
    onOutput,
    say,
    env: {
      LAB_ATTACH_TARGETS: targets.join(','),
      LAB_ATTACH_SCRAPE: info ? `${TARGET}=${new URL(endpoint.agentUrl).host}` : '',
      LOAD_ATTACHED: `${TARGET}=${info ? AGENT_TARGET : ''}`,
      LOAD_SUITES_DIR: suitesDir,
    },
  });
  say(`starting the load driver and Prometheus natively on ports ${lab.components.map((c) => c.port).concat(lab.prometheus.port).join(', ')} (ATTACH_PORT_OFFSET=${offset})`);
  const prometheusUrl = `http://127.0.0.1:${lab.prometheus.port}`;
  return { driverUrl, stop: lab.stop, ready: async () => {
    await lab.ready();
    // The first load's figures grow from a scrape before it: Prometheus must have read the agent already.
    if (info) await scrapedTwice(prometheusUrl, TARGET);
  } };
}

/**
 * Resolves once Prometheus holds two scrapes of job (its targets file is read within seconds of its start), so that
 * the first scenario's counters have a sample before its window; throws after SCRAPES_TIMEOUT_MS naming the job.
 */
function scrapedTwice(prometheusUrl, job) {
  return until(`Prometheus' second scrape of the agent (job ${job})`, SCRAPES_TIMEOUT_MS, async () => {
    const [sample] = await queryInstant(prometheusUrl, `count_over_time(up{job=${quote(job)}}[1m])`);
    return sample && Number(sample.value[1]) >= 2 ? { done: true } : { why: `${sample ? sample.value[1] : 'no'} scrapes so far` };
  });
}

async function main() {
  const startedAt = Date.now();
  const endpoint = endpointSettings();
  const bytes = await checkEndpoint(endpoint);
  say(`${endpoint.method} ${endpoint.url.href} answers (${bytes} bytes)`);
  const info = await agentInfo(endpoint.agentUrl, endpoint.agentGiven, say);
  if (info) say(`the lab's ${info.agent} agent answers at ${endpoint.agentUrl} (${info.runtime.name} ${info.runtime.version}, pid ${info.pid})`);
  const profileNote = profileWords(info);
  if (profileNote) say(profileNote);
  const before = env('BEFORE', '') ? beforeRun(env('BEFORE', ''), path.resolve(ROOT, env('LAB_RESULTS_DIR', 'results'))) : null;
  if (before) say(`loading it as ${before.dir} did${before.url === endpoint.url.href ? '' : ` (whose URL was ${before.url})`}: the same loops, open loops at ${Object.values(before.rates).join(', ')} requests/s, then make compare`);
  const suite = suiteFor(endpoint, info, before);
  let busyPercent;
  try {
    busyPercent = busyPercentSetting();
  } catch (err) {
    throw new InputError(err.message);
  }
  const machine = await machineBeforeStart(busyPercent, 'the attached service');
  if (machine) say(machine.line);
  const suitesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-attach-suite-'));
  let output = ''; // the lab's own log, shown when something went wrong
  let lab = null;
  const onSignal = () => (lab ? lab.stop() : Promise.resolve()).then(() => fs.rmSync(suitesDir, { recursive: true, force: true })).then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    fs.writeFileSync(path.join(suitesDir, `${SUITE}.json`), `${JSON.stringify(suite, null, 2)}\n`);
    lab = await startLab(endpoint, info, suitesDir, (chunk) => (output = (output + chunk).slice(-20000)));
    await lab.ready();
    say(info ? 'the lab is up, and Prometheus scrapes the agent' : 'the lab is up');
    const status = await followRun(lab.driverUrl, new URLSearchParams({ suite: SUITE }), 'the attach run', say);
    say(`the attach run ${status.state} in ${Math.round((Date.now() - startedAt) / 1000)} s`);
    console.log('');
    for (const line of (status.attachVerdict && status.attachVerdict.lines) || ['no verdict: the run ended before its scenarios']) console.log(line);
    console.log('');
    say(describeRunMachine(status.machineBusy));
    say(`report: ${status.report || 'not written'}`);
    say(`results: ${status.resultsDir}`);
    if (!before) return 0;
    console.log('');
    say(`against BEFORE (${before.dir}):`);
    return compareWithBefore(before, status.resultsDir);
  } catch (err) {
    if (lab) console.error(`attach: the lab's last output:\n${output}`);
    throw err;
  } finally {
    if (lab) {
      say('stopping the lab it started');
      await lab.stop();
    }
    fs.rmSync(suitesDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`attach: ${err.message}`);
    process.exit(err instanceof InputError ? 2 : 1);
  },
);
