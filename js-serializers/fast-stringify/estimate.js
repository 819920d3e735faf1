'use strict';
// What a container's subtree costs, in units (about one scalar each), estimated without running any code of the
// value's (no getter, no proxy trap, no toJSON): read through own data properties only, a few dozen containers at
// most, alike siblings counted from one (fast-stringify.md). The walk decides from it what goes to native in a batch
// and what it walks itself. Node 14 syntax.
const { types } = require('util');

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
// After this many object children in a row alike to one read (readAlike), an object is taken for a map of records (a
// tree's children, a table's rows), and a further object child counts as that record when it owns the record's last
// key (ownsLastKey), its keys not listed. V8 lists the keys of an object it keeps as a dictionary (the tree families'
// nodes of 16 children and more, built key by key; any object of 600 keys, parsed too) at 11-14 ns a key: 0.21 us
// for an 18-key node, where its last key is looked up in 6-10 ns (Node 14 and 24 alike). On a 16 KB tree of such
// nodes the one-step glance's listings were 10 % of native's time; on MDN's compatibility data, a third of the
// walk's inspections. The one-step glance (walker.js' GLANCE_ALIKE_RUN) trusts the last key after one.
const ALIKE_RUN = 4;
// No estimate goes deeper than this, so that no batch does: half the depth native itself reaches from a shallow stack
// (3681 nested arrays on Node 14, 4456 on Node 24), so that a batch cannot run out of stack where the walk would not.
const MAX_BATCH_DEPTH = 2048;
// An object of more keys than this that an estimate lists is kept with its keys (newEstimateBudget's wide), for the
// estimates after it and the walk: V8 lists a wide object's keys at 0.1-0.25 us a key (a dictionary's), and in one
// chunks() of @iconify-json/mdi's icon set its 7638 icons were listed 4 times and its 6363 aliases 6 (the one-step
// decision's glance and full estimate, the walk's estimates of the root's children, its descents): 6-9 ms of Object.keys
// where native serializes the whole document in 6-7.
const WIDE_KEYS = 1024;
// Strings longer than this are escaped in pieces, so that one string cannot make one long slice.
const LONG_STRING = 1 << 18;
const STRING_CHARS_PER_UNIT = 32; // a batched string costs about one scalar per this many characters
// The characters of a unit as long as a long scalar: what a unit is taken to produce where nothing says otherwise.
const LONG_UNIT_CHARS = 64;

/** ES ToLength: what native uses for the length of an array (matters only for proxies of arrays). */
function toLength(length) {
  const n = Math.trunc(Number(length));
  if (!(n > 0)) return 0;
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/**
 * The own value of key in container, read through its descriptor so that no getter runs; undefined for an accessor
 * or a missing key. The estimate below must not run code that native would run later, or twice.
 */
function plainValue(container, key) {
  return readsWithoutCode(container, key) ? container[key] : undefined;
}

/**
 * plainValue() of a key Object.keys listed with no code run since (an estimate runs none): the key is own, so that
 * __lookupGetter__ alone tells whether a getter stands behind it, at half the calls (a tree of small objects is
 * mostly keys: on one native call's documents, the estimate that decides it was 10-15 % of native's time).
 */
function listedPlainValue(container, key) {
  return Object.prototype.__lookupGetter__.call(container, key) === undefined ? container[key] : undefined;
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
 * What one estimate may read: at most max containers, none deeper than MAX_BATCH_DEPTH, the first readAlone of them
 * (ESTIMATE_CONTAINERS unless given) each for itself, and after them a sibling of the same kind and width as one read
 * (readAlike), and after alikeRun such siblings in a row (ALIKE_RUN unless given) one owning their last key; a
 * container read whose subtree comes to more than largeUnits goes into budget.large (it will be walked).
 */
const newEstimateBudget = (max, largeUnits, readAlone, alikeRun) => ({
  read: 0,
  max,
  readAlone: readAlone === undefined ? ESTIMATE_CONTAINERS : readAlone, // containers read before siblings count as alike
  alikeRun: alikeRun === undefined ? ALIKE_RUN : alikeRun, // alike siblings in a row before the last key is trusted
  depth: 0,
  maxDepth: MAX_BATCH_DEPTH,
  largeUnits: largeUnits === undefined ? Infinity : largeUnits,
  large: [],
  guessed: false, // some containers were counted from others (an array's first element, alike siblings, a prefix)
  isArray: false,
  width: 0,
  lastKey: undefined, // an object's last key, undefined for an array or an empty object
  wide: null, // Map: the objects of more than WIDE_KEYS keys listed (keysOf) to their keys, or null before any
});

/**
 * The keys of container, an object: listedKeys when given, those holder.wide kept, or listed now; an object of more
 * than WIDE_KEYS keys listed now is kept in holder.wide (a Map, made then). holder: an estimate's budget, or the
 * Walker, which hands its map from estimate to estimate and to its descents.
 */
function keysOf(container, holder, listedKeys) {
  if (listedKeys) return listedKeys;
  const kept = holder.wide === null ? undefined : holder.wide.get(container);
  if (kept !== undefined) return kept;
  const keys = Object.keys(container);
  if (keys.length > WIDE_KEYS) {
    if (holder.wide === null) holder.wide = new Map();
    holder.wide.set(container, keys);
  }
  return keys;
}

/** subtreeUnits() of a container, once counted as read. */
function containerUnits(container, budget, listedKeys) {
  const isArray = Array.isArray(container);
  const keys = isArray ? null : keysOf(container, budget, listedKeys);
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
  budget.lastKey = isArray || width === 0 ? undefined : keys[width - 1];
  return units;
}

function objectUnits(container, keys, budget) {
  const width = keys.length;
  const looked = Math.min(width, SMALL_CONTAINER);
  let units = 0;
  const read = []; // {isArray, width, lastKey, units} of the container children read
  let record = null; // the one read that the children just before were alike to
  let inRow = 0; // how many of them, in a row
  for (let i = 0; i < looked; i++) {
    const child = listedPlainValue(container, keys[i]);
    if (typeof child !== 'object' || child === null) {
      units += childUnits(child, budget);
      continue;
    }
    let alike = null;
    if (budget.read >= budget.readAlone) alike = inRow >= budget.alikeRun && ownsLastKey(child, record) ? record : readAlike(read, child, budget);
    if (alike !== null) {
      inRow = alike === record ? inRow + 1 : 1;
      record = alike;
      units += alike.units;
      budget.guessed = true;
      continue;
    }
    inRow = 0;
    const childUnitsRead = subtreeUnits(child, budget);
    if (childUnitsRead === Infinity) return Infinity;
    read.push({ isArray: budget.isArray, width: budget.width, lastKey: budget.lastKey, units: childUnitsRead });
    units += childUnitsRead;
  }
  if (looked < width) budget.guessed = true;
  return 1 + (units * width) / looked;
}

/**
 * A container's direct children, counted without running a getter or a proxy trap (a proxy has none here); an object's
 * keys listed by keysOf, so that a wide one is listed once in the call.
 */
function widthOf(container, budget) {
  if (types.isProxy(container)) return -1;
  return Array.isArray(container) ? toLength(container.length) : keysOf(container, budget).length;
}

/**
 * Whether child, an object like record (an object read, {isArray, lastKey}), owns record's last key, told without
 * running code: a proxy or an array is not taken for it.
 */
function ownsLastKey(child, record) {
  if (record.isArray || record.lastKey === undefined || Array.isArray(child) || types.isProxy(child)) return false;
  return Object.prototype.hasOwnProperty.call(child, record.lastKey);
}

/**
 * A sibling read already that child can be counted as: a container of the same kind and width (a tree's nodes, a
 * list's records), never a different field ({values: [1, 2, 3], kids: [node]} is a chain, not two alike arrays).
 */
function readAlike(read, child, budget) {
  if (read.length === 0) return null;
  const width = widthOf(child, budget);
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
  const firstWidth = widthOf(first, budget);
  const firstIsArray = Array.isArray(first);
  let most = firstUnits;
  for (let i = 1; i <= 2; i++) {
    const other = plainValue(container, i === 1 ? width >> 1 : width - 1);
    if (typeof other !== 'object' || other === null) continue;
    if (Array.isArray(other) === firstIsArray && widthOf(other, budget) === firstWidth) continue;
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

module.exports = {
  SMALL_CONTAINER,
  MIN_ESTIMATE_PATH,
  ESTIMATE_MAX_CONTAINERS,
  ESTIMATE_PATH_PER_SLICE_UNIT,
  LONG_STRING,
  STRING_CHARS_PER_UNIT,
  LONG_UNIT_CHARS,
  toLength,
  plainValue,
  estimate,
  keysOf,
  newEstimateBudget,
  scalarArrayUnits,
  meanUnits,
  lastScalarUnits,
  shortScalarRow,
  isSideEffectFreeRead,
  startsWithScalar,
};
