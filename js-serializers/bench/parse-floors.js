'use strict';
// What fast-parse's time on each real document (bench/real-documents.js) is made of, against native's one call, in
// one process, rounds taking turns (best of the rounds for each):
// - native: JSON.parse of the whole text;
// - fast: fast-parse's parse();
// - pieces: native's own work in fast's way, with nothing of fast's around it: JSON.parse of every text fast handed
//   it on this document (recorded in a run before), each made anew as a concatenation, so that each is copied flat
//   again as fast's batches are ('[' + a slice of the text + ']');
// - count: reading the text in JavaScript once, the least a walk that finds where its batches end must do where the
//   text around its commas does not repeat (bracketEnd()'s count: every bracket found by String.prototype.indexOf);
// - the collector's pauses inside native's run and inside fast's (perf_hooks 'gc' entries, bench/gc-pauses.js):
//   native's one block often ends before the scavenges its values bring, while fast's turns give V8's scavenge
//   task its chance inside fast's time.
// pieces + count is the floor of parsing in batches found in JavaScript, without the collector; the table gives it
// beside fast's ratio, and fast's with every pause taken out of both times.
//
//   node --expose-gc js-serializers/bench/parse-floors.js [--rounds N]     (run with the services' NODE24_OPTIONS)
//
// Raw results go to results/bench/parse-floors-<time>.json. Node 14 syntax.
const os = require('os');
const { performance } = require('perf_hooks');
const { option, saveBenchResults } = require('@lab/bench-kit');
const { startGcPauses } = require('./gc-pauses');
const { realDocuments } = require('./real-documents');
const { nextTurn } = require('@lab/loop-kit/event-loop');
const fastParse = require('../fast-parse');

const collectGarbage = () => typeof global.gc === 'function' && global.gc();

/** The texts fast-parse hands to JSON.parse on text and that parse (a rejected batch is fast's own waste, not native's). */
async function piecesOf(text) {
  const pieces = [];
  const nativeParse = JSON.parse;
  JSON.parse = (piece) => {
    const value = nativeParse(piece);
    pieces.push(piece);
    return value;
  };
  try {
    await fastParse.parse(text);
  } finally {
    JSON.parse = nativeParse;
  }
  return pieces;
}

/** Every bracket of text found by indexOf, one kind at a time as bracketEnd() finds them; returns how many. */
function countBrackets(text) {
  let count = 0;
  for (const bracket of ['[', ']', '{', '}']) {
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) count++;
  }
  return count;
}

/** Runs fn once after a full collection: {ms, gcMs: the collector's pauses inside it}. */
async function timed(fn) {
  collectGarbage();
  const pauses = startGcPauses();
  const from = performance.now();
  await fn();
  const to = performance.now();
  await nextTurn(); // the 'gc' entries of a run that never yielded are queued after it
  return { ms: to - from, gcMs: pauses(undefined, { from, to }).inRunMs };
}

async function measure(doc, rounds) {
  const text = doc.text();
  const pieces = await piecesOf(text);
  const runs = {
    native: () => JSON.parse(text),
    fast: () => fastParse.parse(text),
    pieces: () => {
      for (let i = 0; i < pieces.length; i++) JSON.parse(pieces[i].charAt(0) + pieces[i].slice(1));
    },
    count: () => countBrackets(text),
  };
  const result = { name: doc.name, chars: text.length, pieces: pieces.length, runs: {} };
  for (const name of Object.keys(runs)) result.runs[name] = [];
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(runs)) result.runs[name].push(await timed(runs[name]));
  }
  return result;
}

const best = (list) => list.reduce((a, b) => (b.ms < a.ms ? b : a));

function print(report) {
  const lines = ['| document | MB | native ms (gc) | fast ms (gc) | fast × native | pieces × | count × | floor (pieces + count) × | fast × native, pauses out |', '|---|---|---|---|---|---|---|---|---|'];
  for (const m of report.documents) {
    const n = best(m.runs.native);
    const f = best(m.runs.fast);
    const p = best(m.runs.pieces).ms / n.ms;
    const c = best(m.runs.count).ms / n.ms;
    const cells = [m.name, (m.chars / 1e6).toFixed(1), `${n.ms.toFixed(1)} (${n.gcMs.toFixed(1)})`, `${f.ms.toFixed(1)} (${f.gcMs.toFixed(1)})`,
      `${(f.ms / n.ms).toFixed(2)}×`, `${p.toFixed(2)}×`, `${c.toFixed(2)}×`, `${(p + c).toFixed(2)}×`, `${((f.ms - f.gcMs) / (n.ms - n.gcMs)).toFixed(2)}×`];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

async function main() {
  const rounds = option(process.argv, '--rounds', 5);
  const report = { benchmark: 'parse-floors', time: new Date().toISOString(), node: process.version, v8: process.versions.v8, cpus: os.cpus().length, execArgv: process.execArgv, rounds, documents: [] };
  for (const doc of realDocuments()) {
    report.documents.push(await measure(doc, rounds));
    process.stderr.write(`${doc.name} done\n`);
  }
  const file = saveBenchResults('parse-floors', report);
  process.stdout.write(`${print(report)}\nraw results: ${file}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
