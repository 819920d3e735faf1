'use strict';
// `make attach URL=http://127.0.0.1:3000/path`: a service the lab did not write, loaded at that endpoint, with the
// lab's agent beside it where the user started it with one (agents/node-agent: NODE_OPTIONS="--require …/agent.js";
// agents/jvm-agent: JAVA_TOOL_OPTIONS="-javaagent:…/lab-agent.jar"). It checks the endpoint and the agent first
// (attach-endpoint.js), then starts a native lab of its own (the load driver and Prometheus on ports shifted by
// ATTACH_PORT_OFFSET) and hands the endpoint to the driver's POST /attach, which checks it again, tells Prometheus of
// the agent, and runs the suite load/src/attach/attach-suite.js makes for the endpoint (closed loops at a few
// connection counts, open loops at shares of the saturated rate, the probe beside each, every scenario profiled
// through the agent), prints each scenario's line and the verdict (load/src/attach/attach-verdict.js: from which load
// the event loop blocks past ATTACH_BLOCK_MS, the longest block and what ran in it), writes the usual run folder and
// report.html, and stops what it started however it ends.
//
// Settings: URL (or the first argument), METHOD (GET), BODY_FILE, HEADERS ("Name: value; Name: value"), PROBE_PATH (a
// cheap GET on the service; without one, the agent's /healthz), AGENT (http://127.0.0.1:9464; `none`), ATTACH_SECONDS
// (5: each scenario's window), ATTACH_BLOCK_MS (10), ATTACH_ALLOW_REMOTE (0: loopback only), ATTACH_PORT_OFFSET
// (12000), LAB_PROFILE_TOKEN (the one the agent was started with, if it was: profiles need it; an agent started without
// one on this machine wrote its own to <token folder>/<agent port>.token, which make attach reads: attach-token.js),
// LAB_AGENT_TOKEN_DIR, XDG_RUNTIME_DIR, TMPDIR (where that folder is: the same as the service's), LAB_RESULTS_DIR
// (results), BEFORE (an earlier make attach's run: the same loads again, then make compare against it:
// attach-before.js). Exit status:
// 0 when the run ended and its verdict is printed (with BEFORE: and no significant regression past MAX_REGRESSION),
// 1 when it could not be made (with BEFORE: or regressed), 2 for a setting or an endpoint the lab cannot load.
const path = require('node:path');
const { ROOT, readManifests } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { OPEN_NAMES } = require('@lab/load/src/attach/attach-suite');
const { describeRunMachine, busyPercentSetting } = require('@lab/load/src/machine/busy-machine');
const { machineBeforeStart } = require('@lab/load/src/machine/before-start');
const { startNativeSubset } = require('./native-subset');
const { answersOk } = require('@lab/test-kit');
const { InputError } = require('./try-document');
const { followRun } = require('./follow-run');
const { endpointSettings, checkEndpoint, agentInfo } = require('./attach-endpoint');
const { attachProfileToken } = require('./attach-token');
const { beforeRun, compareWithBefore } = require('./attach-before');

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);
const say = (line) => console.log(`attach: ${line}`);

function integerSetting(name, fallback, min, max) {
  const raw = env(name, String(fallback));
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new InputError(`${name} must be an integer in [${min}, ${max}], got ${raw}`);
  return value;
}

/**
 * POST /attach's request for the endpoint (its query, its body): the agent only where it answered (the default one
 * missing runs without it), BEFORE's seconds and open loops' rates where given (before: its run, or null).
 */
function attachRequest(endpoint, info, before) {
  const query = new URLSearchParams({
    url: endpoint.url.href,
    method: endpoint.method,
    headers: Object.entries(endpoint.headers).map(([name, value]) => `${name}: ${value}`).join('; '),
    agent: info ? endpoint.agentUrl : 'none',
    durationSeconds: String(integerSetting('ATTACH_SECONDS', before && before.durationSeconds ? before.durationSeconds : 5, 1, 120)),
    blockMs: String(integerSetting('ATTACH_BLOCK_MS', 10, 1, 60000)),
  });
  if (endpoint.probePath) query.set('probePath', endpoint.probePath);
  if (before) query.set('rates', OPEN_NAMES.map((name) => before.rates[name]).join(','));
  return { target: `/attach?${query}`, body: endpoint.body };
}

/**
 * The native lab (load driver, Prometheus, whose targets folder the driver writes the agent into), the driver given
 * profileToken (null: none) in its environment; {driverUrl, ready(), stop()}.
 */
async function startLab(profileToken, onOutput) {
  const offset = integerSetting('ATTACH_PORT_OFFSET', 12000, 0, 60000);
  const load = readManifests().filter((m) => m.kind === 'load');
  const driverUrl = nativeLab(offset, load).components[0].url;
  if (await answersOk(`${driverUrl}/healthz`)) throw new Error(`something already answers on ${driverUrl} (another make attach?): set ATTACH_PORT_OFFSET`);
  // The driver checks the endpoint again, as its own POST /attach: loopback only, unless the user said otherwise here.
  const lab = startNativeSubset(load.map((m) => m.name), { offset, onOutput, say, env: { LOAD_ATTACH_ALLOW_REMOTE: env('ATTACH_ALLOW_REMOTE', '0'), LAB_PROFILE_TOKEN: profileToken || '' } });
  say(`starting the load driver and Prometheus natively on ports ${lab.components.map((c) => c.port).concat(lab.prometheus.port).join(', ')} (ATTACH_PORT_OFFSET=${offset})`);
  return { driverUrl, stop: lab.stop, ready: lab.ready };
}

async function main() {
  const startedAt = Date.now();
  const endpoint = endpointSettings();
  const bytes = await checkEndpoint(endpoint);
  say(`${endpoint.method} ${endpoint.url.href} answers (${bytes} bytes)`);
  const info = await agentInfo(endpoint.agentUrl, endpoint.agentGiven, say);
  if (info) say(`the lab's ${info.agent} agent answers at ${endpoint.agentUrl} (${info.runtime.name} ${info.runtime.version}, pid ${info.pid})`);
  const profile = attachProfileToken(endpoint.agentUrl, info);
  if (profile.note) say(profile.note);
  const before = env('BEFORE', '') ? beforeRun(env('BEFORE', ''), path.resolve(ROOT, env('LAB_RESULTS_DIR', 'results'))) : null;
  if (before) say(`loading it as ${before.dir} did${before.url === endpoint.url.href ? '' : ` (whose URL was ${before.url})`}: the same loops, open loops at ${Object.values(before.rates).join(', ')} requests/s, then make compare`);
  const request = attachRequest(endpoint, info, before);
  let busyPercent;
  try {
    busyPercent = busyPercentSetting();
  } catch (err) {
    throw new InputError(err.message);
  }
  const machine = await machineBeforeStart(busyPercent, 'the attached service');
  if (machine) say(machine.line);
  let output = ''; // the lab's own log, shown when something went wrong
  let lab = null;
  const onSignal = () => (lab ? lab.stop() : Promise.resolve()).then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    lab = await startLab(profile.token, (chunk) => (output = (output + chunk).slice(-20000)));
    await lab.ready();
    say('the lab is up');
    const status = await followRun(lab.driverUrl, request.target, 'the attach run', say, request.body);
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
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`attach: ${err.message}`);
    process.exit(err instanceof InputError ? 2 : 1);
  },
);
