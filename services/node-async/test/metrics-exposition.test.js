'use strict';
// GET /metrics rendered a metric at a time (node-kit/exposition.js): the same text as prom-client's registry.metrics(),
// and a turn of the event loop between slices, shown by a counter only a turn can advance, never by the clock.
const test = require('node:test');
const assert = require('node:assert');
const promClient = require('prom-client');
const { slicedExposition } = require('@lab/node-kit/exposition');

/** A registry of every kind of metric, with labels and default labels, whose values stay put between renderings. */
function staticRegistry() {
  const registry = new promClient.Registry();
  registry.setDefaultLabels({ service: 'lab "test"\n' });
  new promClient.Counter({ name: 'a_total', help: 'a counter', labelNames: ['kind'], registers: [registry] }).inc({ kind: 'x' }, 3);
  new promClient.Gauge({ name: 'b', help: 'a gauge \\ with a backslash', registers: [registry] }).set(-0.5);
  const h = new promClient.Histogram({ name: 'c_seconds', help: 'a histogram', buckets: [0.1, 1], labelNames: ['w'], registers: [registry] });
  h.observe({ w: 'p' }, 0.05);
  h.observe({ w: 'q' }, 5);
  new promClient.Gauge({ name: 'd', help: 'never set', registers: [registry] });
  return registry;
}

test('the sliced exposition is the registry\'s own text, byte for byte', async () => {
  const registry = staticRegistry();
  const whole = await registry.metrics();
  assert.strictEqual(await slicedExposition(registry, { sliceMs: 0 }), whole);
  assert.strictEqual(await slicedExposition(registry), whole);
});

test('between slices the event loop gets a turn; within one it does not', async () => {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  const registry = new promClient.Registry();
  const seen = [];
  for (const name of ['m1', 'm2', 'm3', 'm4']) {
    new promClient.Gauge({ name, help: name, registers: [registry], collect() { seen.push(turns); this.set(turns); } });
  }
  setImmediate(tick);
  try {
    await slicedExposition(registry, { sliceMs: 0 }); // every metric its own slice
    assert.ok(seen.every((t, i) => i === 0 || t > seen[i - 1]), `a turn between every two metrics: ${seen}`);
    seen.length = 0;
    await slicedExposition(registry, { sliceMs: Infinity }); // one slice
    assert.ok(seen.every((t) => t === seen[0]), `no turn within a slice: ${seen}`);
  } finally {
    ticking = false;
  }
});
