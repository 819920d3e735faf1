'use strict';
// make try's reading of the user's file, before anything starts: missing, empty, too large, not UTF-8 (its byte
// offset), then the lab's one check of a document's text (node-kit/document-check.js' checkDocumentText, the one the
// load driver and the Node services run), its refusals worded for a file (file:line:column, the row, the depth).
const fs = require('node:fs');
const path = require('node:path');
const { checkDocumentText } = require('@lab/node-kit/document-check');
const { Utf8Check } = require('@lab/node-kit/utf8');
const { HttpError } = require('@lab/node-kit/errors');
const { csvDocumentCheck } = require('@lab/csv-parsers/user-document');

/** An error for a file the lab cannot take: exit status 2, the message alone. */
class InputError extends Error {}

/** 'json' or 'csv': the extension's, else JSON if the text starts as a JSON object or array does, else CSV. */
function kindOf(file, text) {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.csv') return 'csv';
  // Neither `{` nor `[` can start a CSV's first field unquoted without a quote or a bracket in a header, which no CSV
  // file in practice has; a JSON scalar document needs its .json extension.
  return /^\s*[[{]/.test(text) ? 'json' : 'csv';
}

/** The check's refusal (an HttpError 400), in words for the file. */
function describeRefusal(file, kind, err, caps) {
  if (kind === 'csv') return `${file}: ${err.message}`;
  const at = err.details;
  if (at.line !== undefined) return `${file}:${at.line}:${at.column}: not JSON: ${err.what}\n  near: ${JSON.stringify(at.excerpt)}`;
  return `${file}: nests ${at.depth} levels deep; the lab takes at most ${caps.maxDepth} (DOCUMENT_MAX_DEPTH)`;
}

/**
 * {bytes, kind, rows (CSV)} of the file, checked as the lab will check it, or an InputError a person can act on.
 * caps: {maxDocumentBytes, maxDepth} (node-kit's documentSettings); work (optional): {checks} to count the check in.
 */
async function readDocumentFile(file, caps, work = null) {
  if (!file) throw new InputError('usage: make try FILE=path/to/document.json (or .csv)');
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) throw new InputError(`${file}: no such file`);
  if (!stat.isFile()) throw new InputError(`${file}: not a file`);
  if (stat.size === 0) throw new InputError(`${file}: empty`);
  if (stat.size > caps.maxDocumentBytes) throw new InputError(`${file}: ${stat.size} bytes, larger than the ${caps.maxDocumentBytes} bytes the lab takes (DOCUMENT_MAX_BYTES)`);
  const bytes = fs.readFileSync(file);
  try {
    const utf8 = new Utf8Check();
    utf8.write(bytes);
    utf8.end();
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    throw new InputError(`${file}: not UTF-8: the byte sequence at byte offset ${err.details.byteOffset} is not a UTF-8 character (save it as UTF-8)`);
  }
  const text = bytes.toString('utf8');
  const kind = kindOf(file, text);
  try {
    const { check } = await checkDocumentText(kind, text, { maxDepth: caps.maxDepth, csv: csvDocumentCheck({ reference: false }) }, work);
    return kind === 'csv' ? { bytes, kind, rows: check.rows } : { bytes, kind };
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    throw new InputError(describeRefusal(file, kind, err, caps));
  }
}

module.exports = { readDocumentFile, InputError };
