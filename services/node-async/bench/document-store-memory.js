'use strict';
// What users' documents cost a service's memory (`make bench-documents`): node-async started as its own process (with
// the options it starts with in the lab), then ten different 20 MB documents handed to it one after another with
// PUT /documents, each run once natively through stringify and parse (validated), and the service's RSS read from
// its own /metrics after each. The store is capped by count and bytes (DOCUMENTS_MAX_COUNT, DOCUMENTS_MAX_BYTES), so
// the RSS after ten must stay near the RSS after one: the target is at most 1.5x. A benchmark, not a test: it exits 1
// only when an answer was wrong or the service failed, never for a missed target.
//   node bench/document-store-memory.js [--documents 10] [--size 10000]
const { generate } = require('../../../payloads/js');
const { saveBenchResults, option } = require('../../../bench-kit');
const { startService } = require('./start-service');

const TARGET_GROWTH = 1.5;
// RSS settles once the collector has run after the last document; the service is idle meanwhile.
const SETTLE_MS = 3000;
const argv = process.argv.slice(2);
const args = { documents: option(argv, '--documents', 10), size: option(argv, '--size', 10000) };
const log = (message) => process.stderr.write(`${message}\n`);

async function residentMb(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const match = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  if (!match) throw new Error('no process_resident_memory_bytes in /metrics');
  return Number(match[1]) / 1e6;
}

async function runValidated(url, workload, sha256) {
  const answer = await (await fetch(`${url}/run/${workload}?approach=native&document=${sha256}`)).json();
  if (answer.validated !== true) throw new Error(`${workload} of document ${sha256.slice(0, 12)} not validated: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.ms;
}

async function main() {
  // With the options the lab starts it with: its young generation sets how much memory a document's run leaves.
  const server = await startService((process.env.NODE24_OPTIONS || '').split(' ').filter(Boolean));
  const rows = [];
  try {
    const idleMb = await residentMb(server.url);
    log(`node-async at ${server.url}: ${idleMb.toFixed(0)} MB resident before any document`);
    for (let i = 1; i <= args.documents; i++) {
      const text = JSON.stringify(generate({ document: 'records', seed: i, size: args.size }));
      const put = await fetch(`${server.url}/documents`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: text });
      const stored = await put.json();
      if (put.status !== 201) throw new Error(`document ${i} refused (HTTP ${put.status}): ${stored.error}`);
      const stringifyMs = await runValidated(server.url, 'stringify', stored.sha256);
      const parseMs = await runValidated(server.url, 'parse', stored.sha256);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const store = await (await fetch(`${server.url}/documents`)).json();
      const row = { document: i, mb: text.length / 1e6, residentMb: await residentMb(server.url), kept: store.count, keptMb: store.bytes / 1e6, stringifyMs, parseMs };
      rows.push(row);
      log(`document ${i}: ${row.mb.toFixed(1)} MB, stringify ${stringifyMs.toFixed(0)} ms, parse ${parseMs.toFixed(0)} ms; ${row.kept} kept (${row.keptMb.toFixed(0)} MB); resident ${row.residentMb.toFixed(0)} MB`);
    }
    const growth = rows[rows.length - 1].residentMb / rows[0].residentMb;
    console.log(`\n| documents handed | kept | kept MB | resident MB |\n|---|---|---|---|`);
    for (const r of rows) console.log(`| ${r.document} | ${r.kept} | ${r.keptMb.toFixed(0)} | ${r.residentMb.toFixed(0)} |`);
    console.log(`\nresident after ${rows.length} documents / after 1: ${growth.toFixed(2)}x (target at most ${TARGET_GROWTH}x: ${growth <= TARGET_GROWTH ? 'met' : 'MISSED'}); idle before any: ${idleMb.toFixed(0)} MB`);
    console.log(`raw results: ${saveBenchResults('document-store-memory', { args, idleMb, rows, growth, target: TARGET_GROWTH })}`);
  } finally {
    server.stop();
  }
}

main().catch((err) => {
  console.error(`document-store-memory: ${err.message}`);
  process.exitCode = 1;
});
