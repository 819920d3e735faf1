'use strict';
// idle-target.js over real HTTP: a tiny target on port 0 whose /healthz says the runs it has in progress, one answer
// after another from a script (counted requests, not time), so each case holds on a machine of any speed.
const test = require('node:test');
const assert = require('node:assert');
const { waitForIdleTarget, busyTargetFlag } = require('../src/run/idle-target');
const { serveOnPort0 } = require('./port0-server');

const BOUND_MS = 60000;

/** A target whose n-th /healthz answers bodies[n] (the last one again after them), onAsked(n) called first; {url, asked}. */
async function startTarget(t, bodies, onAsked = () => {}) {
  const target = { asked: 0 };
  target.url = await serveOnPort0(t, (req, res) => {
    onAsked(target.asked + 1);
    const body = bodies[Math.min(target.asked++, bodies.length - 1)];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  return target;
}

test('a target with runs in progress is asked again until it has none', async (t) => {
  const target = await startTarget(t, [{ status: 'ok', runs: 2 }, { status: 'ok', runs: 1 }, { status: 'ok', runs: 1 }, { status: 'ok', runs: 0 }]);
  const idle = await waitForIdleTarget(target.url, BOUND_MS, new AbortController().signal);
  assert.strictEqual(idle.runs, 2);
  assert.strictEqual(idle.left, 0);
  assert.strictEqual(target.asked, 4, 'asked until it said 0, and no more');
});

test('an idle target, or one that does not count its runs, is asked once and not waited for', async (t) => {
  for (const body of [{ status: 'ok', runs: 0 }, { status: 'ok' }]) {
    const target = await startTarget(t, [body]);
    assert.strictEqual(await waitForIdleTarget(target.url, BOUND_MS, new AbortController().signal), null, JSON.stringify(body));
    assert.strictEqual(target.asked, 1);
  }
});

test('past the bound it stops asking and says how many runs are left, which the scenario flags', async (t) => {
  const target = await startTarget(t, [{ status: 'ok', runs: 3 }]);
  const idle = await waitForIdleTarget(target.url, 0, new AbortController().signal);
  assert.deepStrictEqual({ runs: idle.runs, left: idle.left, asked: target.asked }, { runs: 3, left: 3, asked: 1 });
  assert.match(busyTargetFlag('node-async', idle), /^node-async still had 3 run\(s\) of earlier scenarios in progress/);
});

test('a stopped pass stops the wait', async (t) => {
  const stop = new AbortController();
  // Stopped while the target is asked the second time: the first answer said 1, and nothing says less.
  const target = await startTarget(t, [{ status: 'ok', runs: 1 }], (n) => n === 2 && stop.abort());
  const idle = await waitForIdleTarget(target.url, BOUND_MS, stop.signal);
  assert.deepStrictEqual({ runs: idle.runs, left: idle.left, asked: target.asked }, { runs: 1, left: 1, asked: 2 });
});
