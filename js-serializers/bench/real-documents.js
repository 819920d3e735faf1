'use strict';
// Real-world JSON that no one here wrote: files of data packages pinned in bench/corpus/package.json (installed with
// `npm ci` there, as `make bench-shapes-quick` does; never committed). One document per kind the issue named: an API
// description, two compatibility tables, geographic data and emoji data, from 0.8 to 21 MB, each read as its package
// ships it (the text parse is timed on) and parsed once for stringify. Node 14 syntax.
const fs = require('fs');
const path = require('path');

const CORPUS_DIR = path.join(__dirname, 'corpus');

const DOCUMENTS = [
  { name: 'MDN browser compat data', file: '@mdn/browser-compat-data/data.json' },
  { name: 'GitHub REST API description (OpenAPI)', file: '@octokit/openapi/generated/api.github.com.json' },
  { name: 'caniuse full data', file: 'caniuse-db/fulldata-json/data-2.0.json' },
  { name: 'world atlas countries (TopoJSON)', file: 'world-atlas/countries-10m.json' },
  { name: 'emojibase data (bn)', file: 'emojibase-data/bn/data.json' },
  { name: 'emojibase data (en)', file: 'emojibase-data/en/data.json' },
];

/**
 * The documents with their absolute paths, or throws saying how to install them. (By path, not require.resolve: a
 * package's exports need not list its data files.)
 */
function documentFiles() {
  return DOCUMENTS.map((doc) => {
    const file = path.join(CORPUS_DIR, 'node_modules', doc.file);
    if (!fs.existsSync(file)) {
      throw new Error(`${doc.file} not installed: run \`npm ci\` in ${path.relative(process.cwd(), CORPUS_DIR)} with Node 24's npm`);
    }
    return Object.assign({}, doc, { path: file });
  });
}

/** Each document as {name, text: () => its text}. */
function realDocuments() {
  return documentFiles().map((doc) => ({ name: doc.name, text: () => fs.readFileSync(doc.path, 'utf8') }));
}

module.exports = { realDocuments, DOCUMENTS, CORPUS_DIR };
