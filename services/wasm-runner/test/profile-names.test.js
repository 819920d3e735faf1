'use strict';
// A CPU profile of the service names the C++ functions that ran (CMakeLists.txt's --profiling-funcs): the module keeps
// its name section, and a profile taken through the service's own POST /profile while it serves transfers shows its
// WebAssembly frames by those names, not as numbered functions. Real server on port 0, real HTTP.
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert');
const { startService, request } = require('@lab/test-kit');
const { createWasmRunner } = require('../lib/server');

const WASM_FILE = path.join(__dirname, '..', 'build', 'wasm', 'wasm_runner.wasm');
const TOKEN = 'profile-names-test';
// The transfers sent while the profile is taken: a case whose time is mostly yyjson's reading and writing.
const TRANSFER = '/run/transfer?approach=json&case=objects_500&iterations=20';

test('the module keeps the names of its functions: the lab\'s exports and yyjson\'s', () => {
  const module = new WebAssembly.Module(fs.readFileSync(WASM_FILE));
  const sections = WebAssembly.Module.customSections(module, 'name');
  assert.strictEqual(sections.length, 1, 'no name section: the module was linked without --profiling-funcs');
  const names = Buffer.from(sections[0]).toString('latin1');
  for (const name of ['wr_json_round_trip', 'wr_msgpack_round_trip', 'wr_typed_round_trip', 'yyjson_mut_write_opts_impl']) {
    assert.ok(names.includes(name), `${name} is not in the name section`);
  }
});

test('a profile of the service names the WebAssembly functions that ran', async (t) => {
  const saved = process.env.LAB_PROFILE_TOKEN;
  process.env.LAB_PROFILE_TOKEN = TOKEN;
  t.after(() => {
    if (saved === undefined) delete process.env.LAB_PROFILE_TOKEN;
    else process.env.LAB_PROFILE_TOKEN = saved;
  });
  const server = await startService(await createWasmRunner());
  t.after(() => server.close());
  let profiled = null;
  const profile = request(`${server.url}/profile?seconds=1&intervalUs=200`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })
    .then((res) => (profiled = res));
  // Transfers one after another until the profile is answered, however long the machine takes over its second.
  let transfers = 0;
  while (profiled === null) {
    const res = await request(`${server.url}${TRANSFER}`);
    assert.strictEqual(res.status, 200, res.text);
    assert.strictEqual(res.json.validated, true);
    transfers++;
  }
  await profile;
  assert.strictEqual(profiled.status, 200, profiled.text);
  const frames = profiled.json.profile.nodes.map((node) => node.callFrame).filter((frame) => frame.url.startsWith('wasm://'));
  const names = [...new Set(frames.map((frame) => frame.functionName))];
  const figures = `${transfers} transfers, wasm frames: ${names.join(', ')}`;
  assert.ok(names.some((name) => /^(wr_|yyjson_)/.test(name)), `no frame of the lab's exports or of yyjson: ${figures}`);
  // A module without its names shows its functions numbered ($func123 or wasm-function[123]).
  assert.deepStrictEqual(names.filter((name) => /^\$func\d+$|^wasm-function\[\d+\]$/.test(name)), [], figures);
});
