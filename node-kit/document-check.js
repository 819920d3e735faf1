'use strict';
// A user's JSON document checked once, as it enters a process: is it JSON (else where it stops being JSON), how deep
// it nests, what it holds (json-text-scan.js' counts, which document-memory.js prices) and its findings, in one pass
// run in slices with a turn of the event loop between them, so that checking 64 MB never holds a service's loop
// (issue 57: JSON.parse of a 32 MB upload held node-async's for 8.5 s). A slice reads at most loop-kit's
// maxSliceChars characters (the work bound the tests hold) and stops earlier at its deadline. Node 14 syntax.
const { performance } = require('perf_hooks');
const { runSlices, maxSliceChars, DEFAULT_YIELD_MS } = require('@lab/loop-kit/slices');
const { badRequest } = require('./errors');
const { JsonTextScan } = require('./json-text-scan');
const { placeError } = require('./json-syntax-error');

// The scan looks at the clock this often.
const STEP_CHARS = 1 << 14;

/**
 * The scan of text in slices of about yieldMs: resolves json-text-scan.js' result. stats (optional) counts the
 * slices' turns in yields and the characters of the largest slice in maxSliceChars.
 */
async function scanInSlices(text, { framesDepth = Infinity, yieldMs = DEFAULT_YIELD_MS, stats = null } = {}) {
  const scan = new JsonTextScan(text, { framesDepth });
  const most = maxSliceChars(yieldMs);
  await runSlices((deadline) => {
    const from = scan.at;
    for (;;) {
      if (scan.step(Math.min(STEP_CHARS, most - (scan.at - from)))) return true;
      if (stats) stats.maxSliceChars = Math.max(stats.maxSliceChars || 0, scan.at - from);
      if (scan.at - from >= most || performance.now() >= deadline) return false;
    }
  }, { yieldMs, stats });
  return scan.result();
}

/**
 * Checks a JSON document's text: resolves {depth, nodes, counts, escapeWork, findings}, or rejects with the 400 of a
 * text that is not JSON ({line, column, excerpt}: where it stops being JSON) or, for a JSON text, that nests deeper
 * than maxDepth ({depth, maxDepth}). Not JSON comes first: a text both broken and deep is refused for where it breaks.
 * The first refusal also carries `what` was found there, in words.
 */
async function checkJsonDocument(text, { maxDepth, yieldMs, stats }) {
  const scanned = await scanInSlices(text, { framesDepth: maxDepth, yieldMs, stats });
  if (scanned.error) {
    const at = placeError(text, scanned.error);
    // `what` is for a caller that words the place itself (make try: file:line:column); the answer has the fields.
    throw Object.assign(badRequest(`the document is not JSON: ${at.what} at line ${at.line}, column ${at.column}`, { line: at.line, column: at.column, excerpt: at.excerpt }), { what: at.what });
  }
  if (scanned.depth > maxDepth) throw badRequest(`the document nests ${scanned.depth} levels deep; this service takes at most ${maxDepth}`, { depth: scanned.depth, maxDepth });
  return { depth: scanned.depth, nodes: scanned.nodes, counts: scanned.counts, escapeWork: scanned.escapeWork, findings: scanned.findings };
}

/**
 * The one check of a user's document text, the same in make try, the load driver and every Node service: JSON's
 * (checkJsonDocument: where it stops being JSON, its depth against maxDepth, what it holds) or CSV's (csv: the
 * process's CSV check, text -> Promise<{rows, reference}>, csv-parsers/user-document.js). Resolves {check, reference}:
 * JSON's check and no reference (that is a parse: document-upload.js' referenceOf), CSV's {rows} and the reference its
 * parse made; rejects with the check's 400. work (optional: a store's {checks}) counts it. The text's UTF-8 is read
 * before it is a string (utf8.js, as it arrives or from the file) and its size capped there.
 */
async function checkDocumentText(kind, text, { maxDepth, csv }, work = null) {
  if (work) work.checks++;
  if (kind === 'csv') {
    const checked = await csv(text);
    return { check: { rows: checked.rows }, reference: checked.reference };
  }
  return { check: await checkJsonDocument(text, { maxDepth }), reference: null };
}

module.exports = { checkDocumentText, checkJsonDocument, scanInSlices };
