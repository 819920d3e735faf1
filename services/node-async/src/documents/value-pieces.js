'use strict';
// A parsed value cut into pieces that each take the main thread a bounded time to deserialize (the `worker-pieces`
// parse approach): the worker cuts, the main thread assembles, giving the event loop a turn between pieces. A piece
// is V8's serialization of a run of consecutive members of one container (array items, or an object's key and value
// pairs), as many as fit PIECE_UNITS; a member heavier than that is described instead and cut in turn. So the skeleton
// that crosses as one message holds only the heavy members' keys, fewer than the value's units / PIECE_UNITS.
//
// Weight, in units: one per value, plus one per 16 characters of a string or key: what V8's deserializer does per
// value and per copied character, roughly. 16 384 units (a few hundred of the lab's records' values, or ~256 KB of
// string) deserialize in about a millisecond here (README, "worker").
const v8 = require('node:v8');
const { nextTurn } = require('@lab/loop-kit/event-loop');

const PIECE_UNITS = 16384;
const isContainer = (value) => value !== null && typeof value === 'object';

/** The weight of value, counted until it passes limit (then any number past it): bounded work however big value is. */
function weightPast(value, limit) {
  let weight = 0;
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    weight++;
    if (typeof node === 'string') weight += node.length >> 4;
    else if (Array.isArray(node)) {
      for (let i = 0; i < node.length && weight + stack.length <= limit; i++) stack.push(node[i]);
    } else if (isContainer(node)) {
      for (const key of Object.keys(node)) {
        if (weight + stack.length > limit) break;
        weight += key.length >> 4;
        stack.push(node[key]);
      }
    }
    if (weight + stack.length > limit) return limit + 1;
  }
  return weight;
}

/**
 * Worker side: value -> {skeleton, pieces: [Buffer]}. The skeleton is a number n (value itself is pieces[0], as [value])
 * or a heavy container's description: {array: [entry]} or {object: [entry]}, where an entry is a number n (the next
 * piece holds n members: items, or key/value pairs flattened) or {key (objects only), value: description}.
 */
function cutValue(value) {
  const pieces = [];
  function describe(container) {
    const array = Array.isArray(container);
    const keys = array ? null : Object.keys(container);
    const count = array ? container.length : keys.length;
    const entries = [];
    let run = [];
    let units = 0;
    const flush = () => {
      if (run.length === 0) return;
      pieces.push(v8.serialize(run));
      entries.push(array ? run.length : run.length / 2);
      run = [];
      units = 0;
    };
    for (let i = 0; i < count; i++) {
      const member = array ? container[i] : container[keys[i]];
      const weight = weightPast(member, PIECE_UNITS);
      if (weight > PIECE_UNITS && isContainer(member)) {
        flush();
        entries.push(array ? { value: describe(member) } : { key: keys[i], value: describe(member) });
        continue;
      }
      if (units + weight > PIECE_UNITS) flush();
      if (array) run.push(member);
      else run.push(keys[i], member);
      units += weight;
    }
    flush();
    return array ? { array: entries } : { object: entries };
  }
  if (isContainer(value) && weightPast(value, PIECE_UNITS) > PIECE_UNITS) return { skeleton: describe(value), pieces };
  pieces.push(v8.serialize([value]));
  return { skeleton: 1, pieces };
}

// JSON.parse makes "__proto__" an own key; an assignment would set the prototype instead.
function setMember(object, key, value) {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * Main-thread side: the value cutValue cut, deserialized piece by piece; a turn of the event loop whenever yieldMs
 * passed (counted in stats.yields), where an aborted signal stops it.
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
  async function build(description) {
    if (description.array) {
      const array = [];
      for (const entry of description.array) {
        if (typeof entry === 'number') array.push(...(await take()));
        else array.push(await build(entry.value));
      }
      return array;
    }
    const object = {};
    for (const entry of description.object) {
      if (typeof entry !== 'number') {
        setMember(object, entry.key, await build(entry.value));
        continue;
      }
      const pairs = await take();
      for (let i = 0; i < pairs.length; i += 2) setMember(object, pairs[i], pairs[i + 1]);
    }
    return object;
  }
  return typeof skeleton === 'number' ? (await take())[0] : build(skeleton);
}

module.exports = { cutValue, assembleValue, weightPast, PIECE_UNITS };
