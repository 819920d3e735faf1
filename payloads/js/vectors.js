'use strict';
// Which documents vectors.json pins, and how a runtime checks itself against them. Shared by make-vectors.js and the
// Node services' tests; other runtimes read ../vectors.json directly.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { generate, mulberry32, TRANSFER_CASES } = require('./index');

const VECTORS_FILE = path.join(__dirname, '..', 'vectors.json');

// Small ones carry their JSON in full, so a failing runtime can diff text, not just hashes.
const WRITE_OUT_JSON_UP_TO_BYTES = 4096;

const PINNED = [
  { document: 'records', seed: 1, size: 1 },
  { document: 'records', seed: 42, size: 100 },
  { document: 'records', seed: 7, size: 10000 },
  { document: 'objects', seed: 1, size: 1 },
  { document: 'objects', seed: 2, size: 1000 },
  { document: 'objects', seed: 3, size: 10000 },
  ...TRANSFER_CASES.map((name) => ({ document: 'transfer', seed: 1, case: name })),
];

const PRNG_SEEDS = [1, 2147483647];
const PRNG_OUTPUTS = 8;

function sha256(text) {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

function describe(spec) {
  const json = JSON.stringify(generate(spec));
  const entry = Object.assign({}, spec, { bytes: Buffer.byteLength(json), sha256: sha256(json) });
  if (entry.bytes <= WRITE_OUT_JSON_UP_TO_BYTES) entry.json = json;
  return entry;
}

function computeVectors() {
  return {
    spec: 'payloads/SPEC.md',
    prng: PRNG_SEEDS.map((seed) => {
      const next = mulberry32(seed);
      return { seed, outputs: Array.from({ length: PRNG_OUTPUTS }, () => next()) };
    }),
    documents: PINNED.map(describe),
  };
}

function readVectors() {
  return JSON.parse(fs.readFileSync(VECTORS_FILE, 'utf8'));
}

module.exports = { VECTORS_FILE, computeVectors, readVectors, sha256 };
