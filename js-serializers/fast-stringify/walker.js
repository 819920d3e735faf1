'use strict';
// fast-stringify's walk (fast-stringify.md): the Walker, whose step(deadline) does work until the deadline and says
// whether the text is complete. Here: the loop of steps, the one-step decision for a document native does within a
// slice, the output, a child serialized alone (walked when it is a container), and a long string in pieces. The
// batches' methods (batches.js) are Walker's too, mixed in below before any walker exists, so that every call stays
// a call on the one Walker shape, as when they were one class. Node 14 syntax.
const { types } = require('util');
const { knownPlainAscii } = require('../plain-ascii');
const { ESTIMATE_MAX_CONTAINERS, LONG_STRING, STRING_CHARS_PER_UNIT, LONG_UNIT_CHARS, toLength, estimate, keysOf, newEstimateBudget, plainValue } = require('./estimate');
const { ROOT, ARRAY, OBJECT, STRING, ROOT_FRAME, LEARNT, Rates, KindRates, ratesOfKind, Frame, newListedKeys, now } = require('./frame');
const { batches, LARGE_CONTAINER } = require('./batches');
const { youngGeneration } = require('@lab/loop-kit/scavenge-forecast');

// A long string (longer than estimate.js' LONG_STRING) is escaped in pieces of at least this many characters.
const MIN_STRING_PIECE = 1 << 14;
// A string JSON.stringify writes as it is: none of quote, backslash, control characters and surrogates (a lone one
// is escaped; pairs are not, but telling them apart is JSON.stringify's work). Matching what may stay, anchored at
// both ends, runs in about 0.85 ns a character here; searching for what may not, 1.4 ns.
const NOTHING_TO_ESCAPE = /^[\u0020\u0021\u0023-\u005b\u005d-\ud7ff\ue000-\uffff]*$/;
// Before anything is measured, assume a slow 2 us per unit: a first batch that is too small only costs a native call.
const INITIAL_MS_PER_UNIT = 0.002;
// The one-step decision's prior (Walker.unitsIfWholeFits) before anything was measured: 0.2 us a unit, 4-10 times what
// native takes here. At the batches' prior, a 16 KB tree of objects (1100 units) was more than a 1 ms slice, and the
// first run of a process walked it in 3 native calls.
const INITIAL_WHOLE_MS_PER_UNIT = 0.0002;
const INITIAL_STRING_CHARS_PER_MS = 1 << 14; // escaping can be as slow as 15 ns a character
// The one-step decision's glance (Walker.unitsIfWholeFits) reads this many containers for themselves (the root, its
// first child and grandchild), trusts a sibling's last key after this many alike in a row, and trusts what it finds
// when that is within this share of the slice (an estimate from alike siblings can be short). A sibling's width is a
// listing of its keys, 0.2 us for a tree node kept as a dictionary: at 8 containers and 4 siblings in a row, the glance
// took 2.9 us on a 16 KB tree of 18-key nodes that native does in 44 us (6.6 % of it), now 1.9 (4.3 %); 2.2 us on
// 64 KB of 66 keys with long leaves (36 us), now 1.9. Every object still reads its first SMALL_CONTAINER keys' values:
// a wrapper's large field is often among them.
const GLANCE_CONTAINERS = 3;
const GLANCE_ALIKE_RUN = 1;
const GLANCE_SHARE = 1 / 4;
// A document done in one step that its estimate puts at this share of the slice or more is watched for the collector
// (Walker.whole): the two readings of the young generation cost 1-3 us, nothing beside such a call.
const COLLECTOR_WATCH_SHARE = 1 / 8;

/**
 * SerializeJSONProperty steps 2-4: toJSON, then unboxing. json-semantics.prepare is not reused because it unboxes by
 * instanceof and valueOf(), where native reads the internal slot; the difference is observable.
 */
function toJSONValue(key, value) {
  const type = typeof value;
  if ((type === 'object' && value !== null) || type === 'function' || type === 'bigint') {
    const toJSON = value.toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (typeof value === 'object' && value !== null && types.isBoxedPrimitive(value)) {
    if (types.isNumberObject(value)) return Number(value);
    if (types.isStringObject(value)) return String(value);
    if (types.isBooleanObject(value)) return Boolean.prototype.valueOf.call(value);
    if (types.isBigIntObject(value)) return BigInt.prototype.valueOf.call(value);
  }
  return value;
}

// A first key longer than this does not name a kind: frame.js keeps the kinds' names, and a key may be megabytes.
const MAX_KIND_KEY = 64;

/**
 * A container document's kind, as the one-step decision tells documents apart (frame.js' ratesOfKind): an object by
 * its first key, an array by its first element's type, read without running code.
 */
function documentKind(value, keys) {
  if (keys !== null) return keys.length === 0 ? 'object' : keys[0].length > MAX_KIND_KEY ? 'object with a long first key' : `object ${keys[0]}`;
  const first = value.length > 0 ? plainValue(value, 0) : undefined;
  return `array of ${first === null ? 'null' : Array.isArray(first) ? 'array' : typeof first}`;
}

/** The serialization state; step(deadline) does work until the deadline and says whether the text is complete. */
class Walker {
  constructor(value, maxSliceChars, joined) {
    this.value = value;
    this.started = false;
    this.undefinedResult = false;
    this.out = [];
    this.outChars = 0;
    this.stack = [];
    // Containers being walked here, for native's cycle TypeError. This and `large` are made when the walk starts
    // (step): a document done in one step (oneStep) never needs them, and right after a collection each first
    // allocation of a kind costs 5-50 us, more than native's whole run on a small document.
    this.path = null;
    this.endSlice = false; // the current slice ends before its next step, whatever its time and characters
    // Containers an estimate found larger than any batch (subtreeUnits' budget.large): walked without another.
    this.large = null;
    this.nativeCalls = 0;
    this.effectFree = false; // the last child unitsInBatch counted runs no code when native serializes it
    this.done = false; // set by start() when oneStep did the whole document
    // Prior for containers not measured yet: adoptLearntPrior() (the values before anything was measured first).
    this.msPerUnit = INITIAL_MS_PER_UNIT;
    this.charsPerUnit = LONG_UNIT_CHARS;
    this.adoptLearntPrior();
    this.firstStep = true; // the step about to run is the slice's first
    this.rootKeys = null; // {container, keys}: the root's keys, listed by its estimate, for its walk
    this.wide = null; // Map: the wide objects this call listed, to their keys (estimate.js' keysOf and WIDE_KEYS)
    // The rates of documents of this one's kind (documentKind, frame.js' ratesOfKind), by which the one-step decision
    // weighs its estimate, and which its batches teach; null for a document that decision did not estimate.
    this.kindRates = null;
    // What the rates every later document starts from (LEARNT, and this document's kind's) knew as the current slice
    // began, the young generation's bytes then, and the slice's batches' lessons (ms, units, chars, flat): the
    // lesson a scavenge's pause fell in is taken back (forgetPausedBatch). Made when the walk starts.
    this.youngAtSliceStart = 0;
    this.learntAtSliceStart = null;
    this.kindAtSliceStart = null;
    this.sliceLessons = null;
    this.estimateMsBefore = 0;
    this.estimateMs = 0; // time spent in estimates, which is not the batches' (flush leaves it out of their rates)
    this.sliceMs = 0; // the length of the current slice (its deadline less its start)
    this.sliceUnits = 0; // what a whole slice takes, at the rates of the container being batched
    this.unitsLeftInSlice = 0; // and what is left of it
    this.stringCharsPerMs = INITIAL_STRING_CHARS_PER_MS;
    this.maxSliceChars = maxSliceChars;
    this.sliceEnd = maxSliceChars; // outChars at which the current slice has produced its characters
    // The most characters a document done in one step may be estimated at: half a slice's, for an estimate that is
    // short; a whole slice's when the output is joined into one string (stringify()), whose join is a step of every
    // character anyway. Walked, a document of 2.6-5 M characters of long strings that native does in 4 ms went in one
    // slice of batches all the same, then a turn, then that join: 1.4-1.7x native, where the one call is 1.0x.
    this.wholeMaxChars = joined ? maxSliceChars : maxSliceChars / 2;
  }

  /** Characters of output the current slice may still produce. */
  charsLeft() {
    return Math.max(0, this.sliceEnd - this.outChars);
  }

  step(deadline) {
    this.sliceEnd = this.outChars + this.maxSliceChars;
    this.sliceMs = deadline - now();
    if (!this.started) {
      this.started = true;
      this.path = new Set();
      this.large = new WeakSet();
      this.learntAtSliceStart = new Rates();
      this.kindAtSliceStart = new KindRates();
      this.sliceLessons = [];
      const value = this.value;
      this.value = undefined;
      this.single(ROOT_FRAME, '', value);
      this.rootKeys = null;
    }
    this.rememberSliceStart();
    const done = this.stepsUntil(deadline);
    this.forgetPausedBatch();
    return done;
  }

  /**
   * Notes, as a slice starts, what the rates every later document starts from know (LEARNT, and the kind's), and the
   * young generation's bytes (about 2 us, once a slice).
   */
  rememberSliceStart() {
    this.youngAtSliceStart = youngGeneration().used;
    LEARNT.copyTo(this.learntAtSliceStart);
    if (this.kindRates !== null) this.kindRates.copyTo(this.kindAtSliceStart);
    this.sliceLessons.length = 0;
  }

  /**
   * The prior for containers not measured yet: the batches measured anywhere, in this run and the ones before
   * (LEARNT). Before anything was measured, a slow rate (a first batch that is too small only costs a native call) and
   * a unit as long as a long scalar (one that is too large is what overshoots a slice's characters).
   */
  adoptLearntPrior() {
    this.msPerUnit = LEARNT.units > 0 ? LEARNT.msPerUnit() : INITIAL_MS_PER_UNIT;
    this.charsPerUnit = LEARNT.units > 0 ? LEARNT.charsPerUnit() : LONG_UNIT_CHARS;
  }

  /** Teaches a native call's time to LEARNT (this walk's prior follows it) and to the kind's rates. */
  learnRates(ms, units, chars) {
    if (LEARNT.learn(ms, units, chars)) this.adoptLearntPrior();
    if (this.kindRates !== null) this.kindRates.learn(ms, units, chars); // null for a scalar or an unestimated root
  }

  /** What a batch taught (batches.js' flush), noted as the slice's lesson (forgetPausedBatch) and learnt. */
  teach(ms, units, chars) {
    this.sliceLessons.push(ms, units, chars);
    this.learnRates(ms, units, chars);
  }

  /**
   * When the young generation holds less than as the slice began, a scavenge ran in the slice, and its pause fell in
   * one batch's time: the slice's lessons are taught again from what the rates knew as it began, all but the one
   * longest past its units at those rates (the pause is milliseconds; a batch of two units is slow a unit by a native
   * call's fixed cost, microseconds). On the 4 MB tree of long strings (objects, branching 16, depth 3), one batch of
   * a 260 KB child, 0.28 ms, met a 2-5 ms pause and taught LEARNT a rate ten times native's, and the next document
   * walked those children down to their own (97 native calls where 17 do): 6.5-10 ms against 4.5-5 (pipeTo() 1.61x
   * native's median in one full run, 1.15-1.31x in the others). Every lesson of such a slice taken back, a document walked in one slice, whose every
   * walk meets a scavenge, never taught its kind the rate that sends it to native whole (Node 14, test/work-counts'
   * "past half the slice's characters"). The slice's own frames keep what they learnt: their sizes err on the short
   * side, for this document alone.
   */
  forgetPausedBatch() {
    const lessons = this.sliceLessons;
    if (lessons.length === 0 || youngGeneration().used >= this.youngAtSliceStart) return;
    const rate = this.learntAtSliceStart.units > 0 ? this.learntAtSliceStart.msPerUnit() : 0;
    let paused = 0;
    for (let i = 3; i < lessons.length; i += 3) if (lessons[i] - lessons[i + 1] * rate > lessons[paused] - lessons[paused + 1] * rate) paused = i;
    this.learntAtSliceStart.copyTo(LEARNT);
    if (this.kindRates !== null) this.kindAtSliceStart.copyTo(this.kindRates);
    this.adoptLearntPrior();
    for (let i = 0; i < lessons.length; i += 3) if (i !== paused) this.learnRates(lessons[i], lessons[i + 1], lessons[i + 2]);
  }

  /** step()'s work: steps until the deadline (one at least) or the end of the text; says whether the text is complete. */
  stepsUntil(deadline) {
    const stack = this.stack;
    let progressed = false; // one step per slice at least, however short yieldMs is
    while (stack.length > 0) {
      if (this.endSlice || (progressed && (now() >= deadline || this.outChars >= this.sliceEnd))) {
        this.endSlice = false;
        return false;
      }
      this.firstStep = !progressed;
      progressed = true;
      const frame = stack[stack.length - 1];
      if (frame.kind === STRING) this.stringPiece(frame, deadline);
      else if (frame.index >= frame.length) this.close(frame);
      else this.batch(frame, deadline);
    }
    return true;
  }

  /**
   * Done in one native call, in the caller's turn, when the document is estimated to take native less than a slice
   * (unitsIfWholeFits); says whether it was. Called once, before the first slice: such a document has no second slice
   * for its first to share a turn of the loop with, and waiting a turn for it (slicesOf's first) cost more than
   * native's whole run on documents under 0.1 MB. After a collection, the turn runs the tasks V8 left for the loop
   * (0.1-0.3 ms here): 2-4x native's time on those documents, where the call itself costs 1.1-1.3x.
   */
  oneStep(sliceMs) {
    this.sliceMs = sliceMs;
    const units = this.unitsIfWholeFits(this.value);
    if (units === 0) return false;
    this.started = true;
    const value = this.value;
    this.value = undefined;
    this.whole(value, units);
    return true;
  }

  /**
   * Whether a document is estimated (subtreeUnits) to take native less than one slice, at the rates documents of its
   * kind taught (kindRates; before any did, at the prior INITIAL_WHOLE_MS_PER_UNIT, so that a small document is one
   * call from the first run on): then slicing it buys nothing, and it is done in one native call (a document of 1 MB
   * takes native 5-13 ms: walked, it paid 1.7-2.6 times that), and at most wholeMaxChars characters. Not a proxy,
   * nor a value with a toJSON (whose result the estimate cannot see). Its estimated units when it fits, 0 otherwise.
   */
  unitsIfWholeFits(value) {
    // A scalar at the top is one unit, a string one per STRING_CHARS_PER_UNIT characters up to LONG_STRING (a longer
    // one is written in pieces); a function, which may have a toJSON, is left to the walk.
    const type = typeof value;
    if (type === 'string') return value.length > LONG_STRING ? 0 : 1 + value.length / STRING_CHARS_PER_UNIT;
    if (type === 'function') return 0;
    if (type !== 'object' || value === null) return 1;
    if (types.isProxy(value) || 'toJSON' in value) return 0;
    // Listing a wide object's keys is a step of its own (descend()): listed once, for the estimate and the walk.
    this.rootKeys = Array.isArray(value) ? null : newListedKeys(value, Object.keys(value));
    const keys = this.rootKeys && this.rootKeys.keys;
    this.kindRates = ratesOfKind(documentKind(value, keys));
    // A glance first, counting siblings as alike after GLANCE_CONTAINERS: the estimate was 10-15 % of native's time on
    // the documents it sends to one call (16-85 KB trees of objects), most of it reading 32 containers each for
    // itself. A document the glance finds within a quarter of the slice is done; one nearer needs the closer look.
    const glanceBudget = newEstimateBudget(ESTIMATE_MAX_CONTAINERS, undefined, GLANCE_CONTAINERS, GLANCE_ALIKE_RUN);
    const glance = estimate(value, glanceBudget, keys);
    if (this.wholeFits(glance, GLANCE_SHARE)) return glance;
    // The wide objects the glance listed are not listed again, by the full estimate nor by the walk (estimate.js'
    // WIDE_KEYS says what that cost).
    const units = this.estimated(value, newEstimateBudget(ESTIMATE_MAX_CONTAINERS), keys, glanceBudget.wide);
    return this.wholeFits(units, 1) ? units : 0;
  }

  /** An object's keys, listed once in the call when it is wide (estimate.js' keysOf and WIDE_KEYS). */
  keysOf(object) {
    return keysOf(object, this);
  }

  /**
   * estimate() of value with budget, handed the wide objects' keys listed so far in this call (wide, this.wide
   * unless given) and keeping the ones it lists for the estimates and descents after it.
   */
  estimated(value, budget, keys, wide) {
    budget.wide = wide === undefined ? this.wide : wide;
    const units = estimate(value, budget, keys);
    this.wide = budget.wide;
    return units;
  }

  /**
   * Whether a document estimated at `units` takes native at most `share` of a slice, at the rates its kind taught (the
   * prior INITIAL_WHOLE_MS_PER_UNIT before any), and `share` of wholeMaxChars characters. A method, not a closure:
   * on the one-step path, every allocation made cold by a collection counts.
   */
  wholeFits(units, share) {
    return units !== Infinity && units * this.wholeMsPerUnit() <= this.sliceMs * share && units * this.charsPerUnit <= this.wholeMaxChars * share;
  }

  /** Native's milliseconds a unit for this document: its kind's rate, or INITIAL_WHOLE_MS_PER_UNIT before any. */
  wholeMsPerUnit() {
    const rates = this.kindRates;
    return rates.units > 0 ? rates.msPerUnit() : INITIAL_WHOLE_MS_PER_UNIT;
  }

  /**
   * The whole document in one native call, which is also a batch to learn from, unless the collector ran in it. A
   * scavenge inside the call adds its pause to the document's time: on the 4.2 MB tree of long strings (objects,
   * branching 4), 3.9-4.2 ms calls met one of 1.5-3.9 ms now and then, and a call of 7.6-8.0 ms taught the kind a rate
   * past the 5 ms slice (KindRates takes a call halfway): the next document was walked in 21 calls and a yield
   * (6.6-8.3 ms), three rounds of nine in one run of the full benchmark (1.58x native there; 0.94x in the run before,
   * whose scavenges were 1.5 ms). The young generation holding less after the call than before tells that one ran.
   */
  whole(value, units) {
    const watched = this.kindRates !== null && units * this.wholeMsPerUnit() >= this.sliceMs * COLLECTOR_WATCH_SHARE;
    const youngBefore = watched ? youngGeneration().used : 0;
    const started = now();
    const text = JSON.stringify(value);
    this.nativeCalls++;
    if (text === undefined) {
      this.undefinedResult = true;
      return;
    }
    const ms = now() - started;
    if (!watched || youngGeneration().used >= youngBefore) this.learnRates(ms, units, text.length);
    this.emit(text);
  }

  /** Removes and returns the text produced since the last take(). */
  take() {
    const pieces = this.out;
    this.out = [];
    return pieces;
  }

  /** The output so far as one string: a document done in one step is its one piece, which needs no join. */
  text() {
    if (this.undefinedResult) return undefined;
    return this.out.length === 1 ? this.out[0] : this.out.join('');
  }

  emit(piece) {
    this.out.push(piece);
    this.outChars += piece.length;
  }

  /** What precedes a child's text: a comma after a sibling, and the key in an object. */
  lead(frame, key) {
    if (frame.kind === ARRAY) return key > 0 ? ',' : '';
    if (frame.kind === ROOT) return '';
    const comma = frame.wrote ? ',' : '';
    frame.wrote = true;
    // A key with nothing to escape is quoted here (a walked chain has a key a level), the others by native.
    return comma + (NOTHING_TO_ESCAPE.test(key) ? `"${key}"` : JSON.stringify(key)) + ':';
  }

  /** Serializes one child here (not in a native batch), walking it if it is a container. */
  single(frame, key, value) {
    const v = toJSONValue(typeof key === 'number' ? String(key) : key, value);
    switch (typeof v) {
      case 'string':
        if (v.length > LONG_STRING) {
          this.emit(this.lead(frame, key) + '"');
          this.stack.push(new Frame(STRING, v, null, v.length, 0, 1));
        } else {
          this.emit(this.lead(frame, key) + JSON.stringify(v));
        }
        return;
      case 'number':
        this.emit(this.lead(frame, key) + (Number.isFinite(v) ? String(v) : 'null'));
        return;
      case 'boolean':
        this.emit(this.lead(frame, key) + (v ? 'true' : 'false'));
        return;
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
      case 'object':
        if (v === null) this.emit(this.lead(frame, key) + 'null');
        else this.descend(frame, key, v);
        return;
      default: // undefined, function, symbol: null in an array, left out of an object
        if (frame.kind === ARRAY) this.emit(this.lead(frame, key) + 'null');
        else if (frame.kind === ROOT) this.undefinedResult = true;
    }
  }

  descend(frame, key, container) {
    if (this.path.has(container)) throw new TypeError('Converting circular structure to JSON');
    const isArray = Array.isArray(container);
    const listed = this.rootKeys !== null && this.rootKeys.container === container ? this.rootKeys.keys : null;
    const keys = isArray ? null : listed || this.keysOf(container);
    const length = isArray ? toLength(container.length) : keys.length;
    this.path.add(container);
    this.emit(this.lead(frame, key) + (isArray ? '[' : '{'));
    this.stack.push(new Frame(isArray ? ARRAY : OBJECT, container, keys, length, this.msPerUnit, this.charsPerUnit));
    // Listing a wide object's keys is one step of V8's (about 0.1-0.25 µs a key): the slice ends after it, so that
    // no batch adds to that block.
    if (length > LARGE_CONTAINER && keys !== null) this.endSlice = true;
  }

  close(frame) {
    this.emit(frame.kind === ARRAY ? ']' : '}');
    this.stack.pop();
    this.path.delete(frame.container);
  }

  /** Escapes the next piece of a long string; escaping is per code point, so pieces must not split a pair. */
  stringPiece(frame, deadline) {
    const string = frame.container;
    const chars = Math.max(MIN_STRING_PIECE, Math.min(Math.floor((deadline - now()) * this.stringCharsPerMs), this.charsLeft()));
    let end = Math.min(frame.length, frame.index + chars);
    const last = string.charCodeAt(end - 1);
    if (end < frame.length && last >= 0xd800 && last <= 0xdbff) end--;
    const started = now();
    const piece = string.slice(frame.index, end);
    // A piece with nothing to escape is its own text, a slice of the string rather than a copy. Plain ASCII is told
    // in a third of the regular expression's time; the expression tells the others in about half the time that
    // JSON.stringify takes to tell and copy.
    const plain = knownPlainAscii(piece) || NOTHING_TO_ESCAPE.test(piece);
    const text = plain ? piece : JSON.stringify(piece).slice(1, -1);
    const ms = Math.max(now() - started, 0.001);
    this.stringCharsPerMs = (this.stringCharsPerMs + (end - frame.index) / ms) / 2;
    this.nativeCalls++;
    this.emit(text);
    frame.index = end;
    if (end === frame.length) {
      this.emit('"');
      this.stack.pop();
    }
  }
}

Object.assign(Walker.prototype, batches);

module.exports = { Walker };
