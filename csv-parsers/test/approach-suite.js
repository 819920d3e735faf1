'use strict';
// The checks every approach must pass, registered as one group of tests per approach: the corpus at every chunk
// split, malformed input, the default document by hash (in a worker thread, document-worker.js), and stopping on
// its signal. csv-parsers/test runs it for the approaches without libraries, services/node-async/test for the
// library-backed ones with the versions that service pins, so each check runs once.
const { CASES, MALFORMED } = require('./corpus');
const { parseDefaultDocument } = require('./document-worker');
const { csvApproaches } = require('../approaches');
const { sourceFor, SYNC_CHUNKS } = require('../sources');
const { CsvSyntaxError } = require('../csv-error');

const isHighSurrogate = (code) => code >= 0xd800 && code <= 0xdbff;

/**
 * The ways a stream may cut text into chunks: whole, in two at every position (a decoded stream never splits a
 * surrogate pair, so neither do these), and one code point per chunk. The empty text also as no chunk at all.
 */
function chunkings(text) {
  const all = [[text], Array.from(text)];
  for (let at = 1; at < text.length; at++) {
    if (!isHighSurrogate(text.charCodeAt(at - 1))) all.push([text.slice(0, at), text.slice(at)]);
  }
  return all;
}

const describe = (chunks) => JSON.stringify(chunks);

/** A source that aborts `controller` when the approach asks for the second chunk. */
function abortingSource(approach, controller) {
  const chunks = ['a,b\n', 'c,d\n', 'e,f\n'];
  function* sync() {
    yield chunks[0];
    controller.abort(new Error('stopped by the test'));
    yield* chunks.slice(1);
  }
  async function* async() {
    yield* sync();
  }
  return approach.input === SYNC_CHUNKS ? sync() : async();
}

/**
 * names: the approaches to check. libraryPaths: {csvParse, iterTools}, resolved module paths of the libraries
 * (either optional; the caller resolves them from its own node_modules). departures: {name: {accepts: [MALFORMED
 * case names]}} for third-party parsers, which raise their own errors (wrapped in CsvSyntaxError) and may accept
 * some malformed inputs, pinned.
 */
function approachSuite(test, assert, { names, libraryPaths = {}, departures = {} }) {
  const libraries = Object.fromEntries(Object.entries(libraryPaths).map(([library, path]) => [library, require(path)]));
  const approaches = csvApproaches(libraries);
  let documentResults = null;
  const documentOnce = () => documentResults || (documentResults = parseDefaultDocument(names, libraryPaths));
  for (const name of names) {
    const approach = approaches[name];
    const library = departures[name];
    const parse = (chunks) => approach(sourceFor(approach, chunks), {});

    test(`${name}: exists`, () => assert.strictEqual(typeof approach, 'function', `no approach ${name} with libraries ${Object.keys(libraries)}`));

    test(`${name}: every corpus case at every chunk split gives the expected rows`, async () => {
      for (const { name: caseName, text, rows } of CASES) {
        for (const chunks of chunkings(text).concat(text === '' ? [[]] : [])) {
          assert.deepStrictEqual(await parse(chunks), rows, `${caseName}, chunks ${describe(chunks)}`);
        }
      }
    });

    test(`${name}: malformed input throws a CsvSyntaxError${library ? '' : ' naming the row'}`, async () => {
      const accepted = [];
      for (const { name: caseName, text, row, message } of MALFORMED) {
        for (const chunks of chunkings(text)) {
          let error = null;
          try {
            await parse(chunks);
          } catch (caught) {
            error = caught;
          }
          const where = `${caseName}, chunks ${describe(chunks)}`;
          if (error === null) {
            assert.ok(library, `${where}: no error`);
            if (!accepted.includes(caseName)) accepted.push(caseName);
            continue;
          }
          assert.ok(error instanceof CsvSyntaxError, `${where}: ${error.stack}`);
          if (library) continue;
          assert.strictEqual(error.row, row, `${where}: ${error.message}`);
          assert.match(error.message, new RegExp(`^CSV row ${row}: `), where);
          assert.match(error.message, message, where);
        }
      }
      assert.deepStrictEqual(accepted, library ? library.accepts : []);
    });

    test(`${name}: the default document (50 002 rows, 5.4 MB) validates by hash`, async () => {
      const document = await documentOnce();
      const result = document.results[name];
      assert.strictEqual(result.error, undefined, result.error);
      assert.strictEqual(result.rows, document.rows);
      assert.strictEqual(result.hash, document.rowsHash);
    });

    test(`${name}: stops at the next chunk once its signal aborted`, async () => {
      const controller = new AbortController();
      await assert.rejects(approach(abortingSource(approach, controller), { signal: controller.signal }), /stopped by the test/);
    });
  }
}

module.exports = { approachSuite };
