'use strict';
// The process of native-reference.js: the document's UTF-8 bytes on stdin, the sha256 and length of JSON.stringify's
// text of JSON.parse's value out as one line of JSON. Its own heap, capped by the parent's --max-old-space-size,
// holds the value; the service's holds nothing of it. Node 14 syntax.
const crypto = require('crypto');

const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const canonical = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  process.stdout.write(`${JSON.stringify({ hash: crypto.createHash('sha256').update(canonical).digest('hex'), bytes: Buffer.byteLength(canonical) })}\n`);
});
