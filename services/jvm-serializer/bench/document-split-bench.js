'use strict';
// json against json-multithreaded on one user's document, side by side: the service (already running: `make -C
// services/jvm-serializer start`) stores the file once, then each round asks both for `--repeat` round trips,
// interleaved. The figures are the service's own per-phase times (serializeMs, deserializeMs: the mean of the
// repetitions, timed around kotlinx only, no HTTP); a run that did not validate fails the benchmark.
//   node services/jvm-serializer/bench/document-split-bench.js --file next.json [--rounds 5] [--repeat 3] [--url …]
const fs = require('fs');
const { interleavedRounds } = require('@lab/bench-kit/rounds');
const { option, textOption } = require('@lab/bench-kit/command-line');
const { median, spread } = require('@lab/bench-kit/stats');
const { machine, machineLine } = require('@lab/bench-kit/machine');
const { markdownTable } = require('@lab/bench-kit/table');
const { finish, runBenchmark } = require('@lab/bench-kit/finish');

const APPROACHES = ['json', 'json-multithreaded'];

async function main() {
  const args = process.argv.slice(2);
  const file = textOption(args, '--file', '');
  if (!file) throw new Error('usage: document-split-bench.js --file document.json [--rounds N] [--repeat N] [--url URL]');
  const url = textOption(args, '--url', `http://localhost:${process.env.PORT || 3004}`);
  const rounds = option(args, '--rounds', 5);
  const repeat = option(args, '--repeat', 3);

  const stored = await fetch(`${url}/documents`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: fs.readFileSync(file) });
  if (!stored.ok) throw new Error(`PUT /documents: ${stored.status} ${await stored.text()}`);
  const { sha256, bytes } = await stored.json();
  const info = await (await fetch(`${url}/info`)).json();

  const runs = await interleavedRounds({
    approaches: APPROACHES,
    rounds,
    run: async (approach) => {
      const answer = await fetch(`${url}/run/serde?approach=${approach}&document=${sha256}&repeat=${repeat}`);
      const result = await answer.json();
      if (!answer.ok) throw new Error(`${approach}: ${answer.status} ${JSON.stringify(result)}`);
      return result;
    },
  });
  const summary = Object.fromEntries(APPROACHES.map((approach) => {
    const ok = runs[approach].filter((r) => r.validated === true);
    const phase = (name) => ({ ms: median(ok.map((r) => r[name])), spreadMs: spread(ok.map((r) => r[name])) });
    return [approach, { runs: runs[approach].length, validated: ok.length, serialize: phase('serializeMs'), deserialize: phase('deserializeMs'), split: ok[0] && ok[0].split }];
  }));
  const report = { file, bytes, sha256, rounds, repeat, machine: machine(), service: { build: info.build, runtime: info.runtime }, summary, runs };
  finish('jvm-document-split', report, {
    args,
    failed: APPROACHES.some((a) => summary[a].validated < rounds),
    printTable: (r) => {
      console.log(machineLine(r.machine));
      console.log(`${r.file}: ${r.bytes} bytes, ${r.rounds} rounds × ${r.repeat} round trips (medians of the rounds' means, ms)\n`);
      const row = (a) => [a, `${r.summary[a].validated}/${r.summary[a].runs}`,
        ...['serialize', 'deserialize'].map((p) => `${r.summary[a][p].ms} (${r.summary[a][p].spreadMs.join('–')})`)];
      console.log(markdownTable(['approach', 'validated', 'serialize ms', 'deserialize ms'], APPROACHES.map(row), { right: [2, 3] }));
      const split = r.summary['json-multithreaded'].split;
      if (split) console.log(`\njson-multithreaded: ${split.detail}`);
    },
  });
}

runBenchmark(main);
