'use strict';
// What a POST /csv parse really holds, per approach: the live heap (after a full collection) at the end of a parse,
// with what the parse still references (the body's text for the approaches that read it whole, the rows, the fields
// an approach built character by character), on the shapes that cost the most per byte and per cell. The figures
// behind csv-parsers/upload-memory.js' model, which must stay above every line this prints.
//
//   node --expose-gc csv-parsers/bench/upload-memory.js [--bytes N] [--json]
//
// Per approach and shape: bytes, cells (csv-parsers/upload-memory.js' countCells: separators and line ends, plus
// one), the heap held, held/byte, held/cell and the model's bound over it (must be ≥ 1).
const { createRequire } = require('module');
const { StringDecoder } = require('string_decoder');
const { spawnSync } = require('child_process');
const { csvApproaches } = require('../approaches');
const { sourceFor } = require('../sources');
const { countCells, parseBound } = require('../upload-memory');
const { option } = require('@lab/bench-kit');

const serviceRequire = createRequire(require.resolve('@lab/node-async/package.json'));

// A socket gives packets of up to 64 KiB; each is one decoded chunk.
const PACKET_BYTES = 64 * 1024;

/** The shapes, as text made of a repeated unit: each maximises one cost. */
const SHAPES = {
  'one-char rows': 'a\n', // a row per two bytes: the row arrays dominate
  'empty cells': ',', // a cell per byte, one row
  'empty rows': '\n', // a row per byte (an empty line is a row of one empty field, or nothing)
  'two-char cells': 'ab,', // short cells copied out of the text
  'one long ascii cell': 'x', // a single field: the text, and per-character building
  'one long cjk cell': '東', // the same with two-byte characters (3 bytes of UTF-8 each)
  'one long emoji cell': '😀', // surrogate pairs (4 bytes of UTF-8 each)
  'ascii then one cjk': null, // a one-byte text made two-byte by its last character
  'cjk cells': '東京,', // short two-byte cells
  'long cells': `${'y'.repeat(40)},${'z'.repeat(40)}\n`,
  'quoted cells': '"a,b","c""d"\n',
};

function bodyOf(shape, bytes) {
  if (shape === 'ascii then one cjk') return Buffer.from(`${'x'.repeat(bytes - 3)}東`, 'utf8');
  const unit = SHAPES[shape];
  const count = Math.floor(bytes / Buffer.byteLength(unit));
  return Buffer.from(unit.repeat(count), 'utf8');
}

function decodedPackets(body) {
  const decoder = new StringDecoder('utf8');
  const chunks = [];
  for (let at = 0; at < body.length; at += PACKET_BYTES) chunks.push(decoder.write(body.subarray(at, at + PACKET_BYTES)));
  chunks.push(decoder.end());
  return chunks.filter((chunk) => chunk.length > 0);
}

const heapNow = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};

// The decoded chunks stay referenced during the parse, as parseUpload holds them for the approaches that read the
// whole body; for the streaming ones this over-counts (a socket's chunks are dropped once parsed), on the safe side.
async function held(approach, body) {
  const before = heapNow();
  const chunks = decodedPackets(body);
  const cells = chunks.reduce((sum, chunk) => sum + countCells(chunk), 1);
  const rows = await approach(sourceFor(approach, chunks), {});
  const after = heapNow();
  if (rows.length === 0 || chunks.length === 0) throw new Error('nothing parsed');
  return { heldBytes: after - before, cells, rows: rows.length };
}

async function measureOne(name, shape, bytes) {
  const approaches = csvApproaches({ csvParse: serviceRequire('csv-parse'), iterTools: serviceRequire('iter-tools-es') });
  const body = bodyOf(shape, bytes);
  const { heldBytes, cells, rows } = await held(approaches[name], body);
  const bound = parseBound({ bytes: body.length, cells });
  return { approach: name, shape, bytes: body.length, cells, rows, heldBytes, perByte: heldBytes / body.length, perCell: heldBytes / cells, boundRatio: bound / heldBytes };
}

function inChild(name, shape, bytes) {
  const args = [...process.execArgv, __filename, '--one', name, shape, '--bytes', String(bytes)];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${name} / ${shape} failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

async function main() {
  if (typeof global.gc !== 'function') throw new Error('run with --expose-gc');
  const args = process.argv.slice(2);
  const bytes = Number(option(args, '--bytes', '2000000'));
  const one = args.indexOf('--one');
  if (one >= 0) {
    process.stdout.write(JSON.stringify(await measureOne(args[one + 1], args[one + 2], bytes)));
    return;
  }
  const names = Object.keys(csvApproaches({ csvParse: serviceRequire('csv-parse'), iterTools: serviceRequire('iter-tools-es') }));
  const lines = [];
  for (const name of names) {
    for (const shape of Object.keys(SHAPES)) {
      lines.push(inChild(name, shape, bytes));
      process.stderr.write('.');
    }
  }
  process.stderr.write('\n');
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ node: process.version, execArgv: process.execArgv, lines }, null, 1)}\n`);
    return;
  }
  for (const l of lines) {
    const cols = [l.approach.padEnd(20), l.shape.padEnd(20), String(l.bytes).padStart(9), String(l.cells).padStart(9), String(l.heldBytes).padStart(11), l.perByte.toFixed(1).padStart(7), l.perCell.toFixed(1).padStart(10), l.boundRatio.toFixed(2).padStart(6)];
    process.stdout.write(`${cols.join(' ')}\n`);
  }
  const under = lines.filter((l) => l.boundRatio < 1);
  if (under.length > 0) {
    process.stdout.write(`MODEL TOO LOW for ${under.map((l) => `${l.approach}/${l.shape}`).join(', ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
