'use strict';
// What users' documents cost each service that keeps them (`make bench-documents`): the document services
// (node14-fibers, node-async, wasm-runner, jvm-serializer: their manifests' `documents: true`) started natively as
// `make try` starts them, then ten different 20 MB documents handed to each with PUT /documents one after another,
// each run once through every workload of its kind by the workload's first document approach (validated against the
// service's reference), and each service's RSS read from its own /metrics after each. Every store is capped by count
// and bytes (DOCUMENTS_MAX_COUNT, DOCUMENTS_MAX_BYTES), so a service's RSS after ten must stay near its RSS after one:
// the target is at most 1.5x. A benchmark, not a test: it exits 1 only when an answer was wrong or a service failed,
// never for a missed target.
//   node scripts/document-store-memory.js [--documents 10] [--size 10000] [--port-offset 14000]
const { readManifests, documentServicesOf } = require('@lab/lab-topology/manifests');
const { generate } = require('@lab/payloads/js');
const { WORKLOADS } = require('@lab/load/src/try/try-suite');
const { saveBenchResults, option } = require('@lab/bench-kit');
const { startNativeSubset } = require('./native-subset');

const TARGET_GROWTH = 1.5;
// RSS settles once a collector has run after the last document; the services are idle meanwhile.
const SETTLE_MS = 3000;
// Ports apart from every other lab's (docker/compose-lab.js' PORT_OFFSETS, the integration tests', make try's 17000),
// so a running lab is left alone.
const PORT_OFFSET = 14000;
const argv = process.argv.slice(2);
const args = { documents: option(argv, '--documents', 10), size: option(argv, '--size', 10000), portOffset: option(argv, '--port-offset', PORT_OFFSET) };
const log = (message) => process.stderr.write(`${message}\n`);

async function json(url, options) {
  const res = await fetch(url, options);
  return { status: res.status, body: await res.json() };
}

/** Sums the samples of a metric in a /metrics text whose name and labels match (0 when there is none). */
function sampleSum(text, pattern) {
  let total = 0;
  for (const match of text.matchAll(new RegExp(`^${pattern} (\\S+)$`, 'gm'))) total += Number(match[1]);
  return total;
}

/**
 * {residentMb, heapUsedMb} from a service's own /metrics: RSS, and the heap in use beside it (V8's, or the JVM's heap
 * pools), since a JVM started with its whole heap touched (Xms = Xmx, AlwaysPreTouch) holds the same RSS whatever it
 * keeps.
 */
async function memoryMb(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const resident = sampleSum(text, 'process_resident_memory_bytes');
  if (resident === 0) throw new Error(`no process_resident_memory_bytes in ${url}/metrics`);
  const heapUsed = sampleSum(text, 'nodejs_heap_size_used_bytes') + sampleSum(text, 'jvm_memory_used_bytes\\{[^}]*area="heap"[^}]*\\}');
  return { residentMb: resident / 1e6, heapUsedMb: heapUsed / 1e6 };
}

/** [{workload, approach}] a JSON document runs through on a service (its /info): each workload's first approach. */
function referenceRuns(info) {
  return WORKLOADS.json.filter((w) => info.workloads && info.workloads[w]).map((workload) => {
    const entry = info.workloads[workload];
    return { workload, approach: (entry.documentApproaches || entry.approaches)[0] };
  });
}

async function handAndRun(service, text) {
  const put = await json(`${service.url}/documents`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: text });
  if (put.status !== 201) throw new Error(`${service.name} refused the document (HTTP ${put.status}): ${put.body.error}`);
  const ms = {};
  for (const { workload, approach } of service.runs) {
    const { body } = await json(`${service.url}/run/${workload}?approach=${approach}&${put.body.run}`);
    if (body.validated !== true) throw new Error(`${service.name} ${workload} ${approach} of document ${put.body.sha256.slice(0, 12)} not validated: ${JSON.stringify(body).slice(0, 300)}`);
    ms[`${workload}/${approach}`] = body.ms;
  }
  return ms;
}

async function measure(services) {
  const rows = [];
  for (let i = 1; i <= args.documents; i++) {
    const text = JSON.stringify(generate({ document: 'records', seed: i, size: args.size }));
    const ms = {};
    for (const service of services) ms[service.name] = await handAndRun(service, text);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const row = { document: i, mb: text.length / 1e6, ms, residentMb: {}, heapUsedMb: {}, kept: {} };
    for (const service of services) {
      const memory = await memoryMb(service.url);
      row.residentMb[service.name] = memory.residentMb;
      row.heapUsedMb[service.name] = memory.heapUsedMb;
      row.kept[service.name] = (await json(`${service.url}/documents`)).body.count;
    }
    rows.push(row);
    log(`document ${i} (${row.mb.toFixed(1)} MB): ${services.map((s) => `${s.name} ${row.residentMb[s.name].toFixed(0)} MB resident, heap ${row.heapUsedMb[s.name].toFixed(0)} MB in use, ${row.kept[s.name]} kept`).join('; ')}`);
  }
  return rows;
}

function report(services, idle, rows) {
  const growth = Object.fromEntries(services.map((s) => [s.name, rows[rows.length - 1].residentMb[s.name] / rows[0].residentMb[s.name]]));
  console.log(`\nresident MB after each ${rows[0].mb.toFixed(0)} MB document; heap in use, then documents kept, in brackets\n`);
  console.log(`| documents handed | ${services.map((s) => s.name).join(' | ')} |\n|---|${services.map(() => '---|').join('')}`);
  console.log(`| none (idle) | ${services.map((s) => `${idle[s.name].residentMb.toFixed(0)} (${idle[s.name].heapUsedMb.toFixed(0)})`).join(' | ')} |`);
  for (const r of rows) console.log(`| ${r.document} | ${services.map((s) => `${r.residentMb[s.name].toFixed(0)} (${r.heapUsedMb[s.name].toFixed(0)}, ${r.kept[s.name]})`).join(' | ')} |`);
  console.log('');
  for (const s of services) {
    const met = growth[s.name] <= TARGET_GROWTH ? 'met' : 'MISSED';
    console.log(`${s.name}: after ${rows.length} / after 1: ${growth[s.name].toFixed(2)}x (target at most ${TARGET_GROWTH}x: ${met}); runs ${s.runs.map((r) => `${r.workload} ${r.approach}`).join(', ')}`);
  }
  return growth;
}

async function main() {
  const names = documentServicesOf(readManifests()).map((m) => m.name);
  const lab = startNativeSubset(names, { offset: args.portOffset, say: log });
  const stop = () => lab.stop().then(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    log(`starting ${names.join(', ')} natively (ports shifted by ${args.portOffset})`);
    await lab.ready();
    const services = [];
    for (const c of lab.components) services.push({ name: c.name, url: c.url, runs: referenceRuns((await json(`${c.url}/info`)).body) });
    const idle = {};
    for (const s of services) idle[s.name] = await memoryMb(s.url);
    const rows = await measure(services);
    const growth = report(services, idle, rows);
    const runs = Object.fromEntries(services.map((s) => [s.name, s.runs]));
    console.log(`raw results: ${saveBenchResults('document-store-memory', { args, runs, idle, rows, growth, target: TARGET_GROWTH })}`);
  } finally {
    await lab.stop();
  }
}

main().catch((err) => {
  console.error(`document-store-memory: ${err.message}`);
  process.exitCode = 1;
});
