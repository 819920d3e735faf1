'use strict';
// The driver's POST /attach: its query and body read and checked once, the endpoint asked (endpoint.js, make attach's
// checks), and what a run of it needs: {suite (attach-suite.js, in memory), attachment (attachment.js, told to
// Prometheus: attach-scrape.js)}. Every refusal is an HttpError naming the parameter and what it allows: 400, or 413
// for a body past MAX_BODY_BYTES. Query: url (required), method, headers ("Name: value; Name: value"), probePath,
// agent (the agent's origin, or none), durationSeconds, blockMs, rates (the open loops' requests a second, integers, as an
// earlier run had them: make attach BEFORE=); the body, if any, is the body sent to the endpoint.
const { parseOnlyParams } = require('@lab/node-kit/params');
const { readBody } = require('@lab/node-kit/json-body');
const { badRequest } = require('@lab/node-kit/errors');
const { LIMITS, MAX_ARRIVAL_RATE } = require('../suite/suites');
const { DEFAULT_BLOCK_MS } = require('../try/try-choice');
const endpoint = require('./endpoint');
const { OPEN_NAMES } = require('./attach-suite');
const { attachmentOf, attachSuiteFor } = require('./attachment');
const { scrapeAttachment } = require('./attach-scrape');

// A request body the driver holds and sends with every request of the run: a document of a megabyte is already a
// heavy request; make attach's BODY_FILE has the same cap.
const MAX_BODY_BYTES = 1024 * 1024;
// Free text without control characters (a URL, headers): endpoint.js checks what it means.
const TEXT = { default: '', pattern: '[^\\u0000-\\u001f\\u007f]*' };
const RATE = '\\d{1,4}';
const PARAMS = {
  url: TEXT,
  method: { default: 'GET', values: endpoint.METHODS },
  headers: TEXT,
  probePath: TEXT,
  agent: { default: 'none', pattern: TEXT.pattern },
  durationSeconds: { default: 5, min: 1, max: LIMITS.durationSeconds },
  blockMs: { default: DEFAULT_BLOCK_MS, min: 1, max: 60000 },
  rates: { default: '', pattern: `${RATE}(,${RATE}){${OPEN_NAMES.length - 1}}` },
};

/** An EndpointRefusal as the 400 naming its parameter; anything else as it is. */
const asBadRequest = (err) => (err instanceof endpoint.EndpointRefusal ? badRequest(err.message, { parameter: err.setting, allowed: err.allowed }) : err);

/** rates' text as {open loop's name: requests a second}, or null; each in [1, MAX_ARRIVAL_RATE]. */
function ratesOf(text) {
  if (!text) return null;
  const rates = text.split(',').map(Number);
  if (rates.some((r) => r < 1 || r > MAX_ARRIVAL_RATE)) throw badRequest(`rates must be ${OPEN_NAMES.length} integers in [1, ${MAX_ARRIVAL_RATE}], got ${text}`, { parameter: 'rates', allowed: { min: 1, max: MAX_ARRIVAL_RATE, count: OPEN_NAMES.length } });
  return Object.fromEntries(OPEN_NAMES.map((name, i) => [name, rates[i]]));
}

/**
 * POST /attach's query checked for form, before anything is read or asked: {endpoint: {url, method, headers,
 * probePath, agentUrl}, settings: {durationSeconds, blockMs, rates}}. where: {hosts (the lab's own target hosts,
 * allowed beside loopback), allowRemote}.
 */
function attachParams(query, { hosts, allowRemote }) {
  const params = parseOnlyParams(PARAMS, query);
  if (!params.url) throw badRequest('parameter url is required: the endpoint to load, like http://127.0.0.1:3000/path', { parameter: 'url', allowed: 'http://host:port/path' });
  const options = { allowRemote, hosts, remoteSetting: "the driver's LOAD_ATTACH_ALLOW_REMOTE" };
  try {
    return {
      endpoint: {
        url: endpoint.checkUrl('url', params.url, options),
        method: params.method,
        headers: endpoint.parseHeaders('headers', params.headers),
        probePath: endpoint.checkProbePath('probePath', params.probePath),
        agentUrl: params.agent === 'none' ? null : endpoint.checkUrl('agent', params.agent, options).origin,
      },
      settings: { durationSeconds: params.durationSeconds, blockMs: params.blockMs, rates: ratesOf(params.rates) },
    };
  } catch (err) {
    throw asBadRequest(err);
  }
}

/** The request's body as text (undefined when empty), refused past MAX_BODY_BYTES (413) or when not UTF-8. */
async function bodyOf(req) {
  const { buffer } = await readBody(req, MAX_BODY_BYTES);
  return buffer.length > 0 ? buffer.toString('utf8') : undefined;
}

/**
 * The endpoint (attachParams' with its body) asked as make attach asks it: it answers 2xx, its probe path too, and
 * its agent (when one is named) is the lab's; then {suite, attachment} for config ({scrapeTargetsDir, prometheusUrl}).
 */
async function attachRun(config, { endpoint: ep, settings }) {
  let info = null;
  try {
    await endpoint.checkAnswers('url', ep);
    if (ep.probePath) await endpoint.checkProbe('probePath', ep.url, ep.probePath);
    if (ep.agentUrl) info = await endpoint.agentInfo('agent', ep.agentUrl);
  } catch (err) {
    throw asBadRequest(err);
  }
  const attachment = scrapeAttachment(config, attachmentOf(ep, info));
  return { suite: attachSuiteFor(ep, info, Object.assign({ unscraped: attachment.unscraped }, settings)), attachment, info };
}

module.exports = { attachParams, bodyOf, attachRun, MAX_BODY_BYTES, PARAMS };
