'use strict';
// The one place where a process-data body becomes a checked request. Every check runs before any work is queued, and
// the caps bound one request's CPU time (items × Fibonacci(30) ≈ 100 × 10 ms on this lab's machine) and memory.
const { badRequest } = require('@lab/node-kit');

const LIMITS = {
  bodyBytes: 64 * 1024, // larger bodies get 413 from the body parser
  items: { min: 1, max: 100 },
  fibonacciN: { min: 0, max: 30 },
  value: { min: 0, max: 1000000 }, // value × Fibonacci(30) stays a safe integer, and so does the sum of 100 of them
  name: { maxLength: 100 },
};

const isIntegerIn = (value, range) => Number.isSafeInteger(value) && value >= range.min && value <= range.max;

function check(condition, message, field) {
  if (!condition) throw badRequest(message, { field });
}

/** Returns {fibonacciN, items: [{id, name, value}]} from a parsed JSON body, or throws a 400 naming the field. */
function readProcessRequest(body) {
  check(body !== null && typeof body === 'object' && !Array.isArray(body), 'the body must be a JSON object {"fibonacciN": n, "items": [...]}', 'body');
  const { fibonacciN, items } = body;
  check(isIntegerIn(fibonacciN, LIMITS.fibonacciN), `fibonacciN must be an integer in [${LIMITS.fibonacciN.min}, ${LIMITS.fibonacciN.max}]`, 'fibonacciN');
  check(Array.isArray(items) && items.length >= LIMITS.items.min && items.length <= LIMITS.items.max,
    `items must be a list of ${LIMITS.items.min} to ${LIMITS.items.max} objects`, 'items');
  const checked = items.map((item, i) => {
    const where = `items[${i}]`;
    check(item !== null && typeof item === 'object' && !Array.isArray(item), `${where} must be an object {"id", "name", "value"}`, where);
    check(Number.isSafeInteger(item.id), `${where}.id must be an integer`, `${where}.id`);
    check(typeof item.name === 'string' && item.name.length <= LIMITS.name.maxLength, `${where}.name must be a string of at most ${LIMITS.name.maxLength} characters`, `${where}.name`);
    check(isIntegerIn(item.value, LIMITS.value), `${where}.value must be an integer in [${LIMITS.value.min}, ${LIMITS.value.max}]`, `${where}.value`);
    return { id: item.id, name: item.name, value: item.value };
  });
  return { fibonacciN, items: checked };
}

module.exports = { readProcessRequest, LIMITS };
