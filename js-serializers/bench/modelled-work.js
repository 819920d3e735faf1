'use strict';
// fast-stringify's work on the quick benchmark's documents, counted at the work-count guard's modelled rates
// (test/work-counts.js) rather than timed: which gaps to native are the algorithm's (they show here, the same on any
// machine) and which are the machine's or V8's (copies, collections, cold code, other builds on the cores: they show
// only in `make bench-shapes-quick`). On this lab's shared 2 cores, a family's worst timed ratio moved 2-5x between
// runs; these figures do not move.
//
//   node js-serializers/bench/modelled-work.js [--family text] [--baseline REV]
//
// Prints per document: its size, native's modelled ms, and per revision chunks()' modelled ms over native's, its
// native calls and inspections and its longest slice (modelled ms), at the default 5 ms slice; the second of two runs
// in one process, so that the learnt rates are the ones a service's later calls meet. Node 14 syntax.
const { countWork, WORK_MS } = require('../test/work-counts');
const { members } = require('./tree-families');
const { realDocuments } = require('./real-documents');
const { loadBaseline } = require('./shapes-quick');

const YIELD_MS = 5;
// Documents under this many characters are done in one native call (a count of 1, nothing to compare).
const MIN_CHARS = 1 << 20;

function readArgs(argv) {
  const args = { family: '', baseline: null };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--family' && argv[i + 1] !== undefined) args.family = argv[i + 1];
    else if (argv[i] === '--baseline' && argv[i + 1] !== undefined) args.baseline = argv[i + 1];
    else throw new Error('usage: node js-serializers/bench/modelled-work.js [--family text] [--baseline REV]');
  }
  return args;
}

async function chunksCounts(file, module, value) {
  let counts;
  let stats;
  for (let run = 0; run < 2; run++) {
    stats = {};
    counts = await countWork(file, async () => {
      for await (const chunk of module.chunks(value, { yieldMs: YIELD_MS, stats })) void chunk;
    });
  }
  return { counts, maxSliceMs: stats.maxSliceMs };
}

async function main() {
  const args = readArgs(process.argv.slice(2));
  const revisions = [{ name: 'today', file: require.resolve('../fast-stringify') }];
  const baseline = args.baseline ? loadBaseline(args.baseline) : null;
  if (baseline) revisions.unshift({ name: args.baseline, file: baseline.file });
  const docs = members(1).concat(realDocuments().map((d) => ({ family: 'real documents', name: d.name, text: d.text })));
  for (const doc of docs) {
    if (!doc.family.includes(args.family)) continue;
    const value = doc.text ? JSON.parse(doc.text()) : doc.make();
    const chars = JSON.stringify(value).length;
    if (chars < MIN_CHARS) continue;
    const nativeMs = chars * WORK_MS.stringifyChar + WORK_MS.nativeCall;
    const cells = [];
    for (const revision of revisions) {
      const { counts, maxSliceMs } = await chunksCounts(revision.file, require(revision.file), value);
      cells.push(`${revision.name} ${(counts.modelledMs / nativeMs).toFixed(2)}x ${counts.nativeCalls} calls ${counts.inspections} insp slice ${maxSliceMs.toFixed(1)}`);
    }
    process.stdout.write(`${doc.name.padEnd(48)} ${(chars / 1e6).toFixed(1)} MB native ${nativeMs.toFixed(1)} ms | ${cells.join(' | ')}\n`);
  }
  if (baseline) baseline.remove();
}

main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
