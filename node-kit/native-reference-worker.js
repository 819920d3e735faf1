'use strict';
// The worker of native-reference.js: the document's UTF-8 bytes in, the sha256 and length of JSON.stringify's text of
// JSON.parse's value out. Its own heap, capped by the parent, holds the value; the service's holds nothing of it.
// Node 14 syntax.
const crypto = require('crypto');
const { parentPort, workerData } = require('worker_threads');

const text = Buffer.from(workerData.bytes).toString('utf8');
const canonical = JSON.stringify(JSON.parse(text));
parentPort.postMessage({ hash: crypto.createHash('sha256').update(canonical).digest('hex'), bytes: Buffer.byteLength(canonical) });
