'use strict';
// make attach's settings and what it checks before anything starts: the endpoint (URL, METHOD, BODY_FILE, HEADERS,
// PROBE_PATH) and the agent beside it (AGENT), each refused with the reason in words (exit status 2) when the lab
// cannot load it: not a URL, not on this machine without ATTACH_ALLOW_REMOTE=1 (a load generator pointed at a
// machine that is not the user's own is an attack), nothing answering there, or an answer that is an error.
const fs = require('node:fs');
const net = require('node:net');
const { InputError } = require('./try-document');

// One request's bound while checking (a large document's route may take seconds); the body file's size cap.
const CHECK_TIMEOUT_MS = 30000;
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
// OpenTelemetry's Prometheus exporter port: where both agents listen unless LAB_AGENT_PORT says otherwise.
const DEFAULT_AGENT = 'http://127.0.0.1:9464';

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);

/** Whether host (a URL's hostname) is this machine: a loopback address or localhost. */
function isLoopback(hostname) {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

/** A URL setting: http(s), on this machine unless allowRemote; the URL object. */
function urlSetting(name, text, allowRemote) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(`${name} must be a URL like http://127.0.0.1:3000/path, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:') throw new InputError(`${name} must be an http:// URL (the load generator speaks plain HTTP), got ${url.protocol}`);
  if (!allowRemote && !isLoopback(url.hostname)) {
    throw new InputError(`${name}: ${url.hostname} is not this machine; make attach loads only loopback addresses (127.0.0.1, ::1, localhost) unless ATTACH_ALLOW_REMOTE=1 says the machine there is yours to load`);
  }
  return url;
}

/** HEADERS ("Name: value; Name: value") as an object; a malformed one is refused. */
function headersSetting(text) {
  const headers = {};
  for (const part of text.split(';').map((s) => s.trim()).filter(Boolean)) {
    const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(part);
    if (!match) throw new InputError(`HEADERS: "${part}" is not Name: value (separate headers with ;)`);
    headers[match[1].toLowerCase()] = match[2];
  }
  return headers;
}

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

/** Every endpoint setting read and checked for form: {url, method, headers, body, probePath, agentUrl (or null)}. */
function endpointSettings() {
  const allowRemote = env('ATTACH_ALLOW_REMOTE', '0') === '1';
  const text = process.argv[2] || env('URL', '');
  if (!text) throw new InputError('give the endpoint to load: make attach URL=http://127.0.0.1:3000/path');
  const url = urlSetting('URL', text, allowRemote);
  const method = env('METHOD', 'GET').toUpperCase();
  if (!METHODS.includes(method)) throw new InputError(`METHOD must be one of ${METHODS.join(', ')}, got ${method}`);
  const probePath = env('PROBE_PATH', '') || null;
  if (probePath !== null && !probePath.startsWith('/')) throw new InputError(`PROBE_PATH must be a path on the service, starting with /, got ${probePath}`);
  const agentText = env('AGENT', DEFAULT_AGENT);
  const agentUrl = agentText === 'none' ? null : urlSetting('AGENT', agentText, allowRemote).origin;
  return { url, method, headers: headersSetting(env('HEADERS', '')), body: bodySetting(env('BODY_FILE', '')), probePath, agentUrl, agentGiven: env('AGENT', '') !== '' };
}

/** Why a request failed, in words: refused, not resolved, no answer in time. */
function whyNoAnswer(err) {
  if (err.name === 'TimeoutError') return `no answer in ${CHECK_TIMEOUT_MS / 1000} s`;
  const code = err.cause && err.cause.code;
  return code === 'ECONNREFUSED' ? 'connection refused: is the service running, on this port?' : code || err.message;
}

/** Sends the endpoint's request once: refused unless it answers 2xx. Resolves to the answer's size in bytes. */
async function checkAnswers({ url, method, headers, body }) {
  let res;
  try {
    res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  } catch (err) {
    throw new InputError(`${method} ${url.href}: ${whyNoAnswer(err)}`);
  }
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status < 200 || res.status > 299) throw new InputError(`${method} ${url.href} answered HTTP ${res.status}: the lab loads an endpoint that answers 2xx (METHOD, HEADERS, BODY_FILE set the request)`);
  return bytes;
}

/** PROBE_PATH on the service answers 2xx to a GET, or it is refused. */
async function checkProbe(url, probePath) {
  const probe = new URL(probePath, url);
  try {
    const res = await fetch(probe, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    await res.arrayBuffer();
    if (res.status < 200 || res.status > 299) throw new InputError(`PROBE_PATH: GET ${probe.href} answered HTTP ${res.status}; a probe path must answer 2xx`);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`PROBE_PATH: GET ${probe.href}: ${whyNoAnswer(err)}`);
  }
}

/**
 * The agent's /info, or null where none answers: an AGENT given and not answering is refused (the user meant one);
 * the default one missing is said and the run goes on without its figures.
 */
async function agentInfo(agentUrl, given, say) {
  if (!agentUrl) return null;
  try {
    const res = await fetch(`${agentUrl}/info`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    const info = await res.json().catch(() => null);
    if (res.ok && info && (info.agent === 'node' || info.agent === 'jvm')) return info;
    throw new Error(`HTTP ${res.status}, not the lab's agent`);
  } catch (err) {
    const why = `no lab agent answers at ${agentUrl}/info (${err.cause ? whyNoAnswer(err) : err.message})`;
    if (given) throw new InputError(`AGENT: ${why}`);
    say(`${why}: the run goes on without the event loop's lag, ELU, GC pauses and profiles (start the service with the agent: agents/node-agent/README.md, agents/jvm-agent/README.md)`);
    return null;
  }
}

module.exports = { endpointSettings, checkAnswers, checkProbe, agentInfo, isLoopback, DEFAULT_AGENT };
