'use strict';
// conformance.js in a child process, for third-party approaches that can take the process down: yieldable-json throws
// from inside its own setImmediate callbacks on deep nesting, an uncaught exception no caller can catch. The child
// reports case by case; when one crashes it, that case is recorded as such and a new child goes on from the next.
// A case that did not finish ends its child too: still running, it would share yieldable-json's module-level state
// with the next cases and make them fail for its sake.
// Run as a script it is the child:
//   node isolated-conformance.js <approaches module> <workload> <approach> <first case index>
// where the module exports {approaches: {<workload>: {<approach>: fn}}}. Node 14 syntax.
const { execFile } = require('child_process');
const { corpusOf, leftRunning } = require('../conformance/conformance');

async function child(modulePath, workload, approachName, first) {
  const approach = require(modulePath).approaches[workload][approachName];
  let current = null;
  process.on('uncaughtException', (error) => {
    console.log(JSON.stringify({ index: current, why: `crashed the process: uncaught ${error.name}: ${String(error.message).slice(0, 120)}` }));
    process.exit(0);
  });
  const corpus = corpusOf(workload);
  for (let index = first; index < corpus.length; index++) {
    current = index;
    const why = await corpus[index].check(approach);
    console.log(JSON.stringify({ index, why }));
    if (leftRunning(why)) process.exit(0);
  }
  console.log(JSON.stringify({ done: true }));
}

/** Resolves to [{name, why}] like conformance.departures, each crash recorded against its case. */
async function isolatedDepartures(modulePath, workload, approachName) {
  const names = corpusOf(workload).map((c) => c.name);
  const found = [];
  let first = 0;
  for (;;) {
    const stdout = await runChild([__filename, modulePath, workload, approachName, String(first)]);
    const lines = stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    for (const line of lines) {
      if (!line.done && line.why !== null) found.push({ name: names[line.index], why: line.why });
    }
    const last = lines[lines.length - 1];
    if (last && last.done) return found;
    const restart = last && last.why !== null && (leftRunning(last.why) || /^crashed/.test(last.why));
    if (!restart) throw new Error(`conformance child stopped without a verdict:\n${stdout}`);
    first = last.index + 1;
  }
}

function runChild(args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)));
  });
}

if (require.main === module) {
  const [modulePath, workload, approach, first] = process.argv.slice(2);
  child(modulePath, workload, approach, Number(first)).catch((err) => {
    console.error(err.stack);
    process.exit(1);
  });
}

module.exports = { isolatedDepartures };
