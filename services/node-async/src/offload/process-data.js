'use strict';
// The worker-offload experiment's CPU-heavy request, the same function on the main thread (unoptimized route) and in a
// worker (optimized):
// every item's value times Fibonacci(fibonacciN), where Fibonacci is the original's recursive O(2^n) definition. The
// reference takes the iterative Fibonacci, so a route's answer is checked by arithmetic that shares no code with the
// work it checks.
const crypto = require('node:crypto');

function fibonacciRecursive(n) {
  return n < 2 ? n : fibonacciRecursive(n - 1) + fibonacciRecursive(n - 2);
}

function fibonacciIterative(n) {
  let [previous, current] = [0, 1];
  for (let i = 0; i < n; i++) [previous, current] = [current, previous + current];
  return previous;
}

/**
 * request: a checked body (request-body.js). Returns {items: [{id, fibonacci, score}], total}. Every item recomputes
 * its Fibonacci number: that is the work whose cost the original measures, so it is not memoized.
 */
function processData(request, fibonacci = fibonacciRecursive) {
  let total = 0;
  const items = request.items.map((item) => {
    const value = fibonacci(request.fibonacciN);
    const score = item.value * value;
    total += score;
    return { id: item.id, fibonacci: value, score };
  });
  return { items, total };
}

const hashOf = (result) => crypto.createHash('sha256').update(JSON.stringify(result)).digest('hex');

/** {hash, reference} of the answer the request must get: computed iteratively, in microseconds. */
function referenceOf(request) {
  return { hash: hashOf(processData(request, fibonacciIterative)), reference: 'iterative' };
}

module.exports = { processData, referenceOf, hashOf, fibonacciRecursive, fibonacciIterative };
