'use strict';
// Real-world JSON that no one here wrote: files of data packages pinned in bench/corpus/package.json (installed with
// `npm ci` there, as `make bench-shapes-quick` and `make bench-shapes` do; never committed). One document per kind the issue named: an API
// description, two compatibility tables, geographic data and emoji data, from 0.8 to 21 MB, and an icon set (issue 61:
// a map of thousands of objects holding SVG paths, a shape fast lost on), each read as its package ships it (the text
// parse is timed on) and parsed once for stringify. Node 14 syntax.
const fs = require('fs');
const path = require('path');

const CORPUS_DIR = path.join(__dirname, 'corpus');

// group: the kind of document, one summary line each in the benchmarks (family-summary.js).
const DOCUMENTS = [
  { name: 'MDN browser compat data', group: 'compatibility tables', file: '@mdn/browser-compat-data/data.json' },
  { name: 'GitHub REST API description (OpenAPI)', group: 'API description', file: '@octokit/openapi/generated/api.github.com.json' },
  { name: 'caniuse full data', group: 'compatibility tables', file: 'caniuse-db/fulldata-json/data-2.0.json' },
  { name: 'world atlas countries (TopoJSON)', group: 'geographic data', file: 'world-atlas/countries-10m.json' },
  { name: 'emojibase data (bn)', group: 'emoji data', file: 'emojibase-data/bn/data.json' },
  { name: 'emojibase data (en)', group: 'emoji data', file: 'emojibase-data/en/data.json' },
  { name: 'Material Design Icons (Iconify)', group: 'icon sets', file: '@iconify-json/mdi/icons.json' },
];
// The family a document's lines are summarized under.
const familyOf = (doc) => `corpus: ${doc.group}`;

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

/** Each document as {name, family, text: () => its text}. */
function realDocuments() {
  return documentFiles().map((doc) => ({ name: doc.name, family: familyOf(doc), text: () => fs.readFileSync(doc.path, 'utf8') }));
}

/**
 * The documents whose name or group contains `filter` (all for ''), with their paths and families; throws, naming
 * them, when none does, and when they are not installed.
 */
function documentsMatching(filter) {
  const names = DOCUMENTS.filter((doc) => doc.name.includes(filter) || doc.group.includes(filter));
  if (names.length === 0) {
    throw new Error(`no corpus document's name or group contains "${filter}"; the documents: ${DOCUMENTS.map((d) => `${d.name} (${d.group})`).join(', ')}`);
  }
  return documentFiles().filter((doc) => names.some((d) => d.name === doc.name)).map((doc) => Object.assign(doc, { family: familyOf(doc) }));
}

module.exports = { realDocuments, documentsMatching, familyOf, DOCUMENTS, CORPUS_DIR };
