'use strict';
// `make try FILE=...` end to end, as a user runs it, on a small real-world document: the package.json the npm
// registry published for autocannon (the load driver's own dependency, installed from its lockfile). It starts a
// native lab of its own (ports shifted by TRY_PORT_OFFSET, apart from the other integration tests' labs), every
// service whose manifest says it keeps documents (node14-fibers, node-async, wasm-runner, jvm-serializer) stores the
// document, the summary names a pick for each of them and each workload a JSON document runs through, report.html exists and, in Chromium, shows the same picks as run.json; and what make try started
// is gone when it returns. The block limit is set out of reach (60 s): which approach is picked on this machine is
// a measurement; that there is one, for every service, is what is tested (the choice itself: load/test/try-choice).
// Two rounds (TRY_ROUNDS; the suite's 3 by default) keep it short while the summary still shows rounds and p-values.
// The same for a real-world CSV: no package in the lab's node_modules ships one, so fixtures/ubuntu.csv is Debian's
// distro-info-data 0.58+deb12u6 (/usr/share/distro-info/ubuntu.csv, ISC licence: Benjamin Drung, Stefano Rivera),
// Ubuntu's releases with rows of 6 to 9 fields; it goes through every csv approach of node-async, the one service
// that takes CSV, and node14-fibers says why it did not store it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, readManifests, documentServicesOf } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { request, tempDir } = require('@lab/test-kit');
const { checkReportInBrowser, findChromium } = require('@lab/load/test/report-browser');

const { INTEGRATION_PORT_OFFSETS } = require('./port-offsets');
const { WORKLOADS } = require('@lab/load/src/try/try-suite');
const OFFSET = INTEGRATION_PORT_OFFSETS.try;
const DOCUMENT = path.join(ROOT, 'load', 'node_modules', 'autocannon', 'package.json');
const CSV_DOCUMENT = path.join(__dirname, 'fixtures', 'ubuntu.csv');

function makeTry(env, file = DOCUMENT) {
  return new Promise((resolve) => {
    const child = spawn('make', ['-s', '--no-print-directory', 'try', `FILE=${file}`], { cwd: ROOT, env: Object.assign({}, process.env, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code, signal) => resolve({ code, signal, output }));
  });
}

test('make try on a real package.json: a pick per service that keeps documents and workload a JSON document runs through, and report.html', { timeout: 600000 }, async (t) => {
  const results = tempDir('lab-try-results-');
  const { code, output } = await makeTry({ TRY_PORT_OFFSET: String(OFFSET), TRY_SECONDS: '1', TRY_ROUNDS: '2', TRY_BLOCK_MS: '60000', LAB_RESULTS_DIR: results });
  if (process.env.LAB_TEST_VERBOSE || code !== 0) console.log(output);
  assert.strictEqual(code, 0, output.slice(-3000));
  assert.match(output, /^each approach ran in 2 interleaved rounds; /m);
  assert.match(output, /^ {2}approach +ms\/run +ms\/run by round .* p vs pick +verdict$/m);

  const services = documentServicesOf(readManifests()).map((m) => m.name);
  for (const name of ['node14-fibers', 'node-async', 'wasm-runner', 'jvm-serializer']) assert.ok(services.includes(name), `${name} keeps documents: ${services}`);
  const report = /^try: report: (.+)$/m.exec(output)[1];
  const run = JSON.parse(fs.readFileSync(path.join(path.dirname(report), 'run.json'), 'utf8'));
  // The workloads a JSON document runs through (load/src/try/try-suite.js) that each service has, by its /info in the run.
  const workloadsOf = (name) => WORKLOADS.json.filter((w) => run.targets[name].workloads[w]);
  for (const name of services) {
    assert.ok(workloadsOf(name).length > 0, `${name} runs a JSON document through none of ${WORKLOADS.json}`);
    assert.match(output, new RegExp(`^try: {3}${name}: stored$`, 'm'), `${name} stored the document`);
    for (const workload of workloadsOf(name)) {
      const line = new RegExp(`^${name} · ${workload}: pick ([a-z-]+) — `, 'm').exec(output);
      assert.ok(line, `no pick for ${name} ${workload} in:\n${output}`);
    }
  }
  assert.ok(fs.existsSync(report), report);
  assert.strictEqual(path.dirname(path.dirname(report)), results, 'the run is written where LAB_RESULTS_DIR says');
  assert.deepStrictEqual(run.choice.groups.map((g) => g.target).filter((n, i, all) => all.indexOf(n) === i), services);
  assert.ok(run.choice.groups.every((g) => g.pick), JSON.stringify(run.choice.groups.map((g) => [g.target, g.workload, g.pick, g.reason])));
  assert.ok(run.choice.rounds === 2 && run.choice.groups.every((g) => g.rounds === 2 && g.rows.every((r) => r.rounds.length === 2)), JSON.stringify(run.choice.groups.map((g) => [g.target, g.workload, g.rounds])));
  // A group whose pick was compared with another says its p-value in the printed reason, as run.json has it.
  for (const g of run.choice.groups.filter((x) => x.comparedWith)) assert.ok(output.includes(g.reason) && /\(p [=<] /.test(g.reason), g.reason);

  await t.test('report.html shows the same picks in Chromium', async (st) => {
    if (!findChromium()) {
      st.skip("no chromium executable: install Debian's chromium (scripts/install-system-packages.sh) or set CHROMIUM_PATH");
      return;
    }
    const found = await checkReportInBrowser(report);
    assert.deepStrictEqual(found.picks, run.choice.groups.map((g) => `${g.target}/${g.workload}/${g.pick}`));
  });

  await t.test('nothing make try started still answers', async () => {
    const { components, prometheus } = nativeLab(OFFSET);
    for (const url of components.map((c) => c.url).concat(`http://127.0.0.1:${prometheus.port}`)) {
      await assert.rejects(request(`${url}/healthz`), /ECONNREFUSED/, url);
    }
  });
});

test('make try on a real-world CSV: every csv approach of node-async, a pick, and node14-fibers named as taking no CSV', { timeout: 600000 }, async (t) => {
  const results = tempDir('lab-try-csv-results-');
  const { code, output } = await makeTry({ TRY_PORT_OFFSET: String(OFFSET), TRY_SECONDS: '1', TRY_ROUNDS: '1', TRY_BLOCK_MS: '60000', LAB_RESULTS_DIR: results }, CSV_DOCUMENT);
  if (process.env.LAB_TEST_VERBOSE || code !== 0) console.log(output);
  assert.strictEqual(code, 0, output.slice(-3000));
  assert.match(output, /^try: .*ubuntu\.csv: CSV, /m);
  assert.match(output, /^try: {3}node-async: stored$/m);
  assert.match(output, /^try: {3}node14-fibers: not stored: it takes no CSV documents/m);
  assert.match(output, /^node-async · csv: pick ([a-z-]+) — /m);
  const report = /^try: report: (.+)$/m.exec(output)[1];
  const run = JSON.parse(fs.readFileSync(path.join(path.dirname(report), 'run.json'), 'utf8'));
  assert.strictEqual(run.try.kind, 'csv');
  assert.deepStrictEqual(run.choice.groups.map((g) => [g.target, g.workload]), [['node-async', 'csv']]);
  const [group] = run.choice.groups;
  assert.strictEqual(group.rows.length, 10, group.rows.map((r) => r.approach).join(', '));
  assert.ok(group.pick && group.rows.every((r) => r.passed), JSON.stringify(group.rows.map((r) => [r.approach, r.passed, r.problems])));

  await t.test('nothing make try started still answers', async () => {
    const { components, prometheus } = nativeLab(OFFSET);
    for (const url of components.map((c) => c.url).concat(`http://127.0.0.1:${prometheus.port}`)) {
      await assert.rejects(request(`${url}/healthz`), /ECONNREFUSED/, url);
    }
  });
});

/** scripts/try.js itself (make's own exit status is 2 for any failure): {code, output}. */
function checkOnly(file, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'try.js'), file], { cwd: ROOT, env: Object.assign({}, process.env, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

test('make try refuses a file the lab cannot take, with exit status 2 and why, before it starts anything', async () => {
  const dir = tempDir('lab-try-files-');
  const write = (name, bytes) => {
    fs.writeFileSync(path.join(dir, name), bytes);
    return path.join(dir, name);
  };
  const cases = [
    [path.join(dir, 'missing.csv'), /missing\.csv: no such file/],
    [write('empty.csv', ''), /empty\.csv: empty/],
    [write('latin1.csv', Buffer.from('city\nZoë\n', 'latin1')), /not UTF-8: the byte sequence at byte offset 7/],
    [write('open.csv', 'id,note\n1,"open\n'), /not CSV .*CSV row 2: a quoted field is not closed/],
    [write('orders', '  {"a": [1,'), /orders:1:12: not JSON/], // no extension: JSON by its first character
    [write('sales', 'id,total\n1,"9,5"\n2,"3'), /sales: .*CSV row 3: a quoted field is not closed/], // no extension: CSV
    [write('big.csv', 'a,b\n'.repeat(10)), /big\.csv: 40 bytes, larger than the 16 bytes the lab takes \(DOCUMENT_MAX_BYTES\)/],
  ];
  for (const [file, message] of cases) {
    const { code, output } = await checkOnly(file, { TRY_PORT_OFFSET: String(OFFSET), DOCUMENT_MAX_BYTES: file.endsWith('big.csv') ? '16' : '' });
    assert.strictEqual(code, 2, `${file}: ${output}`);
    assert.match(output, message, file);
    assert.doesNotMatch(output, /starting/, `${file}: nothing started`);
  }
  // A setting it cannot take is refused as early, whatever the file.
  for (const [env, message] of [[{ TRY_ROUNDS: '0' }, /TRY_ROUNDS must be an integer in \[1, 10\], got 0/], [{ TRY_SECONDS: 'x' }, /TRY_SECONDS must be an integer in \[1, 120\], got x/]]) {
    const { code, output } = await checkOnly(DOCUMENT, Object.assign({ TRY_PORT_OFFSET: String(OFFSET) }, env));
    assert.strictEqual(code, 2, output);
    assert.match(output, message);
    assert.doesNotMatch(output, /starting/, 'nothing started');
  }
});
