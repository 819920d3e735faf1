'use strict';
// PUT /documents: a user's own JSON document (or CSV, where the service runs CSV: its `csv` check) into the service's
// store (document-store.js), refused clearly and without harm when it is not one the runtime can take: 415 unless
// sent as a kind it takes (uncompressed UTF-8), 413 over the cap before the body is read (or as soon as it passes
// it), 400 for text that is not UTF-8 or not JSON (the line, column and an excerpt of the first error) or nested
// deeper than this runtime's serializer can go, or CSV its check refuses. A JSON document's answer has its findings
// (document-findings.js), said for this runtime. GET /documents lists what is stored. Node 14 syntax.
const crypto = require('crypto');
const { HttpError, badRequest } = require('./errors');
const { readUtf8Body, JSON_TYPE } = require('./json-body');
const { locateJsonError } = require('./json-syntax-error');
const { checkBodyDeclaration } = require('./body-declaration');
const { scanFindings, describeFindings, NODE_DETAILS } = require('./document-findings');

const sha256Of = (text) => crypto.createHash('sha256').update(text).digest('hex');

/** How deep a JSON text nests (containers inside containers), read outside its strings. */
function nestingDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

const CSV_TYPE = /^text\/csv\s*(?:;|$)/i;

/** The document kinds a store takes, as /info's `documents.kinds` and a 415's `accepted` name them. */
const kindsOf = (csv) => (csv ? ['json', 'csv'] : ['json']);
const MEDIA_TYPES = { json: 'application/json', csv: 'text/csv' };

/**
 * {sha256, kind, bytes, text, depth} of a request's JSON document, or {sha256, kind: 'csv', bytes, text, rows,
 * reference} of a CSV one when `csv` (text -> Promise<{reference, rows}>, throwing its refusal) is given; or the
 * refusal (see the header). A JSON document's reference is the runtime's to take (documentRoutes' runtime.reference).
 */
async function readDocument(req, { maxBytes, maxDepth, csv }) {
  const type = req.headers['content-type'] || '';
  const kind = JSON_TYPE.test(type) ? 'json' : csv && CSV_TYPE.test(type) ? 'csv' : null;
  if (kind === null) {
    checkBodyDeclaration(req); // an unreadable declaration is named first
    const accepted = kindsOf(csv).map((k) => MEDIA_TYPES[k]);
    const what = csv ? 'as JSON (Content-Type: application/json) or CSV (Content-Type: text/csv)' : 'as JSON: Content-Type: application/json (this service takes no CSV documents)';
    throw new HttpError(415, `send the document ${what}`, { accepted });
  }
  const text = await readUtf8Body(req, maxBytes);
  if (kind === 'csv') {
    const checked = await csv(text);
    return { sha256: sha256Of(text), kind, bytes: Buffer.byteLength(text), text, rows: checked.rows, reference: checked.reference };
  }
  try {
    JSON.parse(text);
  } catch (err) {
    const at = locateJsonError(text) || { line: 1, column: 1, excerpt: text.slice(0, 48), what: err.message };
    throw badRequest(`the document is not JSON: ${at.what} at line ${at.line}, column ${at.column}`, { line: at.line, column: at.column, excerpt: at.excerpt });
  }
  const depth = nestingDepth(text);
  if (depth > maxDepth) throw badRequest(`the document nests ${depth} levels deep; this service takes at most ${maxDepth}`, { depth, maxDepth });
  return { sha256: sha256Of(text), kind, bytes: Buffer.byteLength(text), text, depth };
}

/**
 * The default reference of a JSON document (documentRoutes' runtime.reference): the sha256 of native JSON.stringify's
 * text of its value (its parse, for a parse run, serialized again), taken once at upload, natively, so that no
 * approach under test checks itself.
 */
const nativeReference = async (document) => sha256Of(JSON.stringify(JSON.parse(document.text)));

/**
 * The routes (app.js addRoutes' form) of a store and its caps {maxDocumentBytes, maxDepth}, with csv (readDocument's)
 * when the service takes CSV documents. A user's documents are theirs: other sites' pages and rebound DNS names
 * reach neither route, as they reach no route but the open ones (app.js, cross-site.js). runtime: {findingDetails ({topic: what this runtime
 * does with it}, default Node's), reference (optional: a JSON document {sha256, kind, bytes, text, depth} -> a promise
 * of the reference its runs are checked against, or the refusal of a document this runtime cannot run; default
 * nativeReference)}.
 */
function documentRoutes(store, { maxDocumentBytes, maxDepth }, csv, runtime = {}) {
  const findingDetails = runtime.findingDetails || NODE_DETAILS;
  return [
    {
      method: 'PUT',
      path: '/documents',
      handlers: [
        async (req, res) => {
          const document = await readDocument(req, { maxBytes: maxDocumentBytes, maxDepth, csv });
          const json = document.kind === 'json';
          // A reference costs a pass over the document: not again for one already stored (a try run hands its document
          // to every service again before it starts).
          const reference = !json ? document.reference : store.has(document.sha256) ? null : await (runtime.reference || nativeReference)(document);
          const kept = store.add({ sha256: document.sha256, kind: document.kind, bytes: document.bytes, text: document.text, reference });
          // Findings are not refusals: the document is kept and runs; the answer says what this runtime does with them.
          const shape = json ? { depth: document.depth, findings: describeFindings(scanFindings(document.text), findingDetails) } : { rows: document.rows };
          res.status(kept.created ? 201 : 200).json(Object.assign({ sha256: kept.sha256, kind: kept.kind, bytes: kept.bytes }, shape, { run: `document=${kept.sha256}` }));
        },
      ],
    },
    { method: 'GET', path: '/documents', handlers: [(req, res) => res.json(store.describe())] },
  ];
}

module.exports = { readDocument, documentRoutes, nativeReference, nestingDepth, kindsOf };
