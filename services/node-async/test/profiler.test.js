'use strict';
// node-kit's POST /profile (profiler.js) on a real service: absent without LAB_PROFILE_TOKEN; with it, 401 without the
// token or with a wrong one, a bad parameter refused naming the allowed ones, one profile at a time (409), and a
// profile taken while the service works holds the function that worked, with the wall time it started.
const test = require('node:test');
const assert = require('node:assert');
const express = require('express');
const promClient = require('prom-client');
const { createService } = require('@lab/node-kit');
const { startService, request } = require('@lab/test-kit');

const TOKEN = 'profile-test-token';
const BIG = Array.from({ length: 20000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b', 'c'] }));

// Named so the profile can be searched for it: a fixed amount of work, whatever the machine's speed.
function busyStringifyForProfileTest() {
  let bytes = 0;
  for (let i = 0; i < 10; i++) bytes += JSON.stringify(BIG).length;
  return bytes;
}

function serviceWith(token) {
  const saved = process.env.LAB_PROFILE_TOKEN;
  if (token === undefined) delete process.env.LAB_PROFILE_TOKEN;
  else process.env.LAB_PROFILE_TOKEN = token;
  try {
    return createService({
      name: 'profiled',
      defaultPort: 0,
      express,
      promClient,
      libraries: {},
      workloads: { busy: { approaches: ['stringify'], params: {}, caseOf: () => 'any', run: async () => ({ validated: true, ms: 0, bytes: busyStringifyForProfileTest() }) } },
    });
  } finally {
    if (saved === undefined) delete process.env.LAB_PROFILE_TOKEN;
    else process.env.LAB_PROFILE_TOKEN = saved;
  }
}

const profile = (url, query, token) => request(`${url}/profile${query}`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {} });

test('without LAB_PROFILE_TOKEN there is no profiling route', async (t) => {
  const server = await startService(serviceWith(undefined));
  t.after(server.close);
  const answer = await profile(server.url, '?seconds=1', TOKEN);
  assert.strictEqual(answer.status, 404, answer.text);
  assert.ok(!answer.json.routes.some((route) => route.includes('/profile')), `not listed among the routes: ${answer.json.routes}`);
});

test('with it: only the token gets a profile, one at a time, holding what the service ran', async (t) => {
  const server = await startService(serviceWith(TOKEN));
  t.after(server.close);
  for (const token of [undefined, 'wrong', `${TOKEN}x`]) {
    const refused = await profile(server.url, '?seconds=1', token);
    assert.strictEqual(refused.status, 401, refused.text);
    assert.strictEqual(refused.headers['www-authenticate'], 'Bearer');
    assert.match(refused.json.error, /Authorization: Bearer <LAB_PROFILE_TOKEN>/);
  }
  const bad = await profile(server.url, '?seconds=0', TOKEN);
  assert.strictEqual(bad.status, 400, bad.text);
  assert.strictEqual(bad.json.parameter, 'seconds');

  // The service works until the profile is answered, so some of its work lies inside the profile however slow the
  // machine is; a second profile asked meanwhile is refused.
  const before = Date.now();
  let answered = null;
  const taken = profile(server.url, '?seconds=2', TOKEN).then((a) => (answered = a));
  let runs = 0;
  let second = null;
  while (answered === null) {
    assert.strictEqual((await request(`${server.url}/run/busy`)).status, 200);
    runs++;
    if (second === null) second = await profile(server.url, '?seconds=1', TOKEN);
  }
  await taken;
  assert.strictEqual(second.status, 409, second.text);
  assert.strictEqual(answered.status, 200, answered.text.slice(0, 300));
  const { thread, startedAtMs, endedAtMs, intervalUs, profile: p } = answered.json;
  assert.strictEqual(thread, 'main');
  assert.strictEqual(intervalUs, 1000);
  assert.ok(startedAtMs >= before && endedAtMs > startedAtMs, `${before} ${startedAtMs} ${endedAtMs}`);
  assert.ok(Array.isArray(p.nodes) && Array.isArray(p.samples) && p.samples.length === p.timeDeltas.length, 'a .cpuprofile');
  const names = new Set(p.nodes.map((n) => n.callFrame.functionName));
  assert.ok(names.has('busyStringifyForProfileTest'), `the work is in the profile (${runs} runs while it was taken)`);
  assert.strictEqual((await request(`${server.url}/healthz`)).status, 200);
});
