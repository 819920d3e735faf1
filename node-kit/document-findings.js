'use strict';
// What in a user's JSON document runtimes may treat differently (issue 36): a finding is not a refusal, the document
// is stored and runs; PUT /documents says what THIS runtime does with each (CONTRACT.md, "Findings"). They are found
// by the lab's one reading of a document (json-text-scan.js), in the same pass that checks it. Node 14 syntax.

const { JsonTextScan, TOPICS } = require('./json-text-scan');

// What JSON.parse and JSON.stringify do with each, the same on every Node line the lab runs (14 and 24: V8 has
// written lone surrogates as \u escapes since 7.2, "well-formed JSON.stringify"); checked by document-findings.test.js.
const NODE_DETAILS = {
  'large-integer': 'JSON.parse rounds the integer to the nearest double (a JS number), so a run carries that double and writes it back as its shortest digits, not the digits sent',
  'negative-zero': 'JSON.parse reads -0 as the number -0, and JSON.stringify writes it back as 0',
  'duplicate-key': "JSON.parse keeps the last member's value, in the place of the first member of that name; the others are gone",
  'lone-surrogate': 'JSON.parse keeps the unpaired code unit in the string, and JSON.stringify writes it back as the same \\u escape (as UTF-8 bytes it would become U+FFFD)',
  'number-format': 'JSON.parse reads the value alone, and JSON.stringify writes it back in its shortest form (1.0 as 1, 1e2 as 100); a number past the double range (1e400) becomes Infinity, which JSON.stringify writes as null',
};

/**
 * The findings of a JSON text that JSON.parse accepts: [{topic, path, count}] in TOPICS' order, path the JSON
 * pointer of the first instance (of a duplicate key: its second member), count the instances.
 */
const scanFindings = (text) => new JsonTextScan(text).run().result().findings;

/** The findings with `detail` from details ({topic: words}: what the runtime answering does with each). */
const describeFindings = (findings, details) => findings.map((f) => Object.assign({}, f, { detail: details[f.topic] }));

module.exports = { scanFindings, describeFindings, TOPICS, NODE_DETAILS };
