'use strict';
// The steps V8 takes in one piece (bench/v8-steps.js), timed on synthetic inputs of growing size for their rates on
// this machine: the physical limits in js-serializers/README.md, "What V8 does in one step".
// - listing the keys of one object: µs per key, and of the batches JSON.parse makes of it (a parser's, from its
//   text in pieces of fast-parse's MAX_BATCH_CHARS); growing one object key by key: its longest insertion (a rehash),
//   and µs per key inserted;
// - making one flat string from 64 Ki-character pieces (what stringify() returns), and flattening a rope made with +
//   (what returning the pieces unjoined would leave to the caller's first use): ms per million characters;
// - JSON.parse of one long string literal, escape-free and escape-dense: ms per MB, how fast building one string
//   value can be at best, the reference for a parser's long strings;
// - making the storage of one large array (V8 fills it with holes): ms per million slots;
// - the collector while a document's worth of small objects is built and kept, as any parser builds its value: the
//   longest scavenge, which copies the young generation's live objects in one pause; its length follows from the
//   young generation's size, so run this with the services' options (`make bench-shapes` passes NODE24_OPTIONS).
//
//   node --expose-gc js-serializers/bench/v8-limits.js [--rounds N] [--json]
//
// Median of --rounds (default 7) after one warm-up, a full GC before each when --expose-gc is on. Raw results go to
// results/bench/v8-limits-<time>.json. Node 14 syntax (the lint's rule for js-serializers/).
const os = require('os');
const v8 = require('v8');
const { performance } = require('perf_hooks');
const { option, saveBenchResults } = require('@lab/bench-kit');
const { medianMs, median, collectGarbage, flatten, insertionMs, batchListingMs, PIECE_CHARS, PARSE_PIECE_CHARS } = require('./v8-steps');
const { generators } = require('./shapes');
const { startGcPauses } = require('./gc-pauses');
const { nextTurn } = require('@lab/loop-kit/event-loop');

const KEY_COUNTS = [100000, 300000, 1000000];
const MILLIONS_OF_CHARS = [4, 16, 32];
const PLAIN = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
const ESCAPE_DENSE = 'a"\\\n\u00e9\u4e2d\ud83d\ude00';
const MILLIONS_OF_SLOTS = [1, 2, 4];
// Records of the shape family's mixed records (64k of them are 18 MB of JSON).
const LIVE_RECORDS = [64000, 256000];

/** `chars` characters as distinct flat pieces of PIECE_CHARS. */
function pieces(chars, alphabet) {
  const list = [];
  for (let at = 0; at < chars; at += PIECE_CHARS) {
    const length = Math.min(PIECE_CHARS, chars - at);
    list.push((alphabet.repeat(Math.ceil(length / alphabet.length) + 1) + at).slice(-length));
  }
  return list;
}

function rope(list) {
  let text = '';
  for (let i = 0; i < list.length; i++) text += list[i];
  return text;
}

function measure(rounds) {
  const keys = KEY_COUNTS.map((count) => {
    // the shape family's own wide objects (a tenth of their keys integer-like), with small values
    const object = generators.wideObject(count, 8, 13);
    const ms = medianMs(() => Object.keys(object), rounds);
    const batchesMs = batchListingMs(object, PARSE_PIECE_CHARS, rounds);
    const inserted = insertionMs(object, rounds);
    return {
      keys: count,
      ms,
      usPerKey: (ms * 1000) / count,
      batchListingUsPerKey: (batchesMs * 1000) / count,
      longestInsertionMs: inserted.longestMs,
      insertionUsPerKey: (inserted.totalMs * 1000) / count,
    };
  });
  const strings = MILLIONS_OF_CHARS.map((millions) => {
    const chars = millions * 1e6;
    const plain = pieces(chars, PLAIN);
    const plainLiteral = JSON.stringify(plain.join(''));
    const escapedLiteral = JSON.stringify(pieces(chars / 2, ESCAPE_DENSE).join(''));
    const perMillion = (ms, count) => (ms * 1e6) / count;
    return {
      millionsOfChars: millions,
      joinMsPerMillion: perMillion(medianMs(() => plain.join(''), rounds), chars),
      // a new rope each round (a flattened one stays flat); its ~500 concatenations take microseconds
      ropeFlattenMsPerMillion: perMillion(medianMs(() => flatten(rope(plain)), rounds), chars),
      parsePlainMsPerMb: perMillion(medianMs(() => JSON.parse(plainLiteral), rounds), Buffer.byteLength(plainLiteral)),
      parseEscapedMsPerMb: perMillion(medianMs(() => JSON.parse(escapedLiteral), rounds), Buffer.byteLength(escapedLiteral)),
    };
  });
  const arrays = MILLIONS_OF_SLOTS.map((millions) => {
    const ms = medianMs(() => {
      const array = [0.5]; // a double's storage, as fast parse makes it for an array of numbers
      array.length = millions * 1e6;
      return array;
    }, rounds);
    return { millionsOfSlots: millions, ms, msPerMillion: ms / millions };
  });
  return { keys, strings, arrays };
}

/** The longest scavenge while each count of records is built and kept, median of `rounds` builds. */
async function measureCollector(rounds) {
  const collector = [];
  for (const records of LIVE_RECORDS) {
    const samples = [];
    for (let i = 0; i < rounds; i++) {
      collectGarbage();
      const stop = startGcPauses();
      const kept = generators.mixedRecords(records, 18);
      await nextTurn(); // Node hands the collector's entries to observers on a later turn
      const pauses = stop();
      if (kept.records.length !== records) throw new Error('the records were not built');
      samples.push(pauses.longestByKind.scavenge || 0);
    }
    collector.push({ records, longestScavengeMs: median(samples) });
  }
  return { collector, newSpaceBytes: newSpaceSize() };
}

/** The young generation's current capacity (both semi-spaces), as --max-semi-space-size bounds it. */
function newSpaceSize() {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space === undefined ? null : space.space_size;
}

function print(report) {
  const f = (n, digits) => n.toFixed(digits);
  console.log(`Node ${report.node} (V8 ${report.v8}), ${report.cpus} × ${report.cpuModel}, load average ${report.loadAverage.map((l) => f(l, 2)).join(' ')}, median of ${report.rounds}`);
  console.log('\n| keys of one object | Object.keys ms | µs a key | µs a key, listed from the batches JSON.parse made | growing it key by key: longest insertion, ms | µs a key inserted |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const k of report.keys) {
    console.log(`| ${k.keys} | ${f(k.ms, 1)} | ${f(k.usPerKey, 3)} | ${f(k.batchListingUsPerKey, 3)} | ${f(k.longestInsertionMs, 1)} | ${f(k.insertionUsPerKey, 3)} |`);
  }
  console.log('\n| M chars | join, ms a million | rope flattened, ms a million | JSON.parse of one string, ms a MB: plain | escape-dense |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const s of report.strings) {
    console.log(`| ${s.millionsOfChars} | ${f(s.joinMsPerMillion, 2)} | ${f(s.ropeFlattenMsPerMillion, 2)} | ${f(s.parsePlainMsPerMb, 2)} | ${f(s.parseEscapedMsPerMb, 2)} |`);
  }
  console.log('\n| M slots of one array | making its storage, ms | ms a million |');
  console.log('|---:|---:|---:|');
  for (const a of report.arrays) console.log(`| ${a.millionsOfSlots} | ${f(a.ms, 1)} | ${f(a.msPerMillion, 2)} |`);
  const options = report.nodeOptions.length > 0 ? report.nodeOptions.join(' ') : 'V8\'s defaults';
  console.log(`\nThe collector (Node options: ${options}; new space now ${f(report.newSpaceBytes / 2 ** 20, 1)} MiB):`);
  console.log('| mixed records built and kept | longest scavenge, ms |');
  console.log('|---:|---:|');
  for (const c of report.collector) console.log(`| ${c.records} | ${f(c.longestScavengeMs, 1)} |`);
}

async function main() {
  const args = process.argv.slice(2);
  const rounds = option(args, '--rounds', 7);
  const started = performance.now();
  const report = Object.assign({
    benchmark: 'v8-limits',
    node: process.version,
    v8: process.versions.v8,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0].model,
    loadAverage: os.loadavg(),
    nodeOptions: process.execArgv.filter((arg) => arg !== '--expose-gc'),
    gcBeforeRuns: typeof global.gc === 'function',
    rounds,
    at: new Date().toISOString(),
  }, measure(rounds), await measureCollector(rounds));
  report.totalSeconds = (performance.now() - started) / 1000;
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else print(report);
  console.error(`raw results: ${saveBenchResults('v8-limits', report)}`);
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exitCode = 1;
});
