'use strict';
// Counts the work fast-stringify and fast-parse do on a document, from outside the modules, so that the same count
// can be taken on any revision of them (test/work-counts.test.js bounds it; a regression of their algorithm shows as
// more work per node or per character, which no clock can hide or fake):
// - native calls (JSON.stringify, JSON.parse) and the characters they produce or read, made by the module itself
//   (all of them, and the most one call did);
// - the JS-side inspections of containers the walk and its estimates make (Object.keys, Object.getOwnPropertyDescriptor,
//   Object.prototype.hasOwnProperty, Array.isArray calls): a container walked here, or read by an estimate, costs at
//   least one.
// The modules learn their batch sizes from the clock, so that the counts do not depend on the machine's speed or
// load, performance.now() is replaced during a run by a clock that advances with the counted work, at rates near
// what V8 does here (WORK_MS). The slices, the batches and every decision taken on time are then those of a machine
// that runs at these rates, on any machine: the counts are the same run after run. Node 14 syntax (the Node 14 run
// of the guard loads this file).
const path = require('path');
const { performance } = require('perf_hooks');

// Modelled milliseconds per counted operation, from V8 12 on this lab's machines (2 cores, busy). A native call costs
// a fixed part and a part proportional to the characters it produces or reads (JSON.stringify of a tree of small
// objects, 5-7 ns a character; JSON.parse a little slower). The fixed part is what the module's own clock sees around a
// batch of a few units, since the module learns its rates from that clock: the holder or the slice the call is given,
// the call, the clock reads. Measured here on every node of a binary tree of objects in turn (a holder of a node's id
// and label, one JSON.stringify, two performance.now()): a mean of 1.6-1.8 us on Node 24 and 3.0-4.4 us on Node 14,
// at a load of 7-8, medians 0.5 and 1.0 us; ff2e0ee measured 1-3 us such a batch in fast-stringify. At 0.3 us (the
// call alone, as this model had it before) a batch of two units looked like a rate 4 times native's, not the 20 times
// it is, and the guard missed f5ffd5c's rates learnt from such batches, which made every later batch and walk
// decision that small (290-370 native calls where 12-37 do). Then an Object.keys call on a small object (45 ns) and
// each key it lists (wide objects in dictionary mode: 0.1-0.25 us a key when V8 builds the list, less once cached), a
// descriptor or own-property check (45 ns), an Array.isArray, and a reading of the clock itself (so that time always
// advances).
const WORK_MS = {
  nativeCall: 0.003,
  stringifyChar: 0.000005,
  parseChar: 0.000008,
  keysCall: 0.00005,
  keyListed: 0.00002,
  descriptor: 0.00005,
  isArray: 0.00001,
  clockRead: 0.00003,
};

/**
 * Whether the function that called the counted one lives in the guarded module: its file (`x.js`) or a file of the
 * folder of its parts beside it (`x/`, as fast-parse.js has fast-parse/). Only the module's calls count, not the test
 * runner's, which reports earlier tests (JSON.stringify among others) between the run's slices.
 */
function calledFrom(file, folder) {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 4;
  const stack = new Error().stack;
  Error.stackTraceLimit = limit;
  // Lines: the message, calledFrom, the counting wrapper, its caller.
  const caller = stack.split('\n')[3];
  return caller !== undefined && (caller.includes(file) || caller.includes(folder));
}

/**
 * Runs `run()` (a function returning a promise) with the counters and the work clock in place, counting the calls
 * made from the module file `file` (its absolute path) and the folder of its parts (calledFrom); resolves to the
 * counts: {nativeCalls, nativeChars, maxNativeChars, inspections, keysListed, modelledMs}. Everything is restored after, failure or
 * not.
 */
async function countWork(file, run) {
  const folder = file.replace(/\.js$/, '') + path.sep;
  const counts = { nativeCalls: 0, nativeChars: 0, maxNativeChars: 0, inspections: 0, keysListed: 0, modelledMs: 0 };
  const saved = {
    stringify: JSON.stringify,
    parse: JSON.parse,
    keys: Object.keys,
    descriptor: Object.getOwnPropertyDescriptor,
    isArray: Array.isArray,
    hasOwn: Object.prototype.hasOwnProperty,
    now: performance.now,
  };
  const spend = (ms) => {
    counts.modelledMs += ms;
  };
  JSON.stringify = function stringify(value, replacer, space) {
    const text = saved.stringify.call(JSON, value, replacer, space);
    if (!calledFrom(file, folder)) return text;
    counts.nativeCalls++;
    const chars = typeof text === 'string' ? text.length : 0;
    counts.nativeChars += chars;
    counts.maxNativeChars = Math.max(counts.maxNativeChars, chars);
    spend(WORK_MS.nativeCall + chars * WORK_MS.stringifyChar);
    return text;
  };
  JSON.parse = function parse(text, reviver) {
    if (!calledFrom(file, folder)) return saved.parse.call(JSON, text, reviver);
    counts.nativeCalls++;
    const chars = String(text).length;
    counts.nativeChars += chars;
    counts.maxNativeChars = Math.max(counts.maxNativeChars, chars);
    spend(WORK_MS.nativeCall + chars * WORK_MS.parseChar);
    return saved.parse.call(JSON, text, reviver);
  };
  Object.keys = function keys(object) {
    const list = saved.keys(object);
    if (!calledFrom(file, folder)) return list;
    counts.inspections++;
    counts.keysListed += list.length;
    spend(WORK_MS.keysCall + list.length * WORK_MS.keyListed);
    return list;
  };
  Object.getOwnPropertyDescriptor = function getOwnPropertyDescriptor(object, key) {
    if (!calledFrom(file, folder)) return saved.descriptor(object, key);
    counts.inspections++;
    spend(WORK_MS.descriptor);
    return saved.descriptor(object, key);
  };
  Object.prototype.hasOwnProperty = function hasOwnProperty(key) {
    if (!calledFrom(file, folder)) return saved.hasOwn.call(this, key);
    counts.inspections++;
    spend(WORK_MS.descriptor);
    return saved.hasOwn.call(this, key);
  };
  Array.isArray = function isArray(value) {
    if (!calledFrom(file, folder)) return saved.isArray(value);
    counts.inspections++;
    spend(WORK_MS.isArray);
    return saved.isArray(value);
  };
  const origin = saved.now.call(performance);
  performance.now = () => {
    spend(WORK_MS.clockRead);
    return origin + counts.modelledMs;
  };
  try {
    await run();
  } finally {
    JSON.stringify = saved.stringify;
    JSON.parse = saved.parse;
    Object.keys = saved.keys;
    Object.getOwnPropertyDescriptor = saved.descriptor;
    Array.isArray = saved.isArray;
    Object.prototype.hasOwnProperty = saved.hasOwn;
    performance.now = saved.now;
  }
  return counts;
}

/** The containers, the values (containers and scalars) and the depth of a plain JSON value, with an explicit stack. */
function sizeOf(value) {
  let containers = 0;
  let values = 0;
  let depth = 0;
  const stack = [{ v: value, level: 0 }];
  while (stack.length > 0) {
    const { v, level } = stack.pop();
    values++;
    if (typeof v !== 'object' || v === null) continue;
    containers++;
    depth = Math.max(depth, level + 1);
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push({ v: v[i], level: level + 1 });
    else for (const key in v) if (Object.prototype.hasOwnProperty.call(v, key)) stack.push({ v: v[key], level: level + 1 });
  }
  return { containers, values, depth };
}

module.exports = { countWork, sizeOf, WORK_MS };
