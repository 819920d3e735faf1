'use strict';
// The items of issue 57's hostile round (docker/hostile.js), each an async function of the lab ({url(name), ...})
// that throws what went wrong: the request a hostile user sent, and the one answer it must get now. Figures worth
// reading (how long /healthz waited during a large upload) are returned as lines for the log. Not a test file: the
// components' own tests hold each item without Docker; this replays them on the containers `make up` starts.
const http = require('node:http');
const net = require('node:net');
const { documents } = require('./hostile-documents');

const NODE = ['node14-fibers', 'node-async'];
const KEEPERS = NODE.concat('wasm-runner', 'jvm-serializer');
const WORKLOAD = { 'node14-fibers': 'stringify', 'node-async': 'stringify', 'wasm-runner': 'transfer', 'jvm-serializer': 'serde' };
// A large document's upload and runs on a busy machine: seconds to a minute each.
const LONG_MS = 300000;

/** One request over node:http (fetch may not send another Host), {status, text, json}. */
function call(url, { method = 'GET', body, headers = {}, timeoutMs = LONG_MS } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, timeout: timeoutMs, headers: Object.assign(body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }, headers) }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode, text, json: /json/.test(res.headers['content-type'] || '') ? JSON.parse(text) : null });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

const put = (base, body) => call(`${base}/documents`, { method: 'PUT', body });

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** work() while /healthz is asked one request after another: {value, longestMs} (the longest wait for an answer). */
async function probed(base, work) {
  let done = false;
  let longestMs = 0;
  const probe = (async () => {
    while (!done) {
      const started = Date.now();
      await call(`${base}/healthz`).catch(() => null);
      longestMs = Math.max(longestMs, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { value: await work(), longestMs };
  } finally {
    done = true;
    await probe;
  }
}

/** Once no plugin of the service at base is being checked against the conformance corpus (minutes at most). */
async function pluginsChecked(base) {
  for (let tries = 0; tries < 600; tries++) {
    const { plugins } = (await call(`${base}/info`)).json.plugins;
    if (!plugins.some((p) => p.state === 'checking')) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`${base}: plugins still being checked after ten minutes`);
}

/** Uploads text to the service `name` with /healthz asked meanwhile, then each run; lines for the log. */
async function atTheCaps(lab, name, text, runs) {
  const base = lab.url(name);
  const upload = await probed(base, () => put(base, text));
  const lines = [`${name}: ${Math.round(text.length / 2 ** 20)} MiB answered ${upload.value.status}; /healthz waited ${upload.longestMs} ms at most meanwhile`];
  expect([200, 201, 413].includes(upload.value.status), `${name} upload: ${upload.value.status} ${upload.value.text.slice(0, 200)}`);
  if (upload.value.status === 413) return lines;
  for (const [workload, approach] of runs) {
    const answer = await call(`${base}/run/${workload}?approach=${approach}&document=${upload.value.json.sha256}`);
    expect(answer.status !== 500 && (answer.status !== 200 || answer.json.validated), `${name} ${approach}: ${answer.status} ${answer.text.slice(0, 200)}`);
    lines.push(`  ${approach}: ${answer.status}${answer.status === 200 ? ' validated' : ''}`);
  }
  expect((await call(`${base}/metrics`)).status === 200, `${name}: /metrics after it`);
  return lines;
}

const ITEMS = {
  async '1: a rebound name reads nothing, a stored document is never sent back'(lab) {
    for (const name of KEEPERS) {
      const base = lab.url(name);
      const { sha256 } = (await put(base, documents.small)).json;
      const rebound = { Host: 'rebound.example' };
      for (const path of [`/run/${WORKLOAD[name]}?document=${'f'.repeat(64)}`, '/documents', '/info']) {
        const answer = await call(`${base}${path}`, { headers: rebound });
        expect(answer.status === 403 && !answer.text.includes(sha256), `${name} ${path} by a rebound name: ${answer.status} ${answer.text.slice(0, 200)}`);
      }
      if (NODE.includes(name)) {
        const streamed = await call(`${base}/run/stringify?approach=native&document=${sha256}&body=1`);
        expect(streamed.status === 400 && streamed.json.parameter === 'body', `${name} body=1 on a stored document: ${streamed.status} ${streamed.text.slice(0, 200)}`);
      }
    }
  },

  async '2: a plugin that changes its input changes no other run'(lab) {
    for (const name of NODE) {
      const base = lab.url(name);
      await pluginsChecked(base);
      const { sha256 } = (await put(base, documents.marked)).json;
      for (const approach of ['native', 'mutates', 'native', 'fast']) {
        const answer = await call(`${base}/run/stringify?approach=${approach}&document=${sha256}`);
        expect(answer.status === 200 && answer.json.validated === true, `${name} ${approach} after the plugin ran: ${answer.text.slice(0, 300)}`);
      }
    }
  },

  async '3, 8: a plugin that throws from a timer, leaves a rejection or never settles fails its run, not the service'(lab) {
    for (const name of NODE) {
      const base = lab.url(name);
      await pluginsChecked(base);
      const { sha256 } = (await put(base, documents.marked)).json;
      // One after another, then the four that never settle at once: MAX_CONCURRENT_RUNS (4) slots, every one held.
      const answers = [
        await call(`${base}/run/stringify?approach=throws-from-a-timer&document=${sha256}&timeoutMs=50`),
        await call(`${base}/run/stringify?approach=leaves-a-rejection&document=${sha256}`),
      ].concat(await Promise.all([1, 2, 3, 4].map(() => call(`${base}/run/parse?approach=never-settles&document=${sha256}&timeoutMs=50`))));
      for (const answer of answers) expect([200, 500].includes(answer.status), `${name}: ${answer.status} ${answer.text.slice(0, 200)}`);
      const { plugins } = (await call(`${base}/info`)).json.plugins;
      for (const plugin of ['throws-from-a-timer', 'leaves-a-rejection', 'never-settles']) {
        const listed = plugins.find((p) => p.name === plugin);
        expect(listed && listed.state === 'failing', `${name}: ${plugin} is ${listed ? listed.state : 'not listed'}`);
      }
      const after = await call(`${base}/run/parse?approach=native&document=${sha256}`);
      expect(after.status === 200 && after.json.validated, `${name}: a run after them: ${after.text.slice(0, 200)}`);
    }
  },

  async '4, 7: 64 MiB of {} on node14-fibers: stored without holding the loop, runs admitted by memory'(lab) {
    const base = lab.url('node14-fibers');
    const upload = await probed(base, () => put(base, documents.objects64()));
    expect([201, 200, 413].includes(upload.value.status), `upload: ${upload.value.status} ${upload.value.text.slice(0, 200)}`);
    const lines = [`node14-fibers: 64 MiB of {} answered ${upload.value.status}; /healthz waited ${upload.longestMs} ms at most meanwhile`];
    if (upload.value.status === 413) return lines;
    const { sha256 } = upload.value.json;
    const stringify = await call(`${base}/run/stringify?approach=native&document=${sha256}`);
    expect([200, 503].includes(stringify.status), `stringify: ${stringify.status} ${stringify.text.slice(0, 200)}`);
    const parses = await Promise.all([1, 2, 3, 4].map(() => call(`${base}/run/parse?approach=native&document=${sha256}`)));
    for (const answer of parses) expect(answer.status === 503 || (answer.status === 200 && answer.json.validated), `parse: ${answer.status} ${answer.text.slice(0, 200)}`);
    lines.push(`four parses at once: ${parses.map((a) => a.status).join(', ')}`);
    return lines;
  },

  '5, 7: 64 MiB of {} on the JVM: refused or run, never a 500': (lab) => atTheCaps(lab, 'jvm-serializer', documents.objects64(), [['serde', 'jackson'], ['serde', 'json']]),

  '5, 7: 33 rows of a million zeros on wasm-runner: refused or run, never a 500': (lab) =>
    atTheCaps(lab, 'wasm-runner', documents.zeroRows(), [['transfer', 'json&op=roundtrip&iterations=1'], ['transfer', 'typed&op=create&iterations=1']]),

  async '6: 2^24 + 1 zeros on wasm-runner: counted whole or refused, and a create after it validates'(lab) {
    const lines = await atTheCaps(lab, 'wasm-runner', documents.longArray(), [['transfer', 'typed&op=count&iterations=1'], ['transfer', 'json&op=roundtrip&iterations=1']]);
    const base = lab.url('wasm-runner');
    const small = (await put(base, documents.small)).json.sha256;
    const create = await call(`${base}/run/transfer?approach=json&op=create&iterations=1&document=${small}`);
    expect(create.status === 200 && create.json.validated, `a create after it: ${create.text.slice(0, 200)}`);
    return lines;
  },

  async '9: yieldable parse takes turns, and is refused a document of many escapes'(lab) {
    for (const name of NODE) {
      const base = lab.url(name);
      const records = (await put(base, documents.records)).json.sha256;
      const together = await Promise.all([1, 2, 3].map(() => call(`${base}/run/parse?approach=yieldable&document=${records}`)));
      for (const answer of together) expect(answer.status === 200 && answer.json.validated, `${name}: ${answer.text.slice(0, 200)}`);
      const escaped = (await put(base, documents.escaped)).json.sha256;
      const refused = await call(`${base}/run/parse?approach=yieldable&document=${escaped}`);
      expect(refused.status === 400 && refused.json.parameter === 'approach', `${name}: ${refused.status} ${refused.text.slice(0, 200)}`);
    }
  },

  async '10: a trickled upload to the JVM ends in 408 and holds no other upload back'(lab) {
    const { port } = new URL(lab.url('jvm-serializer'));
    const socket = net.connect(Number(port), '127.0.0.1');
    const answered = new Promise((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    socket.write('PUT /documents HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const trickle = setInterval(() => socket.write('1\r\n \r\n'), 5000);
    try {
      const other = await put(lab.url('jvm-serializer'), documents.small);
      expect([200, 201].includes(other.status), `another upload meanwhile: ${other.status} ${other.text.slice(0, 200)}`);
      const text = await Promise.race([answered, new Promise((resolve) => setTimeout(() => resolve('no answer in 150 s'), 150000))]);
      expect(/^HTTP\/1\.1 408/.test(text), `the trickled upload: ${text.slice(0, 200)}`);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  },

  async "11: the try suite's targets narrow it"(lab) {
    const load = lab.url('load');
    const { sha256 } = (await put(load, documents.small)).json;
    const started = await call(`${load}/runs?suite=try&document=${sha256}&targets=jvm-serializer&durationSeconds=1`, { method: 'POST' });
    expect(started.status === 202, `POST /runs: ${started.text}`);
    let status;
    for (let tries = 0; tries < 600; tries++) {
      status = (await call(`${load}/runs/latest`)).json;
      if (status.current || !['waiting', 'running'].includes(status.state)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await call(`${load}/runs/stop`, { method: 'POST' });
    expect(Object.keys(status.try.handOff).join() === 'jvm-serializer' && /^jvm-serializer-/.test(status.current || ''), `the run: ${JSON.stringify({ handOff: status.try.handOff, current: status.current, scenarios: status.scenarios })}`);
  },

  async '12, 13: the JVM finds and refuses as the Node services do'(lab) {
    const node = lab.url('node-async');
    const jvm = lab.url('jvm-serializer');
    const found = (answer) => (answer.json.findings || []).map((f) => `${f.topic}@${f.path}x${f.count}`).join(' ');
    for (const text of documents.findings) {
      const [a, b] = await Promise.all([put(node, text), put(jvm, text)]);
      expect(found(a) === found(b), `findings of ${text}: node-async ${found(a)}, jvm-serializer ${found(b)}`);
    }
    const big = (await put(jvm, documents.largeIntegers)).json.sha256;
    for (const approach of ['json', 'json-multithreaded']) {
      const answer = await call(`${jvm}/run/serde?approach=${approach}&document=${big}`);
      expect(answer.status === 200 && answer.json.validated, `jvm ${approach} on two large integers: ${answer.text.slice(0, 200)}`);
    }
    for (const text of documents.broken) {
      const answers = await Promise.all(KEEPERS.map((name) => put(lab.url(name), text)));
      const shapes = answers.map((a) => JSON.stringify([a.status, a.json.line, a.json.column, a.json.excerpt, a.json.depth]));
      expect(new Set(shapes).size === 1, `${JSON.stringify(text.slice(0, 30))}: ${KEEPERS.map((n, i) => `${n} ${shapes[i]}`).join('; ')}`);
    }
  },
};

module.exports = { ITEMS };
