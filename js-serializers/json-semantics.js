'use strict';
// JSON.stringify's rules for one value (ECMA-262 SerializeJSONProperty, without replacer or indent), shared by the
// hand-written serializers so that each only decides HOW it walks and yields, never WHAT it writes.

const { types } = require('util');

const SKIP = Symbol('skip');

/**
 * Classifies value (found under key in its holder) after toJSON and unboxing. Returns SKIP (undefined, functions,
 * symbols), a string of finished JSON text (primitives), or the array / object to walk.
 */
function prepare(key, value) {
  if (value !== null && (typeof value === 'object' || typeof value === 'function' || typeof value === 'bigint')) {
    const toJSON = value.toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  // Boxed primitives by their internal slot, as native does: numbers and strings through ToNumber / ToString (which
  // call valueOf / toString), booleans and BigInts from the slot itself.
  if (value !== null && typeof value === 'object') {
    if (types.isNumberObject(value)) value = Number(value);
    else if (types.isStringObject(value)) value = String(value);
    else if (types.isBooleanObject(value)) value = Boolean.prototype.valueOf.call(value);
    else if (types.isBigIntObject(value)) value = BigInt.prototype.valueOf.call(value);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return value === null ? 'null' : value;
    default:
      return SKIP;
  }
}

/** Tracks the containers on the current path, throwing the TypeError native JSON.stringify throws on a cycle. */
function cycleGuard() {
  const path = new Set();
  return {
    enter(container) {
      if (path.has(container)) throw new TypeError('Converting circular structure to JSON');
      path.add(container);
    },
    leave(container) {
      path.delete(container);
    },
  };
}

module.exports = { SKIP, prepare, cycleGuard };
