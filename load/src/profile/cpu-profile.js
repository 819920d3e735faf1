'use strict';
// Reading a V8 CPU profile (.cpuprofile: nodes with their callFrame and children, samples naming a node each, the
// microseconds between samples): each sample's stack, folded stacks for flame graphs ("root;a;b count", Brendan
// Gregg's format, read by every flame-graph tool), and the part no profiler reports on its own: the longest stretch in
// which the thread never went back to its event loop (no "(idle)" sample), how long it lasted, and the stacks that ran
// in it, heaviest first. That stretch is the block a scenario's lag shows; its stacks say what blocked.

const { round } = require('@lab/loop-kit/round');

const IDLE = '(idle)';
const ROOT = '(root)';

/** A frame's name as a flame graph shows it: the function (or "(anonymous)") and, for script code, its file's name. */
function frameName({ functionName, url, lineNumber }) {
  const name = functionName || '(anonymous)';
  if (!url) return name;
  const file = url.slice(url.lastIndexOf('/') + 1);
  return `${name} ${file}:${lineNumber + 1}`;
}

/** {stackOf(nodeId) -> [frame names from the outermost], ms per sample} of a profile. */
function stacksOf(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children || []) parent.set(child, n.id);
  const cache = new Map();
  function stackOf(id) {
    if (cache.has(id)) return cache.get(id);
    const frames = [];
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = frameName(byId.get(at).callFrame);
      if (name !== ROOT) frames.push(name);
    }
    frames.reverse();
    cache.set(id, frames);
    return frames;
  }
  return { stackOf, byId };
}

/**
 * Every sample as {stack, ms, atMs}: ms is the time until the next sample (the last one's own interval is unknown: the
 * mean), atMs when it was taken, in ms from the profile's start. A profile of several threads sampled at once (the
 * JVM's, agents/jvm-agent's CpuProfile.java) says `sampleIntervalUs` instead: each sample is that much of its
 * thread's time, however close the next sample of another thread came.
 */
function samplesOf(profile) {
  const { stackOf } = stacksOf(profile);
  const deltas = profile.timeDeltas;
  const meanMs = deltas.length > 1 ? (profile.endTime - profile.startTime) / 1000 / deltas.length : 0;
  const perSampleMs = profile.sampleIntervalUs > 0 ? profile.sampleIntervalUs / 1000 : null;
  let atUs = 0;
  return profile.samples.map((id, i) => {
    atUs += deltas[i];
    const ms = perSampleMs !== null ? perSampleMs : i + 1 < deltas.length ? deltas[i + 1] / 1000 : meanMs;
    return { stack: stackOf(id), ms, atMs: atUs / 1000 };
  });
}

/** The stacks of the samples taken between fromMs and toMs (from the profile's start), heaviest first: {ms, samples, stacks}. */
function stacksBetween(samples, fromMs, toMs, top = 8) {
  const inside = samples.filter((s) => s.atMs >= fromMs && s.atMs <= toMs && !isIdle(s));
  return { ms: round(toMs - fromMs), fromMs: round(fromMs), toMs: round(toMs), samples: inside.length, stacks: heaviestStacks(inside, top) };
}

/** The `top` heaviest stacks of busy samples: [{stack: [frames], ms, share of their busy time}]. */
function heaviestStacks(busy, top) {
  const busyMs = busy.reduce((sum, s) => sum + s.ms, 0);
  return foldedStacks(busy).slice(0, top).map((f) => ({ stack: f.stack.split(';'), ms: round(f.ms), share: busyMs > 0 ? round(f.ms / busyMs) : 0 }));
}

/** Folded stacks: [{stack: 'a;b;c', ms}], heaviest first; idle time left out. */
function foldedStacks(samples) {
  const totals = new Map();
  for (const s of samples) {
    if (isIdle(s)) continue;
    const key = s.stack.join(';');
    totals.set(key, (totals.get(key) || 0) + s.ms);
  }
  return [...totals].map(([stack, ms]) => ({ stack, ms })).sort((a, b) => b.ms - a.ms);
}

/** The folded stacks as text, one "a;b;c <microseconds>" line each (what flamegraph.pl and speedscope read). */
const foldedText = (folded) => folded.map((f) => `${f.stack} ${Math.round(f.ms * 1000)}`).join('\n');

const isIdle = (s) => s.stack.length === 1 && s.stack[0] === IDLE;

/**
 * The longest stretch of samples without an idle one: {ms, fromMs, toMs (from the profile's start), stacks: [{stack,
 * ms, share}] heaviest first (at most `top`)}; null when the thread was idle throughout.
 */
function longestBlock(samples, top = 8) {
  let best = null;
  let run = null;
  let atMs = 0;
  samples.forEach((s, i) => {
    if (isIdle(s)) run = null;
    else {
      if (!run) run = { first: i, fromMs: atMs, ms: 0 };
      run.ms += s.ms;
      run.last = i;
      if (!best || run.ms > best.ms) best = Object.assign({}, run);
    }
    atMs += s.ms;
  });
  if (!best) return null;
  const inside = samples.slice(best.first, best.last + 1);
  return { ms: round(best.ms), fromMs: round(best.fromMs), toMs: round(best.fromMs + best.ms), samples: inside.length, stacks: heaviestStacks(inside, top) };
}

module.exports = { samplesOf, foldedStacks, foldedText, longestBlock, stacksBetween, frameName };
