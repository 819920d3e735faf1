'use strict';
// Generated documents, kept for the next runs so that generation is never timed: a small LRU, because each entry
// holds a whole text (about 11 MB of UTF-16 at the default size, 22 MB at the workload's cap).
const { csvDocument } = require('./csv-document');

function createDocumentCache(capacity = 3) {
  const documents = new Map(); // insertion order = least recently used first
  return function documentFor({ seed, rows, chunkChars }) {
    const key = `${seed}/${rows}/${chunkChars}`;
    let document = documents.get(key);
    if (document === undefined) {
      document = csvDocument({ seed, rows, chunkChars });
      if (documents.size >= capacity) documents.delete(documents.keys().next().value);
    } else {
      documents.delete(key);
    }
    documents.set(key, document);
    return document;
  };
}

module.exports = { createDocumentCache };
