'use strict';
// The store of users' documents: bounded in count and bytes, the least recently used dropped for a new one, never
// one a run holds; caps and contents as /info shows them.
const test = require('node:test');
const assert = require('node:assert');
const { createDocumentStore } = require('../document-store');

const doc = (name, bytes) => ({ sha256: name, bytes, text: name.repeat(bytes).slice(0, bytes), reference: `ref-${name}` });
const names = (store) => store.describe().documents.map((d) => d.sha256);

test('keeps at most maxCount documents and maxBytes, dropping the least recently used first', () => {
  const store = createDocumentStore({ maxCount: 3, maxBytes: 100 });
  for (const name of ['a', 'b', 'c']) assert.strictEqual(store.add(doc(name, 10)).created, true);
  store.hold('a').release(); // a used: b is now the least recently used
  store.add(doc('d', 10));
  assert.deepStrictEqual(names(store), ['c', 'a', 'd']);
  store.add(doc('big', 91)); // needs 91 of 100 bytes: c, a and d all go
  assert.deepStrictEqual(names(store), ['big']);
  assert.deepStrictEqual(Object.assign({}, store.describe(), { documents: undefined }), { maxCount: 3, maxBytes: 100, count: 1, bytes: 91, documents: undefined });
});

test('adding a document already there keeps one copy and marks it used', () => {
  const store = createDocumentStore({ maxCount: 2, maxBytes: 100 });
  store.add(doc('a', 10));
  store.add(doc('b', 10));
  assert.strictEqual(store.has('a'), true);
  assert.strictEqual(store.has('z'), false);
  assert.strictEqual(store.add(doc('a', 10)).created, false);
  store.add(doc('c', 10));
  assert.deepStrictEqual(names(store), ['a', 'c']);
  assert.strictEqual(store.describe().bytes, 20);
});

test('a document a run holds is never dropped; with no room left but held ones, a 503; larger than the store, a 413', () => {
  const store = createDocumentStore({ maxCount: 2, maxBytes: 100 });
  store.add(doc('a', 40));
  store.add(doc('b', 40));
  const held = store.hold('a');
  const alsoHeld = store.hold('b');
  assert.throws(() => store.add(doc('c', 10)), (err) => err.status === 503 && err.headers['Retry-After'] !== undefined);
  alsoHeld.release();
  alsoHeld.release(); // a second release changes nothing
  store.add(doc('c', 10)); // b goes, a stays held
  assert.deepStrictEqual(names(store), ['a', 'c']);
  assert.deepStrictEqual(store.describe().documents.map((d) => d.inUse), [true, false]);
  assert.deepStrictEqual([held.sha256, held.text, held.reference], ['a', 'a'.repeat(40), 'ref-a']);
  assert.throws(() => store.add(doc('huge', 101)), (err) => err.status === 413 && err.details.limitBytes === 100);
  assert.throws(() => store.hold('nope'), (err) => err.status === 404 && /PUT \/documents/.test(err.message));
});
