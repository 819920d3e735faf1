'use strict';
// A container (or long string) the walk is inside, and the rates it and the whole process learn from batches
// (fast-stringify.md): milliseconds and characters of output per unit, by which batches are sized. LEARNT is module
// state, one per process: the prior of a new run's containers; the one-step decision weighs a document at the rates of
// its kind (ratesOfKind, module state too). Also the kinds of frame and the clock the walk's modules share. Node 14
// syntax.
const { types } = require('util');
const { performance } = require('perf_hooks');
const { SMALL_CONTAINER } = require('./estimate');

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

// Read through performance at each call: the work-count guard (test/work-counts.js) puts a clock of its own there.
const now = () => performance.now();

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

  /** Makes `other` (a Rates of the same class) know what this one knows; returns it. */
  copyTo(other) {
    other.ms = this.ms;
    other.units = this.units;
    other.chars = this.chars;
    return other;
  }
}

// The rates of every batch of every run so far, the newest weighing most: the prior of a new run's containers.
const LEARNT = new Rates();

// The rates of every batch and one-step call of documents of one kind (walker.js' documentKind: an object's first key,
// an array's first element's type), by which the one-step decision weighs a document of that kind (KindRates below);
// a kind not seen yet is weighed at the decision's prior. LEARNT's rates, the mix of every kind, were trusted for any
// document, and can be ten times short for another kind: small integers teach 0.01 us a unit, where a package's
// versions, whose units are keys and strings nine times as long, cost native 0.12 us, and after 400 000 integers npm's
// record of a package of 2000 versions (2 MB) went to native in one call of 10.6 ms in a 5 ms slice (at 1 ms, ten
// slices). Once the decision sends a document to native, one call is all there is to it. At most MAX_KINDS kinds are
// kept (all forgotten when a new one would pass it: a service has a few kinds of documents, and a kind forgotten is
// weighed at the prior once).
const MAX_KINDS = 64;
const KIND_RATES = new Map();
// The most of a kind's rate one batch or call may make (KindRates below).
const KIND_MAX_SHARE = 1 / 2;

/**
 * A kind's Rates, whose milliseconds per unit are Rates' (each batch or call weighed by its units, the older ones
 * forgotten by half every RATES_HALF_LIFE_UNITS) except that no one batch or call makes more than KIND_MAX_SHARE of
 * them: in Rates, one call of a document of a hundred thousand units is all there is, and the rate is that call's
 * alone. Native's own time on one document moves by half between calls (a 4.2 MB tree of long strings: 3.5-3.7 ms, or
 * 5.1-5.6 when its text's buffer took fresh pages), and a slow call taught its kind a rate past a 5 ms slice: the
 * next document was walked, its batches taught the fast rate again, and the one after went whole; six rounds of nine
 * in the full benchmark were 5.4-6.2 ms against native's median of 3.7 (1.48x). Taken halfway, a call half as slow
 * again leaves a document at three quarters of the slice whole, and a kind whose documents became twice as costly a
 * unit is walked from its second (the median of its last five rates, tried first, took three: the arrays of large
 * leaves after those of small ones, one call of 10.4 ms in a 5 ms slice twice).
 */
class KindRates extends Rates {
  constructor() {
    super();
    this.rate = 0;
  }

  learn(ms, units, chars) {
    const first = this.units === 0;
    if (!super.learn(ms, units, chars)) return false;
    // units / this.units is the batch's share of Rates' mean now: moved by it, this.rate is that mean, until capped.
    const share = first ? 1 : Math.min(KIND_MAX_SHARE, units / this.units);
    this.rate += (Math.max(ms, 0.001) / units - this.rate) * share;
    return true;
  }

  msPerUnit() {
    return this.rate;
  }

  copyTo(other) {
    super.copyTo(other);
    other.rate = this.rate;
    return other;
  }
}

/** The KindRates of documents of `kind`, made empty the first time. */
function ratesOfKind(kind) {
  let rates = KIND_RATES.get(kind);
  if (rates === undefined) {
    if (KIND_RATES.size >= MAX_KINDS) KIND_RATES.clear();
    rates = new KindRates();
    KIND_RATES.set(kind, rates);
  }
  return rates;
}

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
    this.largestBatchUnits = 0; // what the largest batch of its children held (batches.js' BATCH_GROWTH)
    this.rates = new Rates();
    this.pending = null; // {value, cost}: the child at index, read, estimated, and left for the next batch
    this.childScale = 0; // a wide container's units per unit of a container child's width (Walker.childScale), once known
    this.record = null; // a wide container's last child costed in full, that alike ones count as (batches.js' isAlikeRecord)
  }

  learn(ms, units, chars) {
    if (!this.rates.learn(ms, units, chars)) return;
    this.msPerUnit = this.rates.msPerUnit();
    this.charsPerUnit = this.rates.charsPerUnit();
    this.measured = true;
  }
}

// The walk's small records, each made in one place, so that each has one shape (fast-stringify.js' keepShapes() keeps
// one of each alive between calls).

/** A child read and estimated, left for the next batch (Frame.pending): not read again (a getter runs once). */
const newPending = (value, cost) => ({ value, cost });

/** A wide container's child costed in full (Frame.record): its kind, width, last key and units. */
const newRecord = (isArray, width, lastKey, units) => ({ isArray, width, lastKey, units });

/** A container's keys, listed once (Walker.rootKeys: the root's, by its estimate, for its walk). */
const newListedKeys = (container, keys) => ({ container, keys });

module.exports = { ROOT, ARRAY, OBJECT, STRING, ROOT_FRAME, LEARNT, Rates, KindRates, ratesOfKind, Frame, newPending, newRecord, newListedKeys, now };
