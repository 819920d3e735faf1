'use strict';
// The node count of a spec value as the `count` op defines it, computed in JS as its reference: every value is a node
// (object, array, string, number, boolean, null); an object's keys are not.

function countNodes(value) {
  if (Array.isArray(value)) {
    let nodes = 1;
    for (const item of value) nodes += countNodes(item);
    return nodes;
  }
  if (value !== null && typeof value === 'object') {
    let nodes = 1;
    for (const key of Object.keys(value)) nodes += countNodes(value[key]);
    return nodes;
  }
  return 1;
}

module.exports = { countNodes };
