'use strict';
// PUT /documents: a user's own JSON document (or CSV, where the service runs CSV: its `csv` check) into the service's
// store (document-store.js), refused clearly and without harm when it is not one the runtime can take: 415 unless
// sent as a kind it takes (uncompressed UTF-8), 413 over the cap before the body is read (or as soon as it passes
// it), 400 for text that is not UTF-8 or not JSON (the line, column and an excerpt of the first error) or nested
// deeper than this runtime's serializer can go, or CSV its check refuses, 413 for a JSON document whose value this
// runtime could not hold (document-memory.js). A JSON document's answer has its findings (document-findings.js),
// said for this runtime. GET /documents lists what is stored. The body is hashed as it arrives and a document already
// stored is answered as it was, without reading it again; every step after keeps the event loop turning (the check in
// slices, the reference in a process of its own). Node 14 syntax.
const { HttpError } = require('./errors');
const { readBody, JSON_TYPE } = require('./json-body');
const { checkBodyDeclaration } = require('./body-declaration');
const { checkDocumentText } = require('./document-check');
const { describeFindings, NODE_DETAILS } = require('./document-findings');
const { valueBytes } = require('./document-memory');
const { nativeReference } = require('./native-reference');

const CSV_TYPE = /^text\/csv\s*(?:;|$)/i;

/** The document kinds a store takes, as /info's `documents.kinds` and a 415's `accepted` name them. */
const kindsOf = (csv) => (csv ? ['json', 'csv'] : ['json']);
const MEDIA_TYPES = { json: 'application/json', csv: 'text/csv' };

/** The kind a request declares its body to be, or the 415 (csv: whether CSV is taken). */
function kindOf(req, csv) {
  const type = req.headers['content-type'] || '';
  const kind = JSON_TYPE.test(type) ? 'json' : csv && CSV_TYPE.test(type) ? 'csv' : null;
  if (kind !== null) return kind;
  checkBodyDeclaration(req); // an unreadable declaration is named first
  const accepted = kindsOf(csv).map((k) => MEDIA_TYPES[k]);
  const what = csv ? 'as JSON (Content-Type: application/json) or CSV (Content-Type: text/csv)' : 'as JSON: Content-Type: application/json (this service takes no CSV documents)';
  throw new HttpError(415, `send the document ${what}`, { accepted });
}

/**
 * {sha256, kind, bytes, text, check, buffer} of a request's document (check: checkDocumentText's, and `reference`
 * for CSV), or the refusal (see the header). known(sha256) (optional) -> a stored document's {check} or null: one
 * already stored is not checked again, and is returned with `known: true` and no text. work (optional): the store's
 * counts (document-store.js), which the check adds to.
 */
async function readDocument(req, { maxBytes, maxDepth, csv, known, work = null }) {
  const kind = kindOf(req, csv);
  const { buffer, sha256 } = await readBody(req, maxBytes);
  const stored = known ? known(sha256) : null;
  if (stored) return { sha256, kind: stored.kind, bytes: buffer.length, check: stored.check, known: true };
  const text = buffer.toString('utf8');
  const checked = await checkDocumentText(kind, text, { maxDepth, csv }, work);
  return { sha256, kind, bytes: buffer.length, text, buffer, check: checked.check, reference: checked.reference };
}

/**
 * The reference of a JSON document that passed its check, with the memory its value takes reserved meanwhile: the
 * runtime's (runtime.reference(document, memory)) or native-reference.js' {hash, bytes}. A document of more values
 * than maxNodes, or whose value could never be held here, is refused now, with 413 naming the nodes, before anything
 * parses it. work: the store's counts, which the parse adds to.
 */
async function referenceOf(document, memory, maxNodes, runtime, work) {
  const { nodes } = document.check;
  if (nodes > maxNodes) throw new HttpError(413, `the document has ${nodes} values (nodes); a run here holds at most ${maxNodes} in memory`, { nodes, limitNodes: maxNodes });
  const value = valueBytes({ counts: document.check.counts, bytes: document.bytes });
  const tooLarge = (need) => {
    const limitNodes = Math.floor((nodes * memory.limitBytes) / need);
    return new HttpError(413, `a run on the document would hold about ${Math.round(need / 1e6)} MB of this service's heap, of the ${Math.round(memory.limitBytes / 1e6)} MB runs on users' documents may take (DOCUMENT_MEMORY_BYTES): it has ${nodes} values, and this service holds about ${limitNodes} of this kind`, { nodes, limitNodes });
  };
  if (value > memory.limitBytes) throw tooLarge(value);
  const release = memory.reserve(value, 'checking the document');
  let reference;
  work.parses++;
  try {
    reference = runtime.reference ? await runtime.reference(document, memory) : await nativeReference(document.buffer, memory.limitBytes);
  } finally {
    release();
  }
  // A stringify run holds the value and its text (two bytes a character at most) at once.
  if (typeof reference.bytes === 'number' && value + 2 * reference.bytes > memory.limitBytes) throw tooLarge(value + 2 * reference.bytes);
  return reference;
}

/**
 * The routes (app.js addRoutes' form) of a store and its caps {maxDocumentBytes, maxDepth, maxNodes}, with csv
 * (readDocument's) when the service takes CSV documents. A user's documents are theirs: other sites' pages and
 * rebound DNS names reach neither route, as they reach no route but the open ones (app.js, cross-site.js). runtime:
 * {findingDetails ({topic: what this runtime does with it}, default Node's), reference (optional: (a JSON document
 * {sha256, kind, bytes, text, buffer, check}, the store's memory budget) -> a promise of the reference its runs are
 * checked against, or the refusal of a document this runtime cannot run; default native-reference.js')}.
 */
function documentRoutes(store, { maxDocumentBytes, maxDepth, maxNodes }, csv, runtime = {}) {
  const findingDetails = runtime.findingDetails || NODE_DETAILS;
  return [
    {
      method: 'PUT',
      path: '/documents',
      handlers: [
        async (req, res) => {
          const document = await readDocument(req, { maxBytes: maxDocumentBytes, maxDepth, csv, known: (sha256) => store.find(sha256), work: store.work });
          const kept = document.known
            ? document
            : store.add(Object.assign(document, { reference: document.kind === 'json' ? await referenceOf(document, store.memory, maxNodes, runtime, store.work) : document.reference }));
          // Findings are not refusals: the document is kept and runs; the answer says what this runtime does with them.
          const check = kept.kind === 'json' ? { depth: kept.check.depth, findings: describeFindings(kept.check.findings, findingDetails) } : { rows: kept.check.rows };
          res.status(kept.created ? 201 : 200).json(Object.assign({ sha256: kept.sha256, kind: kept.kind, bytes: kept.bytes }, check, { run: `document=${kept.sha256}` }));
        },
      ],
    },
    { method: 'GET', path: '/documents', handlers: [(req, res) => res.json(store.describe())] },
  ];
}

module.exports = { readDocument, documentRoutes, kindsOf, MEDIA_TYPES };
