'use strict';
// node-kit against test-kit/document-checks.json, the answers every runtime gives a JSON document's text at PUT
// /documents: its findings, or the 400 of a text that is not JSON (line, column, excerpt) or nests too deep. The
// refusals go through readDocument itself, so the order of its checks (not JSON first, then the depth) is held too.
const test = require('node:test');
const assert = require('node:assert');
const { Readable } = require('stream');
const checks = require('@lab/test-kit/document-checks.json');
const { scanFindings } = require('../document-findings');
const { readDocument } = require('../document-upload');

/** An upload of text as a request stream readDocument reads, declared as JSON. */
function upload(text) {
  const req = Readable.from([Buffer.from(text, 'utf8')]);
  req.headers = { 'content-type': 'application/json' };
  return req;
}

/** What PUT /documents answers for text: {findings} or the refusal's fields the vectors name. */
async function answer(text, maxDepth) {
  try {
    await readDocument(upload(text), { maxBytes: 1 << 20, maxDepth });
  } catch (err) {
    if (err.status !== 400) throw err;
    const { line, column, excerpt, depth } = err.details;
    return depth === undefined ? { notJson: { line, column, excerpt } } : { tooDeep: { depth, maxDepth: err.details.maxDepth } };
  }
  return { findings: scanFindings(text).map(({ topic, path, count }) => ({ topic, path, count })) };
}

test('the vectors cover every topic and every kind of refusal', () => {
  const topics = new Set(checks.cases.flatMap((c) => (c.findings || []).map((f) => f.topic)));
  assert.deepStrictEqual(Array.from(topics).sort(), ['duplicate-key', 'large-integer', 'lone-surrogate', 'negative-zero', 'number-format']);
  assert.ok(checks.cases.some((c) => c.notJson) && checks.cases.some((c) => c.tooDeep));
  for (const c of checks.cases) assert.strictEqual(['findings', 'notJson', 'tooDeep'].filter((k) => k in c).length, 1, c.name);
});

for (const c of checks.cases) {
  test(c.name, async () => {
    const expected = {};
    for (const key of ['findings', 'notJson', 'tooDeep']) if (key in c) expected[key] = c[key];
    assert.deepStrictEqual(await answer(c.text, c.maxDepth === undefined ? checks.maxDepth : c.maxDepth), expected);
  });
}
