'use strict';
// Parses the default document with the named approaches in a worker thread and reports each one's row count and
// hash. Not on the test's own thread: node:test installs an async hook there that makes every promise far slower
// (the per-character async approaches take ~15× as long, 20 s instead of 1.3 s), which the worker's fresh isolate
// does not have.
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

/**
 * names: approaches to run. libraryPaths: {csvParse, iterTools} resolved module paths (either optional).
 * Resolves {rows, rowsHash, results: {name: {rows, hash} | {error}}}: the document's, then each approach's.
 */
function parseDefaultDocument(names, libraryPaths = {}) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { names, libraryPaths } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the document worker exited with ${code} before it answered`)));
  });
}

async function runInWorker({ names, libraryPaths }) {
  const { csvApproaches } = require('../approaches');
  const { csvDocument } = require('../csv-document');
  const { sourceFor } = require('../sources');
  const { rowsHash } = require('../rows-hash');
  const libraries = Object.fromEntries(Object.entries(libraryPaths).map(([name, path]) => [name, require(path)]));
  const approaches = csvApproaches(libraries);
  const document = csvDocument();
  const results = {};
  for (const name of names) {
    try {
      const rows = await approaches[name](sourceFor(approaches[name], document.chunks), {});
      results[name] = { rows: rows.length, hash: rowsHash(rows) };
    } catch (error) {
      results[name] = { error: String(error.stack || error) };
    }
  }
  parentPort.postMessage({ rows: document.rows, rowsHash: document.rowsHash, results });
}

if (!isMainThread && workerData && workerData.names) runInWorker(workerData);

module.exports = { parseDefaultDocument };
