'use strict';
// The figures lib/documents/memory-model.js is built from: the WASM memory a run on a user's document takes, by
// approach and op, over shapes that cost the most per node and per byte at several sizes (bench/memory-peak.js says
// how a peak is measured), each shape in a child process of its own. Prints, per approach and op, the bytes a byte of
// text costs (from the long strings and keys), then the most a node costs beyond that over every shape and size, the
// fixed part (a one-node document) and the model's figures beside them; then the document worker's check.
//
//   node services/wasm-runner/bench/memory-model.js [node counts of the node-heavy shapes: 250000 1000000 2000000]
const { execFileSync } = require('node:child_process');
const { SHAPES, runPeak, checkPeak } = require('./memory-peak');
const { MODEL, OPS_MEASURED } = require('../lib/documents/memory-model');
const { APPROACHES } = require('../lib/transfer/approaches');
const { markdownTable } = require('@lab/bench-kit');

const BYTE_SHAPES = ['longStrings', 'longKeys'];
const BYTE_SHAPE_NODES = [5000, 20000]; // 5 and 20 MB of text

async function child(shape, nodes) {
  const value = SHAPES[shape](nodes);
  const peaks = {};
  let size = null;
  for (const approach of Object.keys(APPROACHES)) {
    for (const op of OPS_MEASURED) {
      const measured = await runPeak(approach, op, value);
      peaks[`${approach}:${op}`] = measured.peak;
      size = { nodes: measured.nodes, bytes: measured.bytes };
    }
  }
  peaks.check = (await checkPeak(value)).peak;
  process.stdout.write(JSON.stringify({ shape, ...size, peaks }));
}

function measure(shape, nodes) {
  process.stderr.write(`${shape} ${nodes}\n`);
  return JSON.parse(execFileSync(process.execPath, [__filename, '--child', shape, String(nodes)], { maxBuffer: 1 << 20 }));
}

function main() {
  const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [250000, 1000000, 2000000];
  const rows = [];
  for (const shape of Object.keys(SHAPES)) {
    for (const nodes of BYTE_SHAPES.includes(shape) ? BYTE_SHAPE_NODES : sizes) rows.push(measure(shape, nodes));
  }
  const one = measure('zeros', 2);
  const keys = Object.keys(rows[0].peaks);
  const MB = 2 ** 20;
  const table = keys.map((key) => {
    const perByte = Math.max(...rows.filter((r) => BYTE_SHAPES.includes(r.shape)).map((r) => r.peaks[key] / r.bytes));
    const perNode = Math.max(...rows.map((r) => (r.peaks[key] - perByte * r.bytes) / r.nodes));
    const [approach, op] = key.split(':');
    const model = op ? MODEL[approach][op] : MODEL.check;
    return [key, perByte.toFixed(2), perNode.toFixed(1), (one.peaks[key] / MB).toFixed(1), model.perByte, model.perNode, model.fixedMB];
  });
  console.log(markdownTable(['run', 'measured: bytes a text byte', 'bytes a node', 'fixed MB', 'model: a text byte', 'a node', 'fixed MB'], table));
}

if (process.argv[2] === '--child') child(process.argv[3], Number(process.argv[4]));
else main();
