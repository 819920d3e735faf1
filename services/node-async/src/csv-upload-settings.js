'use strict';
// POST /csv's caps, read once from the environment and refused at start-up when their worst case does not fit the
// heap: CSV_MAX_UPLOADS parses at once, each holding at most csv-parsers/upload-memory.js' bound for a body of
// CSV_MAX_BYTES bytes and CSV_MAX_CELLS cells (the route refuses a body past either cap as it arrives, before an
// approach parses it), must fit HEAP_SHARE of V8's heap limit. The rest of the heap is the service's own: the cached
// documents of the workloads (~0.6 GB at their caps), runs and offload answers. With every setting allowed by this
// check, no mix of uploads can take the process out of memory.
const v8 = require('v8');
const { envInteger } = require('@lab/node-kit');
const { parseBound } = require('@lab/csv-parsers/upload-memory');

const HEAP_SHARE = 0.5;

// Defaults that fit half of a 2 GiB heap (V8's limit on a host with 8 GB of memory): two uploads of the
// async-char-streams document's size and shape (5.4 MB, 410 000 cells) at once, in any approach.
const DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxCells: 512 * 1024, maxUploads: 2 };

const MIB = 1024 * 1024;
const mib = (bytes) => `${Math.ceil(bytes / MIB)} MiB`;

function uploadConfig() {
  return {
    maxBytes: envInteger('CSV_MAX_BYTES', DEFAULTS.maxBytes),
    maxCells: envInteger('CSV_MAX_CELLS', DEFAULTS.maxCells),
    maxUploads: envInteger('CSV_MAX_UPLOADS', DEFAULTS.maxUploads),
  };
}

/**
 * settings: uploadConfig()'s shape; heapLimit: bytes (default: this process's heap_size_limit). Returns settings, or
 * throws an Error naming the settings when one is below 1 or their worst case does not fit HEAP_SHARE of the heap.
 */
function checkUploadSettings(settings, heapLimit = v8.getHeapStatistics().heap_size_limit) {
  const { maxBytes, maxCells, maxUploads } = settings;
  for (const [name, value] of [['CSV_MAX_BYTES', maxBytes], ['CSV_MAX_CELLS', maxCells], ['CSV_MAX_UPLOADS', maxUploads]]) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not ${value}`);
  }
  const perUpload = parseBound({ bytes: maxBytes, cells: maxCells });
  const budget = HEAP_SHARE * heapLimit;
  if (maxUploads * perUpload > budget) {
    const fit = Math.floor(budget / perUpload);
    throw new Error(
      `CSV_MAX_UPLOADS=${maxUploads} uploads of CSV_MAX_BYTES=${maxBytes} bytes and CSV_MAX_CELLS=${maxCells} cells may hold ` +
        `${maxUploads} × ${mib(perUpload)}, more than ${HEAP_SHARE * 100}% of the heap limit (${mib(heapLimit)}): ` +
        `${fit >= 1 ? `at most ${fit} such uploads fit; ` : ''}lower CSV_MAX_UPLOADS, CSV_MAX_BYTES or CSV_MAX_CELLS, or raise --max-old-space-size`,
    );
  }
  return settings;
}

module.exports = { uploadConfig, checkUploadSettings, HEAP_SHARE, DEFAULTS };
