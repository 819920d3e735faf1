'use strict';
/**
 * When V8 grows the hash table that holds an object's named properties. An object of more than about a thousand
 * keys (every object JSON.parse makes with that many, and any object they are merged into) keeps them in a hash
 * table (a NameDictionary) whose capacity is a power of two with at least a third of it free: the insertion that
 * would leave less rehashes every key into a new table twice the size, in one step (V8's HashTable::EnsureCapacity
 * and ComputeCapacity; 8-10 ms at 87k keys on the benchmark's machine, twice that at 175k). Array-index keys ("0",
 * "17") live apart, in the elements, and are not counted. test/hash-table-growth.test.js checks this model against
 * the V8 it runs on, by the memory each new table takes. Node 14 syntax: fast-parse.js, which uses it, runs there too.
 */

// The largest array index is 2^32 - 2.
const MAX_INDEX_KEY = '4294967294';

/** Whether V8 stores this property key as an array index (a canonical integer below 2^32 - 1). */
function isArrayIndex(key) {
  return key.length <= MAX_INDEX_KEY.length && `${Number(key) >>> 0}` === key && key !== '4294967295';
}

/** How many of `keys`, as Object.keys lists them (array indices first), are array indices: a binary search. */
function indexKeyCount(keys) {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isArrayIndex(keys[middle])) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The capacity of the table of an object holding `count` named keys: the least power of two a third free. */
function tableCapacity(count) {
  let capacity = 4;
  while (capacity < count + (count >> 1)) capacity *= 2;
  return capacity;
}

/** The count of named keys whose insertion grows a table of `capacity` (the first that leaves less than a third free). */
function growthCount(capacity) {
  let count = Math.floor((2 * capacity) / 3);
  while (count + (count >> 1) <= capacity) count++;
  return count;
}

module.exports = { isArrayIndex, indexKeyCount, tableCapacity, growthCount };
