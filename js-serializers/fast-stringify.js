'use strict';
/**
 * Non-blocking JSON.stringify: the same text, byte for byte, produced in slices of about `yieldMs` milliseconds with
 * a turn of the event loop (setImmediate) between slices, so timers and I/O keep running while a large document is
 * serialized. CommonJS and Node 14 syntax, because the Node 14 services load it too.
 *
 *   stringify(value, options?)          -> Promise<string | undefined>
 *       Resolves to exactly JSON.stringify(value), undefined included (top-level undefined, function or symbol).
 *       Its last step joins the pieces into one flat string, a copy that cannot be split (its own slice).
 *   chunks(value, options?)             -> AsyncIterable<string>
 *       The same text as chunks whose concatenation equals JSON.stringify(value); the whole string is never built.
 *       A chunk holds at least 64 Ki characters (except the last) and at most about one slice's output (a long
 *       piece of output, such as a batch's text, is handed over as it is rather than copied into one); no chunk when
 *       JSON.stringify would return undefined. A chunk never ends between the two halves of a surrogate pair, so
 *       each chunk can be encoded to UTF-8 on its own.
 *   pipeTo(value, writable, options?)   -> Promise<{bytes, chunks, yields}>
 *       Writes the chunks to a Node Writable, waiting for 'drain' whenever write() returns false. Rejects if the
 *       writable errors or closes before the end. Leaves the writable open unless options.end is true, in which case
 *       it calls end() and resolves after 'finish'. `bytes` counts UTF-8 bytes written (for a document written in
 *       one piece, counted when first read).
 *
 * Options (all optional):
 *   signal   AbortSignal: once aborted, the promise rejects (iteration throws) with signal.reason, or an
 *            AbortError when there is none, at the next slice boundary, and no more work is done or written.
 *   yieldMs  target length of one synchronous slice in ms (default 5).
 *   stats    an object that gets `yields`, `nativeCalls`, `maxSliceMs`, `chars` (characters of output, all slices
 *            together), `maxSliceChars` (the most of them one slice produced) and, for stringify(), `joinChars` (the
 *            characters of its final join, one step) filled in as the work progresses.
 *   end      pipeTo only: end the writable after the last chunk (default false: the caller decides).
 *
 * Errors are native's: TypeError for a cycle or a BigInt, RangeError where native runs out of stack, and whatever a
 * toJSON or a getter throws. Invalid options throw (stringify and pipeTo reject; chunks throws when called).
 *
 * Before changing this module: `make bench-shapes-quick` (a few minutes: the generated tree families against native,
 * the worst ratio and block per family), bench/modelled-work.js (the same documents' work counted, not timed: the
 * algorithm's share of a gap, on a loaded machine too) and test/work-counts.test.js (native calls, characters and
 * inspections per node, counted, in `make test`) tell whether a change costs work anywhere. A change to the sizes of
 * the texts native makes also needs `make bench-shapes SHAPES_ARGS="--family ..."` before and after: its heap is not
 * collected before each call, and the scavenges that meet young texts, which the quick benchmark's cold heap hides,
 * reversed such a change's gain there (docs/findings/js-serializers.md, 2026-11-27, "cold against steady").
 *
 * How it works, why, its limits and the invariants its work-count guard checks: fast-stringify.md. The modules of
 * the walk are in fast-stringify/ (fast-stringify.md lists them); this file is the public entry: options and stats,
 * the slice loop around the walk, the join, the chunks and the writes.
 */
const { AbortError, abortReason, throwIfAborted, readSliceOptions, nextTurn, slicesOf } = require('@lab/loop-kit/slices');
const { ARRAY, Frame, newPending, newRecord, newListedKeys, now } = require('./fast-stringify/frame');
const { newEstimateBudget } = require('./fast-stringify/estimate');
const { Walker } = require('./fast-stringify/walker');
const { utf8Counter } = require('./utf8-bytes');

const CHUNK_CHARS = 1 << 16;
const JOIN_ALONE_CHARS = 1 << 20;

function readOptions(options) {
  const settings = readSliceOptions(options);
  settings.end = Boolean(options && options.end === true);
  return settings;
}

/** The stats of a call whose caller gave none: every field in one literal, so that they have one shape. */
const newStats = () => ({ yields: 0, nativeCalls: 0, maxSliceMs: 0, chars: 0, maxSliceChars: 0, joinChars: 0 });

// One instance of each object a call makes (its settings and stats, a walker, a frame with its Rates, an estimate's
// budget, a child left pending, a container's keys listed), remade after each call and outliving it: V8 drops a shape
// at a full collection once no object has it, with the optimized code that checks it, and the next call rebuilt them
// field by field (one step on a 64 KB tree right after gc(): 114-124 us, 62-63 with them kept; 37-38 warm, before and
// now). Remade after a call, not at load: a field's first fraction (a time) moves its objects to a new shape. They
// hold no document and no output. fast-stringify.md, "Shapes kept between calls".
const kept = { shapes: null };

function keepShapes() {
  kept.shapes = {
    settings: readOptions(undefined),
    stats: newStats(),
    walker: new Walker(undefined, 0, false),
    frame: new Frame(ARRAY, [], null, 0, 0, 0),
    budget: newEstimateBudget(0, 0, 0),
    pending: newPending(null, 0),
    record: newRecord(false, 0, '', 0),
    listedKeys: newListedKeys(null, null),
  };
}

/**
 * A Walker of value, with stats reset; walker.done when it did the whole document in one step (Walker.oneStep), in
 * the caller's turn, and the slice loop is not needed. joined: the caller makes one string of the output
 * (stringify()), whose join is a step of all its characters anyway.
 */
function start(value, settings, joined) {
  // Fields set one by one, not by Object.assign: on the one-step path, every call made cold by a collection counts.
  const stats = settings.stats || (settings.stats = newStats());
  stats.yields = 0;
  stats.nativeCalls = 0;
  stats.maxSliceMs = 0;
  stats.chars = 0;
  stats.maxSliceChars = 0;
  throwIfAborted(settings.signal);
  const walker = new Walker(value, settings.maxSliceChars, joined === true);
  const started = now();
  if (walker.oneStep(settings.yieldMs)) {
    walker.done = true;
    stats.nativeCalls = walker.nativeCalls;
    stats.maxSliceMs = now() - started;
    stats.chars = walker.outChars;
    stats.maxSliceChars = walker.outChars;
    keepShapes();
  }
  return walker;
}

/** Runs a started Walker slice by slice (loop-kit's slice loop), yielding it after each slice. */
async function* slices(walker, settings) {
  const stats = settings.stats;
  const step = (deadline) => {
    const started = now();
    const charsBefore = walker.outChars;
    const done = walker.step(deadline);
    stats.maxSliceMs = Math.max(stats.maxSliceMs, now() - started);
    stats.maxSliceChars = Math.max(stats.maxSliceChars, walker.outChars - charsBefore);
    stats.chars = walker.outChars;
    stats.nativeCalls = walker.nativeCalls;
    throwIfAborted(settings.signal); // a toJSON may have aborted: no output after an abort
    return done;
  };
  const turns = slicesOf(step, { yieldMs: settings.yieldMs, signal: settings.signal, stats });
  try {
    while (!(await turns.next()).done) yield walker;
  } finally {
    keepShapes();
  }
}

async function stringify(value, options) {
  const settings = readOptions(options);
  const walker = start(value, settings, true);
  const stats = settings.stats;
  if (walker.done) {
    stats.joinChars = 0; // one piece: nothing to join
    return walker.text();
  }
  for await (const w of slices(walker, settings)) void w;
  // Making the one flat string is a copy of the whole output that cannot be split (about 0.4 ms a MB): a slice of its
  // own when it is large. chunks() and pipeTo() never make it.
  if (walker.outChars > JOIN_ALONE_CHARS) {
    await nextTurn();
    stats.yields++;
    throwIfAborted(settings.signal);
  }
  const started = now();
  const text = walker.text();
  stats.maxSliceMs = Math.max(stats.maxSliceMs, now() - started);
  stats.joinChars = walker.outChars;
  return text;
}

/**
 * The output as chunks: short pieces joined until they make CHUNK_CHARS, a long piece (a batch's text, a piece of a
 * long string) handed over as it is once it has completed the chunk before it. A join copies every piece it joins:
 * joined, a slice's output was copied once more in the same turn (3-5 ms for the 5 M characters of a slice).
 */
async function* chunksOf(settings, value) {
  const started = start(value, settings);
  if (started.done) {
    if (!started.undefinedResult) yield started.text();
    return;
  }
  yield* chunksAfterFirstStep(started, settings);
}

/** chunksOf's chunks of a document start() could not do in one step. */
async function* chunksAfterFirstStep(started, settings) {
  let pending = [];
  let pendingChars = 0;
  for await (const walker of slices(started, settings)) {
    if (walker.undefinedResult) return;
    const pieces = walker.take();
    for (let i = 0; i < pieces.length; i++) {
      let piece = pieces[i];
      if (pendingChars > 0 && pendingChars + piece.length >= 2 * CHUNK_CHARS) {
        const cut = pairSafeCut(piece, CHUNK_CHARS - pendingChars);
        pending.push(piece.slice(0, cut));
        piece = piece.slice(cut);
        yield pending.join('');
        pending = [];
        pendingChars = 0;
      }
      if (pendingChars === 0 && piece.length >= CHUNK_CHARS) {
        yield piece;
        continue;
      }
      pending.push(piece);
      pendingChars += piece.length;
    }
    if (pendingChars >= CHUNK_CHARS) {
      const chunk = pending.join('');
      pending = [];
      pendingChars = 0;
      yield chunk;
    }
  }
  if (pendingChars > 0) yield pending.join('');
}

/** `at`, or one more when the character before it is the first half of a surrogate pair (pieces never split one). */
function pairSafeCut(piece, at) {
  if (at <= 0) return 0;
  const code = piece.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff && at < piece.length ? at + 1 : at;
}

function chunks(value, options) {
  return chunksOf(readOptions(options), value);
}

/** Turns a writable's 'error' / early 'close' and the signal's abort into one failure that pending waits reject with. */
function watch(writable, signal) {
  let failure = null;
  let waiter = null;
  const fail = (err) => {
    if (failure === null) failure = err;
    if (waiter !== null) waiter.reject(failure);
  };
  const onError = (err) => fail(err);
  // A writable that finished closes right after (autoDestroy): not a failure, and no Error made (its stack trace was
  // most of what pipeTo() cost beyond native's write on a small document).
  const onClose = () => writable.writableFinished || fail(new Error('the writable closed before serialization finished'));
  const onAbort = () => fail(abortReason(signal));
  const onDrain = () => waiter !== null && waiter.resolve();
  const onFinish = onDrain;
  writable.on('error', onError);
  writable.on('close', onClose);
  writable.on('drain', onDrain);
  writable.on('finish', onFinish);
  if (signal !== null && typeof signal.addEventListener === 'function') signal.addEventListener('abort', onAbort);
  const wait = () =>
    new Promise((resolve, reject) => {
      waiter = { resolve, reject };
    }).then(
      () => (waiter = null),
      (err) => {
        waiter = null;
        throw err;
      },
    );
  return {
    check() {
      if (failure === null && signal !== null && signal.aborted) failure = abortReason(signal);
      if (failure !== null) throw failure;
    },
    wait() {
      this.check();
      return wait();
    },
    dispose() {
      writable.removeListener('error', onError);
      writable.removeListener('close', onClose);
      writable.removeListener('drain', onDrain);
      writable.removeListener('finish', onFinish);
      if (signal !== null && typeof signal.removeEventListener === 'function') signal.removeEventListener('abort', onAbort);
    },
  };
}

async function pipeTo(value, writable, options) {
  const settings = readOptions(options);
  if (writable.destroyed || writable.writableEnded) throw new Error('the writable is already ended or destroyed');
  let result = { bytes: 0, chunks: 0, yields: 0 };
  const started = start(value, settings);
  let drained = true;
  if (started.done) {
    // A document done in one step is written at once, and the writable is watched only when there is something to
    // wait for: on a small document, the listeners and the chunks' async iteration were most of what pipeTo cost
    // beyond native's text written.
    if (!started.undefinedResult) {
      const text = started.text();
      result = writtenInOnePiece(text);
      drained = writable.write(text);
    }
    if (drained && !settings.end) return result;
  }
  const watcher = watch(writable, settings.signal);
  try {
    if (!drained) await watcher.wait();
    if (!started.done) {
      const countBytes = utf8Counter();
      for await (const chunk of chunksAfterFirstStep(started, settings)) {
        watcher.check();
        result.bytes += countBytes(chunk);
        result.chunks++;
        if (!writable.write(chunk)) await watcher.wait();
      }
    }
    watcher.check();
    if (settings.end) {
      const finished = watcher.wait();
      writable.end();
      await finished;
    }
  } finally {
    watcher.dispose();
  }
  result.yields = settings.stats.yields;
  return result;
}

/**
 * pipeTo()'s result for a document written in one piece: its `bytes`, the UTF-8 length of text, counted when first
 * read. The count took a sixth of native's stringify time on ASCII text (Buffer.byteLength; utf8-bytes.js says why it
 * is faster now), and on a small document was most of what pipeTo() cost beyond native's text written; a caller who
 * wants the figure pays the same with either. An own enumerable getter, as a data property would be, made in the
 * literal: defined afterwards (Object.defineProperty), it took 0.35-0.54 us a call where the literal takes 0.23, and
 * pipeTo() of a three-key object 1.27-1.50 us, now 1.16-1.37 (the same rounds). Chunks of a longer document are
 * counted as they are written: keeping them for a later count would keep the whole output.
 */
function writtenInOnePiece(text) {
  let uncounted = text;
  let bytes = 0;
  return {
    get bytes() {
      if (uncounted !== null) {
        bytes = utf8Counter()(uncounted);
        uncounted = null;
      }
      return bytes;
    },
    chunks: 1,
    yields: 0,
  };
}

module.exports = { stringify, chunks, pipeTo, AbortError };
