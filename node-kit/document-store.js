'use strict';
// The documents users bring to the lab (`make try`, PUT /documents), kept by the sha256 of their text, so that a run
// names one as document=<sha256> in place of a generated document's parameters. Bounded in count and in bytes of
// text; when a new one needs room the least recently used is dropped, never one a run holds. Node 14 syntax.
const { HttpError, busy } = require('./errors');

/**
 * The store's caps and the largest and deepest document a PUT /documents takes (CONTRACT.md, "Users' documents"),
 * read through envInteger(name, default) as http-server.js' stallTimeouts are: one set of defaults for the services
 * and the load driver. Deeper than native JSON.stringify goes on the lab's Node lines, about 3 600 levels inside a
 * request, is refused.
 */
function documentSettings(envInteger) {
  return {
    maxCount: envInteger('DOCUMENTS_MAX_COUNT', 8),
    maxBytes: envInteger('DOCUMENTS_MAX_BYTES', 64 * 1024 * 1024),
    maxDocumentBytes: envInteger('DOCUMENT_MAX_BYTES', 64 * 1024 * 1024),
    maxDepth: envInteger('DOCUMENT_MAX_DEPTH', 2000),
  };
}

/**
 * maxCount documents and maxBytes of their text at most; memory (optional): document-memory.js' budget of the runs on
 * them, which the store carries to the workloads and the upload.
 */
function createDocumentStore({ maxCount, maxBytes, memory = null }) {
  // Texts only: a parsed value costs several times its text (a 20 MB records document held ~80 MB of RSS with its
  // value), which the byte cap would not see. A run that needs the value parses the text (js-serializers keeps the
  // last one parsed).
  const documents = new Map(); // sha256 -> {sha256, kind, bytes, text, reference, check, holds}, least recently used first
  let storedBytes = 0;
  // What keeping documents cost this process, counted (metrics.js exports it): checks of a document's whole text
  // (document-check.js' checkDocumentText, JSON or CSV) and parses of it into a value to make its reference. Each
  // document is checked and parsed at most once: one already kept is known by its sha256 before either.
  const work = { checks: 0, parses: 0 };

  const touch = (entry) => {
    documents.delete(entry.sha256);
    documents.set(entry.sha256, entry);
  };

  /** Drops unheld documents, least recently used first, until one of `bytes` fits; false if the held ones leave no room. */
  function makeRoom(bytes) {
    for (const entry of Array.from(documents.values())) {
      if (documents.size < maxCount && storedBytes + bytes <= maxBytes) return true;
      if (entry.holds > 0) continue;
      documents.delete(entry.sha256);
      storedBytes -= entry.bytes;
    }
    return documents.size < maxCount && storedBytes + bytes <= maxBytes;
  }

  return {
    memory,
    work,

    /**
     * Keeps a document ({sha256, kind, bytes, text, reference, check}: kind 'json' or 'csv'; reference is what every
     * run's output is checked against, for JSON native JSON.stringify's text of its value (native-reference.js), for
     * CSV the rows hash of the reference parser's rows; check what its check found, document-check.js' for JSON);
     * returns {sha256, kind, bytes, check, created}. Throws 413 for a document larger than the whole store, 503 when
     * the documents runs hold leave no room.
     */
    add({ sha256, kind = 'json', bytes, text, reference, check = null }) {
      const known = documents.get(sha256);
      if (known) {
        touch(known);
        return { sha256, kind: known.kind, bytes, check: known.check, created: false };
      }
      if (bytes > maxBytes) throw new HttpError(413, `the document (${bytes} bytes) is larger than the store (${maxBytes} bytes)`, { limitBytes: maxBytes });
      if (!makeRoom(bytes)) throw busy('the stored documents are all in use by runs; retry when they end', { maxCount, maxBytes });
      documents.set(sha256, { sha256, kind, bytes, text, reference, check, holds: 0 });
      storedBytes += bytes;
      return { sha256, kind, bytes, check, created: true };
    },

    /** A stored document's {sha256, kind, bytes, check, created: false} (a use: it moves last), or null. */
    find(sha256) {
      const known = documents.get(sha256);
      if (!known) return null;
      touch(known);
      return { sha256, kind: known.kind, bytes: known.bytes, check: known.check, created: false };
    },

    /** True when the document is stored (used or not: a look does not count as a use). */
    has: (sha256) => documents.has(sha256),

    /** The document for a run, held (never dropped) until release(); a 404 naming how to add one if it is not here. */
    hold(sha256) {
      const entry = documents.get(sha256);
      if (!entry) throw new HttpError(404, `no document ${sha256} here: PUT /documents adds one`, { parameter: 'document', stored: Array.from(documents.keys()) });
      touch(entry);
      entry.holds++;
      let released = false;
      return {
        sha256,
        kind: entry.kind,
        text: entry.text,
        bytes: entry.bytes,
        reference: entry.reference,
        check: entry.check,
        release() {
          if (!released) entry.holds--;
          released = true;
        },
      };
    },

    /** What /info and GET /documents show: the caps, and each document from the least recently used. */
    describe() {
      return {
        maxCount,
        maxBytes,
        count: documents.size,
        bytes: storedBytes,
        documents: Array.from(documents.values()).map((e) => ({ sha256: e.sha256, kind: e.kind, bytes: e.bytes, inUse: e.holds > 0 })),
      };
    },
  };
}

module.exports = { createDocumentStore, documentSettings };
