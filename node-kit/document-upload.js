'use strict';
// PUT /documents: a user's own JSON document into the service's store (document-store.js), refused clearly and
// without harm when it is not one the runtime can take: 415 unless sent as JSON (uncompressed UTF-8), 413 over the
// cap before the body is read (or as soon as it passes it), 400 for text that is not UTF-8 or not JSON (the line,
// column and an excerpt of the first error) or nested deeper than this runtime's serializer can go. GET /documents
// lists what is stored. Node 14 syntax.
const crypto = require('crypto');
const { HttpError, badRequest } = require('./errors');
const { readUtf8Body, JSON_TYPE } = require('./json-body');
const { locateJsonError } = require('./json-syntax-error');
const { checkBodyDeclaration } = require('./body-declaration');
const { checkSameSite, ownNames } = require('./cross-site');

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

/** {sha256, bytes, text, value, depth, reference} of a request's document, or the refusal (see the header). */
async function readDocument(req, { maxBytes, maxDepth }) {
  if (!JSON_TYPE.test(req.headers['content-type'] || '')) {
    checkBodyDeclaration(req); // an unreadable declaration is named first
    throw new HttpError(415, 'send the document as JSON: Content-Type: application/json', { accepted: ['application/json'] });
  }
  const text = await readUtf8Body(req, maxBytes);
  let value;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const at = locateJsonError(text) || { line: 1, column: 1, excerpt: text.slice(0, 48), what: err.message };
    throw badRequest(`the document is not JSON: ${at.what} at line ${at.line}, column ${at.column}`, { line: at.line, column: at.column, excerpt: at.excerpt });
  }
  const depth = nestingDepth(text);
  if (depth > maxDepth) throw badRequest(`the document nests ${depth} levels deep; this service takes at most ${maxDepth}`, { depth, maxDepth });
  const bytes = Buffer.byteLength(text);
  // What every run on it is checked against: native JSON.stringify's text of the value (its parse, for a parse run,
  // serialized again), computed once here, natively, so that no approach under test checks itself.
  const reference = sha256Of(JSON.stringify(value));
  return { sha256: sha256Of(text), bytes, text, value, depth, reference };
}

/**
 * The routes (app.js addRoutes' form) of a store and its caps {maxDocumentBytes, maxDepth}. A user's documents are
 * theirs: other sites' pages and rebound DNS names (cross-site.js) reach neither route; hostNames are the names the
 * service is reached by beside IP addresses and localhost (its compose service name, for the load driver).
 */
function documentRoutes(store, { maxDocumentBytes, maxDepth }, hostNames) {
  const names = ownNames(hostNames);
  const sameSite = (req, res, next) => {
    checkSameSite(req, names);
    next();
  };
  return [
    {
      method: 'PUT',
      path: '/documents',
      handlers: [
        sameSite,
        async (req, res) => {
          const document = await readDocument(req, { maxBytes: maxDocumentBytes, maxDepth });
          const kept = store.add({ sha256: document.sha256, bytes: document.bytes, text: document.text, reference: document.reference });
          res.status(kept.created ? 201 : 200).json({ sha256: kept.sha256, bytes: kept.bytes, depth: document.depth, run: `document=${kept.sha256}` });
        },
      ],
    },
    { method: 'GET', path: '/documents', handlers: [sameSite, (req, res) => res.json(store.describe())] },
  ];
}

module.exports = { readDocument, documentRoutes, nestingDepth };
