'use strict';
// The endpoint of a service the lab did not write, checked before the lab loads it, the one implementation for
// `make attach` (scripts/attach-endpoint.js reads its settings from the environment) and the driver's POST /attach
// (attach-request.js reads them from the query): a URL on this machine (or a host the caller allows: a load generator
// pointed at a machine that is not the user's own is an attack), a method the driver sends, headers, a probe path,
// then the endpoint, the probe and the agent asked once each. Every refusal is an EndpointRefusal naming the setting
// (`name`, as the caller calls it) and, in words, what is allowed.
const net = require('node:net');

// One request's bound while checking (a large document's route may take seconds).
const CHECK_TIMEOUT_MS = 30000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const HEADER = /^([A-Za-z0-9-]+):\s*(.*)$/;

class EndpointRefusal extends Error {
  /** name: the setting refused (URL or url, as its caller names it); allowed: what it may be, for a 400's body. */
  constructor(name, message, allowed) {
    super(message);
    this.setting = name;
    this.allowed = allowed;
  }
}

/** Whether host (a URL's hostname) is this machine: a loopback address or localhost. */
function isLoopback(hostname) {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

/**
 * An http URL: on this machine, or on one of hosts (the lab's own, say), unless allowRemote; the URL object.
 * remoteSetting: the setting that would allow any host, named in the refusal.
 */
function checkUrl(name, text, { allowRemote = false, hosts = [], remoteSetting }) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new EndpointRefusal(name, `${name} must be a URL like http://127.0.0.1:3000/path, got ${JSON.stringify(text)}`, 'http://host:port/path');
  }
  if (url.protocol !== 'http:') throw new EndpointRefusal(name, `${name} must be an http:// URL (the load generator speaks plain HTTP), got ${url.protocol}`, 'http://host:port/path');
  const own = ['127.0.0.1', '::1', 'localhost'].concat(hosts);
  if (!allowRemote && !isLoopback(url.hostname) && !hosts.includes(url.hostname)) {
    throw new EndpointRefusal(name, `${name}: ${url.hostname} is not this machine${hosts.length ? " nor one of the lab's own hosts" : ''}; the lab loads only ${own.join(', ')} unless ${remoteSetting}=1 says the machine there is yours to load`, own);
  }
  return url;
}

/** A method the driver sends, upper-cased. */
function checkMethod(name, text) {
  const method = text.toUpperCase();
  if (!METHODS.includes(method)) throw new EndpointRefusal(name, `${name} must be one of ${METHODS.join(', ')}, got ${text}`, METHODS);
  return method;
}

/** Headers as "Name: value; Name: value" -> {name: value}; a malformed one is refused. */
function parseHeaders(name, text) {
  const headers = {};
  for (const part of text.split(';').map((s) => s.trim()).filter(Boolean)) {
    const match = HEADER.exec(part);
    if (!match) throw new EndpointRefusal(name, `${name}: "${part}" is not Name: value (separate headers with ;)`, 'Name: value; Name: value');
    headers[match[1].toLowerCase()] = match[2];
  }
  return headers;
}

/** A probe path on the service ("" for none: null), starting with /. */
function checkProbePath(name, text) {
  if (!text) return null;
  if (!text.startsWith('/')) throw new EndpointRefusal(name, `${name} must be a path on the service, starting with /, got ${text}`, 'a path starting with /');
  return text;
}

/** Why a request failed, in words: refused, not resolved, no answer in time. */
function whyNoAnswer(err) {
  if (err.name === 'TimeoutError') return `no answer in ${CHECK_TIMEOUT_MS / 1000} s`;
  const code = err.cause && err.cause.code;
  return code === 'ECONNREFUSED' ? 'connection refused: is the service running, on this port?' : code || err.message;
}

/** Sends the endpoint's request once ({url, method, headers, body}): refused unless it answers 2xx. Resolves to its size in bytes. */
async function checkAnswers(name, { url, method, headers, body }) {
  let res;
  try {
    res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  } catch (err) {
    throw new EndpointRefusal(name, `${method} ${url.href}: ${whyNoAnswer(err)}`, 'an endpoint that answers 2xx');
  }
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status < 200 || res.status > 299) throw new EndpointRefusal(name, `${method} ${url.href} answered HTTP ${res.status}: the lab loads an endpoint that answers 2xx (the method, headers and body set the request)`, 'an endpoint that answers 2xx');
  return bytes;
}

/** probePath on the service at url answers 2xx to a GET, or it is refused. */
async function checkProbe(name, url, probePath) {
  const probe = new URL(probePath, url);
  let res;
  try {
    res = await fetch(probe, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    await res.arrayBuffer();
  } catch (err) {
    throw new EndpointRefusal(name, `${name}: GET ${probe.href}: ${whyNoAnswer(err)}`, 'a path that answers 2xx to a GET');
  }
  if (res.status < 200 || res.status > 299) throw new EndpointRefusal(name, `${name}: GET ${probe.href} answered HTTP ${res.status}; a probe path must answer 2xx`, 'a path that answers 2xx to a GET');
}

/** The lab agent's /info at agentUrl (its origin), or a refusal naming why it is not one. */
async function agentInfo(name, agentUrl) {
  let why;
  try {
    const res = await fetch(`${agentUrl}/info`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    const info = await res.json().catch(() => null);
    if (res.ok && info && (info.agent === 'node' || info.agent === 'jvm')) return info;
    why = `HTTP ${res.status}, not the lab's agent`;
  } catch (err) {
    why = whyNoAnswer(err);
  }
  throw new EndpointRefusal(name, `${name}: no lab agent answers at ${agentUrl}/info (${why})`, "the origin of the lab's agent beside the service (agents/), or none");
}

module.exports = { EndpointRefusal, isLoopback, checkUrl, checkMethod, parseHeaders, checkProbePath, checkAnswers, checkProbe, agentInfo, METHODS, CHECK_TIMEOUT_MS };
