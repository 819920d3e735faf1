'use strict';
// Generated documents, kept for the next runs so that generation is never timed: a small LRU, because each entry
// holds a whole text (about 11 MB of UTF-16 at the default size, 22 MB at the workload's cap). A document is made in
// slices, and cached as a promise so that runs asking for it at once share the making.
const { lru } = require('@lab/node-kit');
const { csvDocumentInSlices } = require('./csv-document');

function createDocumentCache(capacity = 3) {
  const cached = lru(capacity);
  return ({ seed, rows, chunkChars }) => cached(`${seed}/${rows}/${chunkChars}`, () => csvDocumentInSlices({ seed, rows, chunkChars }));
}

module.exports = { createDocumentCache };
