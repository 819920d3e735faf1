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
 *       it calls end() and resolves after 'finish'. `bytes` counts UTF-8 bytes written.
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
 * How: a document that an estimate of its size (subtreeUnits) says native serializes within one slice, at the rates
 * learnt from earlier batches, is one native call, made in the caller's turn with no turn of the loop waited for (its
 * estimate runs there for any document: at most ESTIMATE_MAX_CONTAINERS containers read). Otherwise containers near
 * the top (the root, containers wider than LARGE_CONTAINER, and the container children of small containers whose
 * estimated subtree would not fit a slice) are walked here with an explicit stack, so depth costs no call stack; their children are handed to the
 * native JSON.stringify in batches whose size comes from the measured milliseconds per unit of work, so that a slice
 * lasts about yieldMs; a child that fits a slice but not what is left of it waits for the next. A batch of array
 * elements is a copy of the elements, so elements with a toJSON (which would see the copy's index) are serialized one
 * by one; a batch of object properties is a holder object with the same keys, so toJSON sees the right key. Each property is read once, and a read that could run code (a getter,
 * a proxy trap) is not moved ahead of serializing a value that could run code too: the batch ends before it. A long
 * string is written in pieces; a piece with nothing to escape is handed over as a slice of it, told by a SIMD scan
 * when it is ASCII (plain-ascii.js) and by a regular expression otherwise, and the others go to JSON.stringify.
 *
 * Work per slice is bounded twice: by time (about yieldMs) and by characters of output (node-kit/slices.js's
 * maxSliceChars(yieldMs)), so that it stays bounded in work units whatever the clock says. A batch is sized to the
 * characters left in the slice from the characters per unit its container's batches produced so far; a slice stops
 * once it has produced its characters, so it ends at most one batch past them.
 *
 * Before changing this module: `make bench-shapes-quick` (a few minutes: the generated tree families against native,
 * the worst ratio and block per family), bench/modelled-work.js (the same documents' work counted, not timed: the
 * algorithm's share of a gap, on a loaded machine too) and test/work-counts.test.js (native calls, characters and
 * inspections per node, counted, in `make test`) tell whether a change costs work anywhere.
 *
 * Limits:
 * - A slice can outlast yieldMs when one step cannot be split: listing the keys of a very wide object (V8 takes
 *   ~15 ms for 100k keys on a slow machine), one child of a wide container whose subtree is far larger than its
 *   width and its measured siblings suggest, a document or a child whose estimate read alike-looking elements or
 *   siblings where the rest were far larger, a slow toJSON or getter, or a garbage collection.
 * - The value must not change until the promise settles or the iteration ends: a change made between slices by other
 *   code, or by a toJSON / getter to a property of a walked container that a batch has already read, may be missed.
 */
const { types } = require('util');
const { performance } = require('perf_hooks');
const { AbortError, abortReason, throwIfAborted, readSliceOptions, nextTurn, slicesOf } = require('../node-kit/slices');
const { knownPlainAscii } = require('./plain-ascii');

// A container with more direct children than this is walked here: handed to native whole, it could be a slice of
// any length. (An array of scalars is the exception: below.)
const LARGE_CONTAINER = 1024;
// Container children of containers this small are batched only when an estimate of their whole subtree fits what
// is left of the batch (subtreeUnits below), and walked here otherwise, because a small container near the top is
// often a wrapper whose one child holds most of the document ({meta, data: {items}}), or a tree's upper node. In
// wider containers children tend to be alike and many (the records of a list): they are batched on their width.
// Arrays of scalars are the exception: their cost is known from their length, and one that fits what is left of the
// batch goes in it whole, however long (native reads it in place, where walking it here would copy it).
const SMALL_CONTAINER = 32;
// The containers one estimate of subtreeUnits() reads for siblings: past them, a container not read is counted as a
// sibling of the same kind and width already read (a tree's nodes are alike), so that an estimate still tells a
// tree's upper nodes from its lower ones in a few dozen reads. The first path down is read further, as far as
// a sixteenth of a slice's units (so that the reads cost a small part of what they decide) within
// ESTIMATE_MAX_CONTAINERS: a chain shorter than a slice then goes to native in one batch rather than being walked
// level by level. Only a subtree whose first path needs more is treated as larger than any batch.
const ESTIMATE_CONTAINERS = 32;
const MIN_ESTIMATE_PATH = 64;
const ESTIMATE_MAX_CONTAINERS = 8192;
const ESTIMATE_PATH_PER_SLICE_UNIT = 1 / 16;
// No estimate goes deeper than this, so that no batch does: half the depth native itself reaches from a shallow stack
// (3681 nested arrays on Node 14, 4456 on Node 24), so that a batch cannot run out of stack where the walk would not.
const MAX_BATCH_DEPTH = 2048;
// A child estimated from containers the estimate did not read goes whole into a batch only below this fraction of
// what one read in full may take (Walker.unitsInBatch).
const GUESSED_FRACTION = 1 / 4;
// Strings longer than this are escaped in pieces, so that one string cannot make one long slice.
const LONG_STRING = 1 << 18;
const MIN_STRING_PIECE = 1 << 14;
const STRING_CHARS_PER_UNIT = 32; // a batched string costs about one scalar per this many characters
// A string JSON.stringify writes as it is: none of quote, backslash, control characters and surrogates (a lone one
// is escaped; pairs are not, but telling them apart is JSON.stringify's work). Matching what may stay, anchored at
// both ends, runs in about 0.85 ns a character here; searching for what may not, 1.4 ns.
const NOTHING_TO_ESCAPE = /^[\u0020\u0021\u0023-\u005b\u005d-\ud7ff\ue000-\uffff]*$/;
const CHUNK_CHARS = 1 << 16;
const JOIN_ALONE_CHARS = 1 << 20;
// Object batches go through a holder object; past about a thousand keys, building and reading it gets slower per key.
const MAX_HOLDER_KEYS = 1024;
// Before anything is measured, assume a slow 2 us per unit: a first batch that is too small only costs a native call.
const INITIAL_MS_PER_UNIT = 0.002;
// And a unit as long as a long scalar: a first batch that is too small only costs a native call, and one that is too
// large is what overshoots a slice's characters.
const INITIAL_CHARS_PER_UNIT = 64;
// The one-step decision's prior (Walker.unitsIfWholeFits) before anything was measured: 0.2 us a unit, 4-10 times what
// native takes here. At the batches' prior, a 16 KB tree of objects (1100 units) was more than a 1 ms slice, and the
// first run of a process walked it in 3 native calls.
const INITIAL_WHOLE_MS_PER_UNIT = 0.0002;
const INITIAL_STRING_CHARS_PER_MS = 1 << 14; // escaping can be as slow as 15 ns a character
// The first batch of a container is a probe of this fraction of the slice, so that a misjudged first estimate cannot
// overshoot the slice by much.
const PROBE_FRACTION = 1 / 8;
// The learnt rates forget half of what they knew every this many units of newer batches (Rates below), and learn
// nothing from a batch smaller than MIN_LEARN_UNITS: its time is mostly the native call's own (a walked node's id and
// label, 2 units in 1-3 us, would say 1 us a unit, 20 times native's rate; the next batches and every walk decision
// sized from it stay that small, and a tree of objects was walked down to its leaves again).
const RATES_HALF_LIFE_UNITS = 4096;
const MIN_LEARN_UNITS = 32;

const ROOT = 0;
const ARRAY = 1;
const OBJECT = 2;
const STRING = 3;
const ROOT_FRAME = { kind: ROOT };

const now = () => performance.now();

/** ES ToLength: what native uses for the length of an array (matters only for proxies of arrays). */
function toLength(length) {
  const n = Math.trunc(Number(length));
  if (!(n > 0)) return 0;
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

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

/**
 * The own value of key in container, read through its descriptor so that no getter runs; undefined for an accessor
 * or a missing key. The estimate below must not run code that native would run later, or twice.
 */
function plainValue(container, key) {
  return readsWithoutCode(container, key) ? container[key] : undefined;
}

/**
 * Whether container (not a proxy) has key as an own property that no getter stands behind, so that reading it runs no
 * code. hasOwnProperty and __lookupGetter__ (which stops at the own property) tell it in about 40 ns where a
 * descriptor costs 160-300 ns and an allocation: on the world atlas' 4635 arrays of coordinate pairs, descriptors were
 * 40 % of fast's time. Looked up at each call, so that the work-count guard sees them.
 */
function readsWithoutCode(container, key) {
  return Object.prototype.hasOwnProperty.call(container, key) && Object.prototype.__lookupGetter__.call(container, key) === undefined;
}

/**
 * An estimate of the units (about one scalar each) a container's whole subtree costs, or Infinity when its first
 * path down alone needs more than budget.max containers. An array counts as many times its first element
 * (elements tend to be alike: the nodes of a tree, the records of a list, the numbers of a vector); an object reads
 * its first SMALL_CONTAINER properties, each container among them for itself (they are different fields) while the
 * budget of ESTIMATE_CONTAINERS lasts, and after it as a sibling of the same kind and width already read (readAlike);
 * then it scales to its width. No getter or proxy trap runs. A container found larger than a batch (budget.largeUnits), or
 * whose estimate ran out with more than half the containers read below it, goes into budget.large: it will be walked,
 * and need not be estimated again (the levels of a chain: estimated at each level, a chain of n levels that fits the
 * estimate's reads but not a slice would be read n²/2 times). budget: from newEstimateBudget(); a subtree deeper
 * than budget.maxDepth is Infinity too.
 */
function subtreeUnits(container, budget, listedKeys) {
  if (budget.read >= budget.max || budget.depth >= budget.maxDepth || types.isProxy(container)) return Infinity;
  const readBefore = budget.read++;
  budget.depth++;
  const units = containerUnits(container, budget, listedKeys);
  budget.depth--;
  if (units > budget.largeUnits || (units === Infinity && budget.read - readBefore > budget.max / 2)) budget.large.push(container);
  return units;
}

/**
 * subtreeUnits(), or Infinity where it runs out of stack. It runs no code of the value's (no getter, no proxy trap),
 * so a RangeError there is the stack: its recursion takes three frames a level, and a cycle (read down to
 * MAX_BATCH_DEPTH, 2048 levels) or a chain as deep, in code not yet optimized (larger frames), reached past the stack
 * in some runs of the conformance corpus, where native throws a TypeError. Such a value is walked (the walk tells the
 * cycle).
 */
function estimate(container, budget, listedKeys) {
  try {
    return subtreeUnits(container, budget, listedKeys);
  } catch (error) {
    if (error instanceof RangeError) return Infinity;
    throw error;
  }
}

/**
 * What one estimate may read: at most max containers (see ESTIMATE_CONTAINERS), none deeper than MAX_BATCH_DEPTH; a
 * container read whose subtree comes to more than largeUnits goes into budget.large (it will be walked).
 */
const newEstimateBudget = (max, largeUnits) => ({
  read: 0,
  max,
  depth: 0,
  maxDepth: MAX_BATCH_DEPTH,
  largeUnits: largeUnits === undefined ? Infinity : largeUnits,
  large: [],
  guessed: false, // some containers were counted from others (an array's first element, alike siblings, a prefix)
  isArray: false,
  width: 0,
});

/** subtreeUnits() of a container, once counted as read. */
function containerUnits(container, budget, listedKeys) {
  const isArray = Array.isArray(container);
  const keys = isArray ? null : listedKeys || Object.keys(container);
  const width = isArray ? toLength(container.length) : keys.length;
  let units;
  if (width === 0) {
    units = 1;
  } else if (isArray) {
    const first = plainValue(container, 0);
    if (width > 1 && typeof first === 'object' && first !== null) budget.guessed = true;
    if (typeof first === 'object' && first !== null) {
      // The first element's estimate is called from here, not from otherElementUnits: a chain's levels each add
      // frames to the estimate's stack, which must reach MAX_BATCH_DEPTH.
      const firstUnits = childUnits(first, budget);
      units = 1 + width * (width < 3 || firstUnits === Infinity ? firstUnits : otherElementUnits(container, width, first, firstUnits, budget));
    } else {
      units = 1 + width * scalarArrayUnits(container, width, first);
    }
  } else {
    units = objectUnits(container, keys, budget);
  }
  // Its kind and width, for the caller to compare its siblings with (readAlike), without listing its keys again.
  budget.isArray = isArray;
  budget.width = width;
  return units;
}

function objectUnits(container, keys, budget) {
  const width = keys.length;
  const looked = Math.min(width, SMALL_CONTAINER);
  let units = 0;
  const read = []; // {isArray, width, units} of the container children read
  for (let i = 0; i < looked; i++) {
    const child = plainValue(container, keys[i]);
    if (typeof child !== 'object' || child === null) {
      units += childUnits(child, budget);
      continue;
    }
    const alike = budget.read >= ESTIMATE_CONTAINERS ? readAlike(read, child) : null;
    if (alike !== null) {
      units += alike.units;
      budget.guessed = true;
      continue;
    }
    const childUnitsRead = subtreeUnits(child, budget);
    if (childUnitsRead === Infinity) return Infinity;
    read.push({ isArray: budget.isArray, width: budget.width, units: childUnitsRead });
    units += childUnitsRead;
  }
  if (looked < width) budget.guessed = true;
  return 1 + (units * width) / looked;
}

/** A container's direct children, counted without running a getter or a proxy trap (a proxy has none here). */
function widthOf(container) {
  if (types.isProxy(container)) return -1;
  return Array.isArray(container) ? toLength(container.length) : Object.keys(container).length;
}

/**
 * A sibling read already that child can be counted as: a container of the same kind and width (a tree's nodes, a
 * list's records), never a different field ({values: [1, 2, 3], kids: [node]} is a chain, not two alike arrays).
 */
function readAlike(read, child) {
  if (read.length === 0) return null;
  const width = widthOf(child);
  const isArray = Array.isArray(child);
  for (let i = 0; i < read.length; i++) if (read[i].isArray === isArray && read[i].width === width) return read[i];
  return null;
}

/**
 * Units per element of an array whose first element is a container (of firstUnits): the most of its first, middle and
 * last elements', the other two read only when they differ from the first in kind or width (a tree's nodes are alike,
 * and are not read again). Counted from the first alone, the world atlas' 4635 arcs of 5 to 17 thousand pairs came to
 * a twentieth of their cost (its first arc has 5), and the whole document went to native in one call of 18 ms.
 */
function otherElementUnits(container, width, first, firstUnits, budget) {
  const firstWidth = widthOf(first);
  const firstIsArray = Array.isArray(first);
  let most = firstUnits;
  for (let i = 1; i <= 2; i++) {
    const other = plainValue(container, i === 1 ? width >> 1 : width - 1);
    if (typeof other !== 'object' || other === null) continue;
    if (Array.isArray(other) === firstIsArray && widthOf(other) === firstWidth) continue;
    most = Math.max(most, childUnits(other, budget));
  }
  return most;
}

/** A child's part of subtreeUnits(): a scalar is a unit, a string a unit per STRING_CHARS_PER_UNIT characters. */
function childUnits(child, budget) {
  if (typeof child === 'string') return 1 + child.length / STRING_CHARS_PER_UNIT;
  return typeof child === 'object' && child !== null ? subtreeUnits(child, budget) : 1;
}

/**
 * Units per element of an array that starts with a scalar (first, read already without running code): the mean of its
 * first and last elements' (a string a unit per STRING_CHARS_PER_UNIT characters; the last counts only when it is a
 * scalar read without running code, lastScalarUnits). Counted a unit each, a leaf [id, text] of 1000 characters was 3
 * units: the learnt rates, averaged over such batches, came to 20 times native's cost per unit elsewhere, and a 12 KB
 * tree of objects was then walked in 15 native calls rather than done in one.
 */
function scalarArrayUnits(array, width, first) {
  return meanUnits(first, width < 2 ? -1 : lastScalarUnits(array, width));
}

/** scalarArrayUnits() from the first element and lastScalarUnits()' answer. */
function meanUnits(first, lastUnits) {
  const firstUnits = typeof first === 'string' ? 1 + first.length / STRING_CHARS_PER_UNIT : 1;
  return lastUnits < 0 ? firstUnits : (firstUnits + lastUnits) / 2;
}

/**
 * The units of an array's last element when it is a scalar whose serialization runs no code (not a BigInt, which a
 * toJSON of BigInt.prototype may serialize) and whose own property no getter stands behind, -1 otherwise.
 */
function lastScalarUnits(array, width) {
  if (!readsWithoutCode(array, width - 1)) return -1;
  const last = array[width - 1];
  const type = typeof last;
  if (type === 'string') return last.length > LONG_STRING ? -1 : 1 + last.length / STRING_CHARS_PER_UNIT;
  return last === null || (type !== 'object' && type !== 'function' && type !== 'bigint') ? 1 : -1;
}

/**
 * array[index] when it is read without running code and is a plain array of at most SMALL_CONTAINER elements (length
 * elements, unless length is -1) that starts with a scalar and has no toJSON; null otherwise.
 */
function shortScalarRow(array, index, length) {
  if (!readsWithoutCode(array, index)) return null;
  const row = array[index];
  if (typeof row !== 'object' || row === null || types.isProxy(row) || !Array.isArray(row) || 'toJSON' in row) return null;
  if (length === -1 ? row.length > SMALL_CONTAINER : row.length !== length) return null;
  return startsWithScalar(row) ? row : null;
}

/** A property read that runs code (a getter, a proxy trap) must not be moved before earlier values are serialized. */
function isSideEffectFreeRead(frame, key) {
  return !frame.isProxy && readsWithoutCode(frame.container, key);
}

/**
 * Whether an array's first element is a scalar, judged from its descriptor so that no getter runs. Elements of an
 * array tend to be alike: an array of scalars costs about one unit per element and is not worth walking.
 */
function startsWithScalar(array) {
  if (array.length === 0) return true;
  if (!readsWithoutCode(array, 0)) return false;
  const first = array[0];
  const type = typeof first;
  return first === null || (type === 'string' ? first.length <= LONG_STRING : type !== 'object' && type !== 'function');
}

/**
 * Milliseconds and characters per unit learnt from batches, each weighed by its units, the older ones by half every
 * RATES_HALF_LIFE_UNITS units of newer batches: a batch of two scalars (an object's id and label before its first container child) costs a native call's
 * fixed overhead over two units, and counted like a batch of thousands, as a plain mean of rates does, it made the
 * next batches of its container, and the estimate of what fits them, ten times too small.
 */
class Rates {
  constructor() {
    this.ms = 0;
    this.units = 0;
    this.chars = 0;
  }

  /** Learns from a batch; says whether it did (a batch of fewer than MIN_LEARN_UNITS units teaches nothing). */
  learn(ms, units, chars) {
    if (units < MIN_LEARN_UNITS) return false;
    const kept = Math.pow(0.5, units / RATES_HALF_LIFE_UNITS);
    this.ms = this.ms * kept + Math.max(ms, 0.001);
    this.units = this.units * kept + units;
    this.chars = this.chars * kept + chars;
    return true;
  }

  msPerUnit() {
    return this.ms / this.units;
  }

  charsPerUnit() {
    return this.chars / this.units;
  }
}

// The rates of every batch of every run so far, the newest weighing most: the prior of a new run's containers, and
// what tells whether a whole document fits one slice (Walker.wholeFits).
const LEARNT = new Rates();

class Frame {
  constructor(kind, container, keys, length, msPerUnit, charsPerUnit) {
    this.kind = kind;
    this.container = container;
    this.keys = keys;
    this.length = length;
    this.index = 0;
    this.wrote = false; // objects: a property was written, the next one needs a comma
    this.isProxy = kind !== STRING && types.isProxy(container);
    this.small = length <= SMALL_CONTAINER;
    this.msPerUnit = msPerUnit;
    this.charsPerUnit = charsPerUnit;
    this.measured = false;
    this.rates = new Rates();
    this.pending = null; // {value, cost}: the child at index, read, estimated, and left for the next batch
    this.childScale = 0; // a wide container's units per unit of a container child's width (Walker.childScale), once known
  }

  learn(ms, units, chars) {
    if (!this.rates.learn(ms, units, chars)) return;
    this.msPerUnit = this.rates.msPerUnit();
    this.charsPerUnit = this.rates.charsPerUnit();
    this.measured = true;
  }
}

/** The serialization state; step(deadline) does work until the deadline and says whether the text is complete. */
class Walker {
  constructor(value, maxSliceChars) {
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
    // Prior for containers not measured yet: the batches measured anywhere, in this run and the ones before (LEARNT).
    this.msPerUnit = LEARNT.units > 0 ? LEARNT.msPerUnit() : INITIAL_MS_PER_UNIT;
    this.charsPerUnit = LEARNT.units > 0 ? LEARNT.charsPerUnit() : INITIAL_CHARS_PER_UNIT; // characters a unit produces
    this.firstStep = true; // the step about to run is the slice's first
    this.rootKeys = null; // {container, keys}: the root's keys, listed by its estimate, for its walk
    this.estimateMsBefore = 0;
    this.estimateMs = 0; // time spent in estimates, which is not the batches' (flush leaves it out of their rates)
    this.sliceMs = 0; // the length of the current slice (its deadline less its start)
    this.sliceUnits = 0; // what a whole slice takes, at the rates of the container being batched
    this.unitsLeftInSlice = 0; // and what is left of it
    this.stringCharsPerMs = INITIAL_STRING_CHARS_PER_MS;
    this.maxSliceChars = maxSliceChars;
    this.sliceEnd = maxSliceChars; // outChars at which the current slice has produced its characters
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
      const value = this.value;
      this.value = undefined;
      this.single(ROOT_FRAME, '', value);
      this.rootKeys = null;
    }
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
   * Whether a document is estimated (subtreeUnits) to take native less than one slice, at the rates learnt so far
   * (before anything was measured, at the prior INITIAL_WHOLE_MS_PER_UNIT, so that a small document is one call from
   * the first run on): then slicing it buys nothing, and it is done in one native call (a document of 1 MB takes
   * native 5-13 ms: walked, it paid 1.7-2.6 times that). Half the slice's characters at most, for an estimate that is
   * short. Not a proxy, nor a value with a toJSON (whose result the estimate cannot see). Its estimated units when it
   * fits, 0 otherwise.
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
    this.rootKeys = Array.isArray(value) ? null : { container: value, keys: Object.keys(value) };
    const units = estimate(value, newEstimateBudget(ESTIMATE_MAX_CONTAINERS), this.rootKeys && this.rootKeys.keys);
    if (units === Infinity) return 0;
    const msPerUnit = LEARNT.units > 0 ? this.msPerUnit : INITIAL_WHOLE_MS_PER_UNIT;
    return units * msPerUnit <= this.sliceMs && units * this.charsPerUnit <= this.maxSliceChars / 2 ? units : 0;
  }

  /** The whole document in one native call, which is also a batch to learn from. */
  whole(value, units) {
    const started = now();
    const text = JSON.stringify(value);
    this.nativeCalls++;
    if (text === undefined) {
      this.undefinedResult = true;
      return;
    }
    LEARNT.learn(now() - started, units, text.length);
    this.emit(text);
  }

  /** Removes and returns the text produced since the last take(). */
  take() {
    const pieces = this.out;
    this.out = [];
    return pieces;
  }

  text() {
    return this.undefinedResult ? undefined : this.out.join('');
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
    const keys = isArray ? null : listed || Object.keys(container);
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

  /**
   * The estimated cost of a child in a native batch, in units (about one scalar value each), or -1 when the child
   * must be serialized alone: a long string, a proxy, a wide container, a container to walk (one whose subtree
   * would outlast sliceUnits, what a whole slice takes), or, in an array, a value whose toJSON native would call with
   * the batch's index instead of the array's. A child that fits a slice but not what is left of the batch starts the
   * next batch (fitIn below): walked, it would cost a descent, an estimate of each of its children and a native call
   * for each of its batches, and the walk would go on down the next child that straddles a batch's end.
   */
  unitsInBatch(frame, value, sliceUnits) {
    this.effectFree = false;
    switch (typeof value) {
      case 'string':
        return value.length > LONG_STRING ? -1 : 1 + value.length / STRING_CHARS_PER_UNIT;
      case 'bigint':
        return frame.kind === ARRAY ? -1 : 1;
      case 'object':
        if (value === null) return 1;
        break;
      case 'function':
        if (types.isProxy(value)) return -1;
        return frame.kind === ARRAY && 'toJSON' in value ? -1 : 1;
      default:
        return 1;
    }
    // `in` rather than a read: a toJSON getter must run once, when native serializes the value.
    if (types.isProxy(value) || (frame.kind === ARRAY && 'toJSON' in value)) return -1;
    const isArray = Array.isArray(value);
    const width = isArray ? value.length : Object.keys(value).length;
    if (isArray && startsWithScalar(value)) {
      const first = width > 0 ? value[0] : undefined;
      const lastUnits = width < 2 ? -1 : lastScalarUnits(value, width);
      const units = 1 + width * meanUnits(first, lastUnits);
      // A pair of scalars (a coordinate) both read without code, runs none when native serializes it: the reads after
      // it in the batch need no check (arrayBatch's mayHaveEffects). Checked, they were a fifth of the world atlas' time.
      this.effectFree = width === 0 || (width <= 2 && typeof first !== 'bigint' && (width === 1 || lastUnits >= 0));
      return (units <= sliceUnits || width <= LARGE_CONTAINER) ? units : -1;
    }
    if (width > LARGE_CONTAINER) return isArray ? this.rowsUnits(value, width, sliceUnits) : -1;
    if (!frame.small) return (1 + width) * this.childScale(frame, value, width, sliceUnits);
    if (this.large.has(value)) return -1;
    const reads = Math.min(ESTIMATE_MAX_CONTAINERS, Math.max(MIN_ESTIMATE_PATH, sliceUnits * ESTIMATE_PATH_PER_SLICE_UNIT));
    const budget = newEstimateBudget(reads, sliceUnits);
    const started = now();
    const units = estimate(value, budget);
    this.estimateMs += now() - started;
    for (let i = 0; i < budget.large.length; i++) this.large.add(budget.large[i]);
    // An estimate that counted containers it did not read may be short several times over (MDN's CSS properties:
    // their first 32 of 660, scaled, came to a fifth of the rest): one child goes to native whole only when even
    // that would leave the slice in bounds.
    return units > (budget.guessed ? sliceUnits * GUESSED_FRACTION : sliceUnits) ? -1 : units;
  }

  /**
   * A long array whose first element is a short array of scalars (a list of coordinates, the rows of a table) costs as
   * many times that element's units as it is long, and goes whole into a batch when that fits what a slice takes
   * (sliceUnits) if its middle and last elements are rows of the same length too, or GUESSED_FRACTION of it otherwise;
   * -1 when it does not fit: walked, its elements each cost the checks of a read and an estimate, more than native's
   * work on them (the world atlas' 61 arcs of 1 to 17 thousand pairs: 44 % of its time, and at GUESSED_FRACTION alone
   * its five longest arcs were still walked, a fifth of it).
   */
  rowsUnits(array, width, sliceUnits) {
    const row = shortScalarRow(array, 0, -1);
    if (row === null) return -1;
    const units = 1 + width * (1 + row.length * scalarArrayUnits(row, row.length, row.length > 0 ? row[0] : undefined));
    const alike = shortScalarRow(array, width >> 1, row.length) !== null && shortScalarRow(array, width - 1, row.length) !== null;
    return units <= sliceUnits * (alike ? 1 : GUESSED_FRACTION) ? units : -1;
  }

  /**
   * How many units a container child of a wide container costs per unit of its width (1 + its children), from an
   * estimate of the first one (subtreeUnits): its siblings tend to be alike, and are counted on their width times
   * this. Counted as 1, the children of a wide container whose children are trees (MDN's interfaces, each with its
   * members' support tables) made units 40 times cheaper than the other containers' the learnt rates come from, and
   * the container's first batch, sized from those rates, a block of 15 ms.
   */
  childScale(frame, child, width, sliceUnits) {
    if (frame.childScale === 0) {
      const units = estimate(child, newEstimateBudget(MIN_ESTIMATE_PATH, sliceUnits));
      frame.childScale = Math.max(1, Math.min(units, sliceUnits) / (1 + width));
    }
    return frame.childScale;
  }

  /** Hands the next children of frame to native JSON.stringify, as many as fit in what is left of the slice. */
  batch(frame, deadline) {
    const started = now();
    this.estimateMsBefore = this.estimateMs;
    const fraction = frame.measured ? 1 : PROBE_FRACTION;
    const left = Math.min((deadline - started) / frame.msPerUnit, this.charsLeft() / frame.charsPerUnit);
    const maxUnits = left * fraction;
    // Half of what a whole slice takes at this container's rates (half: room for an estimate that is short): a
    // child larger is walked. One that is not, but is larger than what is left of this slice, ends the slice before
    // it and is the next one's first batch (fitIn).
    this.sliceUnits = Math.min(this.sliceMs / frame.msPerUnit, this.maxSliceChars / frame.charsPerUnit) / 2;
    this.unitsLeftInSlice = left;
    if (frame.kind === ARRAY) this.arrayBatch(frame, maxUnits, started);
    else this.objectBatch(frame, maxUnits, started);
  }

  /**
   * Whether a child of cost units goes in the batch that holds batchUnits so far: always when it fits maxUnits; as
   * the batch's first child, when it fits what is left of the slice, or when the slice has done nothing yet (its
   * cost fits a whole slice: unitsInBatch walks the others). Otherwise the batch ends before it, and, when it is
   * the first, the slice too.
   */
  fitIn(units, batchUnits, maxUnits) {
    if (batchUnits + units <= maxUnits) return true;
    if (batchUnits > 0) return false;
    if (this.firstStep || units <= this.unitsLeftInSlice) return true;
    this.endSlice = true;
    return false;
  }

  arrayBatch(frame, maxUnits, started) {
    const array = frame.container;
    const first = frame.index;
    // Every element costs at least one unit, so the batch has at most this many; filling a preallocated array is
    // measurably faster than push() on arrays of numbers, where the copy is a large part of the work.
    const end = Math.min(frame.length, first + Math.max(1, Math.ceil(maxUnits)));
    const values = new Array(end - first);
    let index = first;
    let units = 0;
    let mayHaveEffects = false; // a batched value whose serialization can run code (toJSON, getters)
    while (index < end && (units < maxUnits || index === first)) {
      const pending = frame.pending;
      // Native reads an element only after serializing the previous one; a getter here would run too early.
      if (pending === null && mayHaveEffects && !isSideEffectFreeRead(frame, index)) break;
      const value = pending === null ? array[index] : pending.value;
      frame.pending = null;
      const type = typeof value;
      if (type === 'number' || type === 'boolean' || type === 'undefined' || value === null) {
        units++;
      } else {
        const cost = pending === null ? this.unitsInBatch(frame, value, this.sliceUnits) : pending.cost;
        if (cost < 0) {
          values.length = index - first;
          frame.index = index + 1;
          this.flush(frame, values, null, units, first, started);
          this.single(frame, index, value);
          return;
        }
        const effectFree = pending === null && this.effectFree;
        if (!this.fitIn(cost, units, maxUnits)) {
          frame.pending = { value, cost }; // read already: not read again (a getter runs once)
          break;
        }
        units += cost;
        mayHaveEffects = mayHaveEffects || ((type === 'object' || type === 'function') && !effectFree);
      }
      values[index - first] = value;
      index++;
    }
    values.length = index - first;
    frame.index = index;
    this.flush(frame, values, null, units, first, started);
  }

  objectBatch(frame, maxUnits, started) {
    const object = frame.container;
    const keys = frame.keys;
    const end = Math.min(frame.length, frame.index + MAX_HOLDER_KEYS);
    // Null prototype: no __proto__ setter, and no new hidden classes for the one-off key sets.
    const holder = Object.create(null);
    const values = [];
    let units = 0;
    let mayHaveEffects = false;
    while (frame.index < end && (units < maxUnits || values.length === 0)) {
      const key = keys[frame.index];
      const pending = frame.pending;
      if (pending === null && mayHaveEffects && !isSideEffectFreeRead(frame, key)) break;
      // A holder property named toJSON would make the holder itself toJSON-able.
      if (key === 'toJSON') {
        if (values.length > 0) break;
        frame.index++;
        this.single(frame, key, object[key]);
        return;
      }
      const value = pending === null ? object[key] : pending.value;
      frame.pending = null;
      const cost = pending === null ? this.unitsInBatch(frame, value, this.sliceUnits) : pending.cost;
      if (cost >= 0 && !this.fitIn(cost, units, maxUnits)) {
        frame.pending = { value, cost }; // read already: not read again (a getter runs once)
        break;
      }
      frame.index++;
      if (cost < 0) {
        this.flush(frame, values, holder, units, 0, started);
        this.single(frame, key, value);
        return;
      }
      holder[key] = value;
      values.push(key);
      units += cost;
      const type = typeof value;
      mayHaveEffects = mayHaveEffects || (type === 'object' && value !== null) || type === 'function' || type === 'bigint';
    }
    this.flush(frame, values, holder, units, 0, started);
  }

  /** Serializes a batch natively; first is the index of an array batch's first element, which decides its comma. */
  flush(frame, values, holder, units, first, started) {
    if (values.length === 0) return;
    const text = JSON.stringify(holder === null ? values : holder);
    // An estimate's reads are not work per unit of the batch: counted in, one that reads 64 containers for a batch
    // of two scalars made the container's rate, and every size taken from it, tens of times too small.
    const ms = now() - started - (this.estimateMs - this.estimateMsBefore);
    frame.learn(ms, units, text.length);
    if (LEARNT.learn(ms, units, text.length)) {
      this.msPerUnit = LEARNT.msPerUnit();
      this.charsPerUnit = LEARNT.charsPerUnit();
    }
    this.nativeCalls++;
    if (holder === null) {
      if (first > 0) this.emit(',');
      this.emit(text.slice(1, -1));
    } else if (text.length > 2) {
      if (frame.wrote) this.emit(',');
      frame.wrote = true;
      this.emit(text.slice(1, -1));
    }
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

function readOptions(options) {
  const settings = readSliceOptions(options);
  settings.end = Boolean(options && options.end === true);
  return settings;
}

/**
 * A Walker of value, with stats reset; walker.done when it did the whole document in one step (Walker.oneStep), in
 * the caller's turn, and the slice loop is not needed.
 */
function start(value, settings) {
  // Fields set one by one, not by Object.assign: on the one-step path, every call made cold by a collection counts.
  const stats = settings.stats || (settings.stats = {});
  stats.yields = 0;
  stats.nativeCalls = 0;
  stats.maxSliceMs = 0;
  stats.chars = 0;
  stats.maxSliceChars = 0;
  throwIfAborted(settings.signal);
  const walker = new Walker(value, settings.maxSliceChars);
  const started = now();
  if (walker.oneStep(settings.yieldMs)) {
    walker.done = true;
    stats.nativeCalls = walker.nativeCalls;
    stats.maxSliceMs = now() - started;
    stats.chars = walker.outChars;
    stats.maxSliceChars = walker.outChars;
  }
  return walker;
}

/** Runs a started Walker slice by slice (node-kit's slice loop), yielding it after each slice. */
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
  while (!(await turns.next()).done) yield walker;
}

async function stringify(value, options) {
  const settings = readOptions(options);
  const walker = start(value, settings);
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
  const onClose = () => fail(new Error('the writable closed before serialization finished'));
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
  settings.stats = settings.stats || {};
  const result = { bytes: 0, chunks: 0, yields: 0 };
  const watcher = watch(writable, settings.signal);
  try {
    for await (const chunk of chunksOf(settings, value)) {
      watcher.check();
      result.bytes += Buffer.byteLength(chunk);
      result.chunks++;
      if (!writable.write(chunk)) await watcher.wait();
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

module.exports = { stringify, chunks, pipeTo, AbortError };
