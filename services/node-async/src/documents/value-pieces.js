'use strict';
// A parsed value cut into pieces that each take the main thread a bounded time to deserialize (the `worker-pieces`
// parse approach): the worker cuts, the main thread assembles, giving the event loop a turn between pieces. A piece
// is V8's serialization of a run of consecutive members of one container (array items, or an object's key and value
// pairs), as many as fit PIECE_UNITS; a member heavier than that is opened instead and cut in turn. So the skeleton
// that crosses as one message holds only the heavy containers' operations and keys: at most about the value's units /
// PIECE_UNITS times its depth.
//
// Weight, in units: one per value, plus one per 16 characters of a string or key: what V8's deserializer does per
// value and per copied character, roughly. 16 384 units (a few hundred of the lab's records' values, or ~256 KB of
// string) deserialize in about a millisecond here (README, "worker").
const v8 = require('node:v8');
const { nextTurn } = require('@lab/loop-kit/event-loop');

const PIECE_UNITS = 16384;
const isContainer = (value) => value !== null && typeof value === 'object';

/**
 * The weight of value; every container in it heavier than PIECE_UNITS is added to heavy (when given). One pass, so
 * that cutting stays linear in the value, however deep its heavy members nest.
 */
function weigh(value, heavy) {
  if (typeof value === 'string') return 1 + (value.length >> 4);
  if (!isContainer(value)) return 1;
  let weight = 1;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) weight += weigh(value[i], heavy);
  } else {
    for (const key of Object.keys(value)) weight += (key.length >> 4) + weigh(value[key], heavy);
  }
  if (heavy && weight > PIECE_UNITS) heavy.add(value);
  return weight;
}

// The skeleton's operations, in a flat list (a nested description of a deep value would itself be too deep to clone):
// a number n > 0 is the next piece, n members of the open container (items, or key/value pairs flattened); a string
// is the key under which the next container opens in the open object.
const OPEN_ARRAY = -1;
const OPEN_OBJECT = -2;
const CLOSE = -3;

/**
 * Worker side: value -> {skeleton, pieces: [Buffer]}. skeleton is a flat list of operations (above) that opens each
 * heavy container, fills it from pieces and heavy members in order, and closes it; [1] when value is light: pieces[0]
 * is [value].
 */
function cutValue(value) {
  const pieces = [];
  const skeleton = [];
  const heavy = new Set();
  weigh(value, heavy);
  function describe(container) {
    const array = Array.isArray(container);
    const keys = array ? null : Object.keys(container);
    const count = array ? container.length : keys.length;
    skeleton.push(array ? OPEN_ARRAY : OPEN_OBJECT);
    let run = [];
    let units = 0;
    const flush = () => {
      if (run.length === 0) return;
      pieces.push(v8.serialize(run));
      skeleton.push(array ? run.length : run.length / 2);
      run = [];
      units = 0;
    };
    for (let i = 0; i < count; i++) {
      const member = array ? container[i] : container[keys[i]];
      if (heavy.has(member)) {
        flush();
        if (!array) skeleton.push(keys[i]);
        describe(member);
        continue;
      }
      const weight = weigh(member, null); // at most PIECE_UNITS for a container not heavy: linear in all
      if (units + weight > PIECE_UNITS) flush();
      if (array) run.push(member);
      else run.push(keys[i], member);
      units += weight;
    }
    flush();
    skeleton.push(CLOSE);
  }
  if (heavy.has(value)) {
    describe(value);
  } else {
    pieces.push(v8.serialize([value]));
    skeleton.push(1);
  }
  return { skeleton, pieces };
}

// JSON.parse makes "__proto__" an own key; an assignment would set the prototype instead.
function setMember(object, key, value) {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * Main-thread side: the value cutValue cut, deserialized piece by piece; a turn of the event loop whenever yieldMs
 * passed (counted in stats.yields), where an aborted signal stops it. No recursion: any depth the worker could cut.
 */
async function assembleValue({ skeleton, pieces }, { yieldMs, signal, stats }) {
  let next = 0;
  let sliceStart = Date.now();
  async function take() {
    if (Date.now() - sliceStart >= yieldMs) {
      await nextTurn();
      stats.yields++;
      if (signal && signal.aborted) throw signal.reason;
      sliceStart = Date.now();
    }
    const members = v8.deserialize(pieces[next]);
    pieces[next++] = null; // each piece's buffer is garbage once read
    return members;
  }
  const open = [];
  let current = null;
  let root;
  let key = null;
  for (const op of skeleton) {
    if (typeof op === 'string') {
      key = op;
    } else if (op === OPEN_ARRAY || op === OPEN_OBJECT) {
      const container = op === OPEN_ARRAY ? [] : {};
      if (current === null) root = container;
      else if (Array.isArray(current)) current.push(container);
      else setMember(current, key, container);
      open.push(current);
      current = container;
    } else if (op === CLOSE) {
      current = open.pop();
    } else if (current === null) {
      root = (await take())[0];
    } else if (Array.isArray(current)) {
      const items = await take();
      for (let i = 0; i < items.length; i++) current.push(items[i]);
    } else {
      const pairs = await take();
      for (let i = 0; i < pairs.length; i += 2) setMember(current, pairs[i], pairs[i + 1]);
    }
  }
  return root;
}

module.exports = { cutValue, assembleValue, weigh, PIECE_UNITS };
