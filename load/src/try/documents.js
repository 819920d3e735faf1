'use strict';
// The driver's PUT /documents (CONTRACT.md, "The load driver's PUT /documents"): a user's JSON or CSV document,
// refused exactly as the services refuse one (node-kit/document-upload.js' readDocument: 415, 413 before the body is
// read, 400 naming the line and column, 400 for its depth; a CSV by csv-parsers/user-document.js' reference parser,
// 400 naming the row; another site's page gets server.js' 403 before this), kept by its sha256 in a bounded store of
// its own (node-kit/document-store.js), and handed to every target whose /info says it keeps documents of its kind
// (documents.kinds; a service without it takes JSON only). A CSV's cap on cells is each service's own (the memory a
// run holds is theirs): a service refuses one past it with 413, named in the answer. The answer says, per target,
// whether it stored it or why not. A try run hands the document again before it starts (try-suite.js), so a service
// restarted, or one that dropped it for room, has it back.
const { readDocument, MEDIA_TYPES } = require('@lab/node-kit/document-upload');
const { createDocumentStore } = require('@lab/node-kit/document-store');
const { csvDocumentCheck } = require('@lab/csv-parsers/user-document');


// Generous: a service parses and hashes the document before it answers, and a 64 MB one takes seconds on a busy machine.
const HAND_OFF_TIMEOUT_MS = 120000;
const INFO_TIMEOUT_MS = 5000;

/** Why a fetch failed, in words: a timeout, a refused connection (its code), or its message. */
const failure = (err) => (err.name === 'TimeoutError' ? 'no answer in time' : err.cause ? err.cause.code || err.cause.message : err.message);

/**
 * {stored: true, status, findings (a JSON document's, as the target answered them)} or {stored: false, status?, error}
 * for one target (its base url) and the held document.
 */
async function handTo(url, { text, kind }) {
  let info;
  try {
    const res = await fetch(`${url}/info`, { signal: AbortSignal.timeout(INFO_TIMEOUT_MS) });
    if (!res.ok) return { stored: false, status: res.status, error: `its /info answered HTTP ${res.status}` };
    info = await res.json();
  } catch (err) {
    return { stored: false, error: `its /info did not answer: ${failure(err)}` };
  }
  if (!info.documents) return { stored: false, error: 'it keeps no documents (its /info has no "documents")' };
  const kinds = info.documents.kinds || ['json'];
  if (!kinds.includes(kind)) return { stored: false, error: `it takes no ${kind.toUpperCase()} documents (its /info documents.kinds: ${kinds.join(', ')})` };
  try {
    const res = await fetch(`${url}/documents`, { method: 'PUT', headers: { 'Content-Type': MEDIA_TYPES[kind] }, body: text, signal: AbortSignal.timeout(HAND_OFF_TIMEOUT_MS) });
    const body = await res.json().catch(() => ({}));
    // A JSON document's findings are the service's: what that runtime does with each (node-kit/document-findings.js).
    if (res.ok) return Object.assign({ stored: true, status: res.status }, Array.isArray(body.findings) ? { findings: body.findings } : {});
    return { stored: false, status: res.status, error: body.error || `HTTP ${res.status}` };
  } catch (err) {
    return { stored: false, error: `PUT /documents failed: ${failure(err)}` };
  }
}

/**
 * The driver's documents: settings {maxCount, maxBytes, maxDocumentBytes, maxDepth} (node-kit's documentSettings),
 * targets {name: url}. Returns {put(req) -> {status, body}, list(), handOff(sha256, only?) -> {name: result},
 * hold(sha256), work (the store's counts of checks and parses)}.
 */
function createDriverDocuments(settings, targets) {
  const store = createDocumentStore({ maxCount: settings.maxCount, maxBytes: settings.maxBytes });
  // No cap on cells here (each service has its own), and no reference: the driver runs nothing on the document.
  const checkCsv = csvDocumentCheck({ reference: false });

  /** Hands the stored document to every target (or those named in `only`) at once; {name: {stored, status?, error?}}. */
  async function handOff(sha256, only) {
    const held = store.hold(sha256); // a 404 naming what is stored when the driver has no such document
    try {
      const to = Object.entries(targets).filter(([name]) => !only || only.includes(name));
      const entries = await Promise.all(to.map(async ([name, url]) => [name, await handTo(url, held)]));
      return Object.fromEntries(entries);
    } finally {
      held.release();
    }
  }

  return {
    async put(req) {
      // A document the driver holds is not read again; the driver runs nothing on the value and keeps only the text.
      const document = await readDocument(req, { maxBytes: settings.maxDocumentBytes, maxDepth: settings.maxDepth, csv: checkCsv, known: (sha256) => store.find(sha256), work: store.work });
      const kept = document.known ? document : store.add(document);
      const services = await handOff(document.sha256);
      const shape = document.kind === 'csv' ? { rows: document.check.rows } : { depth: document.check.depth };
      return {
        status: kept.created ? 201 : 200,
        body: Object.assign({ sha256: document.sha256, kind: document.kind, bytes: document.bytes }, shape, { run: `POST /runs?suite=try&document=${document.sha256}`, services }),
      };
    },
    list: () => store.describe(),
    handOff,
    hold: (sha256) => store.hold(sha256),
    work: store.work,
    settings,
  };
}

module.exports = { createDriverDocuments };
