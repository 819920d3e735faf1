'use strict';
// The driver's side of a target's POST /profile (node-kit/profiler.js; the JVM's ProfileRoute.kt): asked when a
// scenario's window starts, for its duration, with the token the lab shares between the driver and its services
// (LAB_PROFILE_TOKEN); kept beside the scenario's result as <NN>-<name>.cpuprofile (any Chromium DevTools or speedscope
// opens it) and .folded (and the JVM's recording as .jfr, which JDK Mission Control opens), and read into the
// scenario's `profile`: the longest block in it and the stacks that ran there, or, for the JVM, which has no event loop
// to block, its heaviest stacks, safepoints and GC pauses. Profiling is off unless a suite asks (`"profile": true`) or
// the driver runs with PROFILE=1; a target without the route (a token not set there) is said in the result, never a
// failure of the scenario.
const fs = require('node:fs');
const path = require('node:path');
const { samplesOf, foldedStacks, foldedText, longestBlock, stacksBetween } = require('./cpu-profile');

// The answer comes after the profile's seconds; this much longer is allowed for the service to stop and send it.
const ANSWER_MARGIN_MS = 30000;
// A profile lasts the window and this much more, for the runs still in flight when the window ends.
const PROFILE_TAIL_SECONDS = 2;

/** Whether a scenario of `suite` is profiled (env: the driver's environment). */
const profiling = (suite, env = process.env) => suite.profile === true || env.PROFILE === '1';

/** Starts a profile of the target at url for `seconds`; resolves to the service's answer body, or {error}. A run stopped (signal) stops waiting. */
async function takeProfile(url, seconds, token, signal) {
  if (!token) return { error: 'the driver has no LAB_PROFILE_TOKEN: profiling needs the token it shares with the services' };
  try {
    const res = await fetch(`${url}/profile?seconds=${seconds}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.any([AbortSignal.timeout(seconds * 1000 + ANSWER_MARGIN_MS)].concat(signal ? [signal] : [])) });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return { error: res.status === 404 ? 'the target has no profiling route (LAB_PROFILE_TOKEN unset there)' : `HTTP ${res.status}: ${body.error || ''}` };
    return body;
  } catch (err) {
    return { error: `no profile: ${err.name === 'TimeoutError' ? 'no answer in time' : signal && signal.aborted ? 'the run was stopped' : err.message}` };
  }
}

/**
 * The scenario's longest block as the profile saw it: where the service's runs said when their longest block was
 * (blockAt: wall-clock {fromMs, toMs}, loop-kit/event-loop.js) and the profile covers it, the samples in that span;
 * otherwise the profile's longest stretch without an idle sample, which a loop that yields without ever waiting
 * (setImmediate after setImmediate) also shows as one stretch, so it is said which.
 */
function blockOf(samples, startedAtMs, blockAt) {
  if (blockAt && samples.length > 0) {
    const from = blockAt.fromMs - startedAtMs;
    const to = blockAt.toMs - startedAtMs;
    const end = samples[samples.length - 1].atMs;
    // Inside the profile, or mostly: a block that began just before it or ended just after is still read from the part sampled.
    if (to > 0 && from < end && Math.min(to, end) - Math.max(from, 0) >= (to - from) / 2) {
      const clipped = from < 0 || to > end;
      return Object.assign({ from: `the runs' own longest block${clipped ? ', partly outside the profile' : ''}`, startedAtMs: blockAt.fromMs }, stacksBetween(samples, from, to));
    }
  }
  const stretch = longestBlock(samples);
  return stretch && Object.assign({ from: 'the longest stretch without an idle sample', startedAtMs: startedAtMs + stretch.fromMs }, stretch);
}

/**
 * Writes the answer's profile beside the scenario's result (base: the result file's path without .json) and returns
 * what the result keeps: {files, startedAtMs, samples, longestBlock, topStacks}, or {error}. blockAt: when the runs'
 * longest block was, if they said.
 */
function keepProfile(answer, base, blockAt = null) {
  if (answer.error) return { error: answer.error };
  const samples = samplesOf(answer.profile);
  const folded = foldedStacks(samples);
  fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(answer.profile));
  fs.writeFileSync(`${base}.folded`, `${foldedText(folded)}\n`);
  const files = [`${path.basename(base)}.cpuprofile`, `${path.basename(base)}.folded`];
  const kept = {
    files,
    thread: answer.thread,
    startedAtMs: answer.startedAtMs,
    intervalUs: answer.intervalUs,
    samples: samples.length,
    topStacks: folded.slice(0, 12).map((f) => ({ stack: f.stack.split(';'), ms: Math.round(f.ms * 1000) / 1000 })),
  };
  if (answer.jfr === undefined) return Object.assign(kept, { longestBlock: blockOf(samples, answer.startedAtMs, blockAt) });
  // The JVM's: every thread sampled, none idle, so no stretch of them is a block; the window's heaviest stacks, and what
  // stopped every thread (safepoints, GC pauses) instead.
  fs.writeFileSync(`${base}.jfr`, Buffer.from(answer.jfr, 'base64'));
  files.push(`${path.basename(base)}.jfr`);
  const window = stacksBetween(samples, 0, Infinity);
  return Object.assign(kept, { longestBlock: null, heaviest: window.stacks, safepoints: answer.safepoints, gcPauses: answer.gcPauses });
}

module.exports = { profiling, takeProfile, keepProfile, PROFILE_TAIL_SECONDS };
