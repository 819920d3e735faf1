'use strict';
// make attach's settings (URL, METHOD, BODY_FILE, HEADERS, PROBE_PATH, AGENT) read from the environment, and the
// checks before anything starts, which are the driver's POST /attach's too (load/src/attach/endpoint.js): each refusal
// an InputError (exit status 2) with the reason in words. What is make attach's own: the body comes from a file, and
// the default agent missing is said and the run goes on without it (an AGENT given and not answering is refused).
const fs = require('node:fs');
const { InputError } = require('./try-document');
const endpoint = require('@lab/load/src/attach/endpoint');

// The body file's size cap: the driver's POST /attach takes no larger a body (load/src/attach/attach-request.js).
const { MAX_BODY_BYTES } = require('@lab/load/src/attach/attach-request');
// OpenTelemetry's Prometheus exporter port: where both agents listen unless LAB_AGENT_PORT says otherwise.
const DEFAULT_AGENT = 'http://127.0.0.1:9464';

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);

/** An EndpointRefusal as make attach's InputError (exit status 2); anything else as it is. */
const asInput = (err) => (err instanceof endpoint.EndpointRefusal ? new InputError(err.message) : err);

/** BODY_FILE's text, or undefined without one. */
function bodySetting(file) {
  if (!file) return undefined;
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new InputError(`BODY_FILE: ${file} does not exist`);
  }
  if (!stat.isFile()) throw new InputError(`BODY_FILE: ${file} is not a file`);
  if (stat.size > MAX_BODY_BYTES) throw new InputError(`BODY_FILE: ${file} is ${stat.size} bytes; a request body of at most ${MAX_BODY_BYTES} bytes is sent`);
  return fs.readFileSync(file, 'utf8');
}

/** Every endpoint setting read and checked for form: {url, method, headers, body, probePath, agentUrl (or null), agentGiven}. */
function endpointSettings() {
  const options = { allowRemote: env('ATTACH_ALLOW_REMOTE', '0') === '1', remoteSetting: 'ATTACH_ALLOW_REMOTE' };
  const text = process.argv[2] || env('URL', '');
  if (!text) throw new InputError('give the endpoint to load: make attach URL=http://127.0.0.1:3000/path');
  const agentText = env('AGENT', DEFAULT_AGENT);
  try {
    return {
      url: endpoint.checkUrl('URL', text, options),
      method: endpoint.checkMethod('METHOD', env('METHOD', 'GET')),
      headers: endpoint.parseHeaders('HEADERS', env('HEADERS', '')),
      body: bodySetting(env('BODY_FILE', '')),
      probePath: endpoint.checkProbePath('PROBE_PATH', env('PROBE_PATH', '')),
      agentUrl: agentText === 'none' ? null : endpoint.checkUrl('AGENT', agentText, options).origin,
      agentGiven: env('AGENT', '') !== '',
    };
  } catch (err) {
    throw asInput(err);
  }
}

/** The endpoint answers 2xx, and its PROBE_PATH too; resolves to the endpoint's answer's size in bytes. */
async function checkEndpoint(settings) {
  try {
    const bytes = await endpoint.checkAnswers('URL', settings);
    if (settings.probePath) await endpoint.checkProbe('PROBE_PATH', settings.url, settings.probePath);
    return bytes;
  } catch (err) {
    throw asInput(err);
  }
}

/**
 * The agent's /info, or null where none answers: an AGENT given and not answering is refused (the user meant one);
 * the default one missing is said and the run goes on without its figures.
 */
async function agentInfo(agentUrl, given, say) {
  if (!agentUrl) return null;
  try {
    return await endpoint.agentInfo('AGENT', agentUrl);
  } catch (err) {
    if (!(err instanceof endpoint.EndpointRefusal) || given) throw asInput(err);
    say(`${err.message.replace(/^AGENT: /, '')}: the run goes on without the event loop's lag, ELU, GC pauses and profiles (start the service with the agent: agents/node-agent/README.md, agents/jvm-agent/README.md)`);
    return null;
  }
}

module.exports = { endpointSettings, checkEndpoint, agentInfo, DEFAULT_AGENT };
