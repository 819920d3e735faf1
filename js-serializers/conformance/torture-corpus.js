'use strict';
// Values on which any JSON.stringify replacement must agree with native, byte for byte or error class for error class.
// Each case is {name, make}: make() builds a fresh value, so a stateful toJSON or getter starts from the same state
// for the reference run and for the run under test. A case may add text(): the correct output where native itself
// runs out of stack (a serializer that does not is right too, if it produces this text).
// No dependency on any serializer: this file is shared by the tests of every approach. Node 14 syntax.
const { generate, mulberry32 } = require('@lab/payloads');

const times = (n, make) => Array.from({ length: n }, (_, i) => make(i));

/** A toJSON that writes the key it was given into the output, so that a wrong key cannot go unnoticed. */
class Keyed {
  constructor(tag) {
    this.tag = tag;
  }

  toJSON(key) {
    return { tag: this.tag, key, type: typeof key };
  }
}

function nestedArrays(depth) {
  let value = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function nestedObjects(depth) {
  let value = { leaf: true };
  for (let i = 0; i < depth; i++) value = { level: i, child: value };
  return value;
}

/** A chain of nodes, each an object holding an array holding the next node: `levels` nodes, twice as many levels. */
function deepTree(levels, payload) {
  let node = { id: 0, leaf: true };
  for (let i = 1; i < levels; i++) node = { id: i, label: `node ${i}`, values: times(payload, (k) => i * k), kids: [node] };
  return node;
}

/** Numbers that stress the shortest round-trip formatting, plus the ones JSON turns into null or 0. */
function numbers(count, seed) {
  const next = mulberry32(seed);
  const special = [0.1, 0.2 + 0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, -0, NaN, Infinity, -Infinity,
    2 ** 53, -(2 ** 53) - 2, 123456789.12345679, 1 / 3, 1e300 * 10];
  return times(count, (i) => {
    const r = next();
    switch (i % 5) {
      case 0: return r;
      case 1: return (r / 4294967296) * 10 ** ((r % 40) - 20);
      case 2: return -r / 7;
      case 3: return special[r % special.length];
      default: return (r % 2000) - 1000;
    }
  });
}

const PIECES = ['plain ascii text ', '"', '\\', '\n', '\r\t', '\u0000', '\u001f', '\u007f', 'é', '€', '\u2028',
  '\u2029', '\ud83d\ude00', '\ud800', '\udfff', '</script>', 'x\udbff\udfffy'];

/** About `chars` characters of text mixing escapes, BMP characters, surrogate pairs and lone surrogates. */
function escapeHeavyString(chars, seed) {
  const next = mulberry32(seed);
  const parts = [];
  let length = 0;
  while (length < chars) {
    const piece = PIECES[next() % PIECES.length];
    parts.push(piece);
    length += piece.length;
  }
  return parts.join('');
}

/** `chars` characters of plain ASCII with `char` at index `at`: a long string that is ASCII but for one place. */
function asciiWith(chars, at, char) {
  const text = PIECES[0].repeat(Math.ceil(chars / PIECES[0].length));
  return text.slice(0, at) + char + text.slice(at + 1, chars);
}

/** A wide object whose keys include integer-like ones inserted out of order, so key ordering is exercised. */
function wideObject(count, seed) {
  const next = mulberry32(seed);
  const out = {};
  for (let i = 0; i < count; i++) {
    const r = next();
    const key = r % 10 === 0 ? String(r % 100000) : `key_${i}_${r % 1000}`;
    switch (r % 7) {
      case 0: out[key] = r; break;
      case 1: out[key] = `value ${r}`; break;
      case 2: out[key] = { n: r, s: 'x' }; break;
      case 3: out[key] = [r, null, true]; break;
      case 4: out[key] = undefined; break;
      case 5: out[key] = r / 3; break;
      default: out[key] = null;
    }
  }
  return out;
}

/** The records document with toJSON values and Dates mixed in at every level. */
function recordsWithToJSON(size) {
  const doc = generate({ document: 'records', seed: 4, size });
  doc.records.forEach((record, i) => {
    record.created = new Date(Date.UTC(2020, 0, 1) + i * 86400000);
    record.keyed = new Keyed(i);
    record.history[i % 10].at = new Date(Date.UTC(2021, 5, 1, 0, 0, i));
    if (i % 7 === 0) record.tags.push(new Keyed(`tag${i}`));
  });
  doc.generatedAt = new Date(Date.UTC(2022, 2, 3));
  return doc;
}

/**
 * A random document of about `budget` values: scalars, toJSON objects, Dates, boxed values, holes, long arrays and
 * wide objects mixed at random depths, for checking what fixed cases do not think of.
 */
function randomValue(seed, budget) {
  const next = mulberry32(seed);
  let left = budget;
  const scalar = () => {
    const options = [0, -0, 0.1, 1e21, NaN, -Infinity, 'text', 'é\ud800"\n', '', null, true, false, undefined,
      () => 1, Symbol('s'), Object(2), new Date(next() * 1000), `s${next()}`];
    return options[next() % options.length];
  };
  const make = (depth) => {
    const r = next() % 20;
    if (depth > 8 || r < 8 || --left < 0) return scalar();
    if (r < 12) {
      const list = times(next() % (r === 8 ? 1500 : 6), () => make(depth + 1));
      if (list.length > 2 && next() % 4 === 0) delete list[1];
      return list;
    }
    if (r === 12) return new Keyed(next());
    const out = {};
    const width = next() % (r === 13 ? 1200 : 6);
    for (let i = 0; i < width; i++) out[next() % 3 === 0 ? String(next() % 100) : `k${next() % 1000}`] = make(depth + 1);
    return out;
  };
  return make(0);
}

function withGetter(object, key, get) {
  Object.defineProperty(object, key, { get, enumerable: true, configurable: true });
  return object;
}

function cyclic() {
  const a = { name: 'a', list: [] };
  a.list.push({ back: a });
  return a;
}

const cases = [
  // Scalars and what JSON does to them.
  { name: 'top-level number', make: () => 42.5 },
  { name: 'top-level string with escapes', make: () => 'a"b\\c\n\u2028\ud800\u0007' },
  { name: 'top-level negative zero', make: () => -0 },
  { name: 'top-level NaN', make: () => NaN },
  { name: 'top-level null', make: () => null },
  { name: 'top-level true', make: () => true },
  { name: 'top-level undefined', make: () => undefined },
  { name: 'top-level function', make: () => function f() {} },
  { name: 'top-level symbol', make: () => Symbol('s') },
  { name: 'top-level toJSON returning undefined', make: () => ({ toJSON: () => undefined }) },
  { name: 'top-level toJSON gets the empty key', make: () => new Keyed('root') },
  { name: 'top-level Date', make: () => new Date(Date.UTC(2020, 1, 29, 12)) },
  { name: 'top-level boxed string', make: () => Object('boxed') },
  { name: 'primitives', make: () => [0, -0, 1.5, -1e21, NaN, Infinity, -Infinity, true, false, null, '', 'a"b'] },
  { name: 'floats that stress formatting', make: () => [0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 2 ** 53 + 2, 1 / 3] },
  {
    name: 'skipped values: left out of objects, null in arrays',
    make: () => ({ a: undefined, b: () => 1, c: Symbol('s'), d: 1, arr: [undefined, () => 1, Symbol('s'), 2] }),
  },
  { name: 'object with only skipped values', make: () => ({ a: undefined, b: () => 1 }) },
  {
    name: 'boxed primitives are unwrapped',
    make: () => ({ n: Object(1), s: Object('s'), b: Object(false), nan: Object(NaN), z: Object(-0), list: [Object(2), Object('t')] }),
  },
  {
    name: 'boxed primitives unwrapped the way native does',
    make: () => {
      const n = Object(1);
      n.valueOf = () => 42; // ToNumber calls it
      const s = Object('s');
      s.toString = () => 'custom'; // ToString calls it
      const b = Object(false);
      b.valueOf = () => true; // read from the internal slot, not called
      return { n, s, b, list: [n, s, b] };
    },
  },
  { name: 'integer-like keys are ordered first', make: () => ({ b: 1, 2: 'two', a: 3, 1: 'one', '-1': 'm', '01': 'z', 4294967295: 'big', 4294967294: 'max' }) },
  { name: 'keys that need escaping', make: () => ({ '"quoted"': 1, 'new\nline': 2, '\ud800': 3, '': 4, 'é€😀': 5 }) },
  // eslint-disable-next-line no-sparse-arrays
  { name: 'sparse arrays: holes are null', make: () => ({ small: [1, , 3], empty: new Array(5), big: Object.assign(new Array(3000), { 7: 'x', 2999: 'end' }) }) },
  { name: 'array extra properties are ignored', make: () => Object.assign([1, 2], { extra: 'x' }) },
  { name: 'empty containers', make: () => [{}, [], [[]], { a: {} }, { a: [] }, [{}]] },
  { name: 'lone surrogates and control characters', make: () => ['\ud800', '\udfff', 'a\ud83d', '\ud83d\ude00', '\ude00\ud83d', '\u0000\u001f\u007f', PIECES.join('')] },
  { name: 'Map, Set, RegExp, Error and typed arrays are plain objects', make: () => [new Map([[1, 2]]), new Set([1]), /re/g, new Error('e'), new Uint8Array([1, 2, 3]), new Float64Array([0.5, -0])] },
  {
    name: 'symbol keys, non-enumerable and inherited properties are ignored',
    make: () => {
      const o = Object.create({ inherited: 1 });
      o[Symbol('s')] = 2;
      Object.defineProperty(o, 'hidden', { value: 3, enumerable: false });
      o.shown = 4;
      return { o, list: [o, o] };
    },
  },
  { name: 'null-prototype objects and a __proto__ key', make: () => [Object.assign(Object.create(null), { a: 1 }), JSON.parse('{"a":1,"__proto__":{"b":2},"c":3}')] },
  { name: 'a toJSON property that is not a function is just a property', make: () => ({ a: { toJSON: 5, b: 1 }, c: [{ toJSON: null }], d: { toJSON: { x: 1 } } }) },
  { name: 'arguments object', make: () => (function args() { return arguments; })(1, 'two', [3]) },
  // toJSON.
  {
    name: 'toJSON on nested values and Dates',
    make: () => ({ when: new Date(Date.UTC(2020, 1, 29)), nested: { deeper: { toJSON: (key) => `key:${key}` } }, list: [new Date(0), { toJSON: () => undefined }] }),
  },
  {
    name: 'toJSON gets the array index as a string, also far into a large array',
    make: () => times(20000, (i) => (i % 97 === 0 ? new Keyed(i) : { i, s: `s${i}` })),
  },
  { name: 'toJSON gets the property key, also in a wide object', make: () => Object.fromEntries(times(5000, (i) => [`k${i}`, i % 13 === 0 ? new Keyed(i) : i])) },
  {
    name: 'toJSON on functions is called',
    make: () => [Object.assign(() => 1, { toJSON: (k) => `fn${k}` }), { f: Object.assign(() => 1, { toJSON: (k) => `fn${k}` }) }],
  },
  {
    name: 'toJSON result is serialized without calling its own toJSON',
    make: () => [{ toJSON: () => ({ toJSON: () => 'inner called', x: 1 }) }, { toJSON: () => Object(7) }, { toJSON: () => [new Keyed('in result')] }],
  },
  {
    name: 'toJSON on the prototype (class instances) and on an Array subclass',
    make: () => {
      class Tagged extends Array {
        toJSON(key) {
          return `tagged array at ${key}`;
        }
      }
      class Plain extends Array {}
      return { keyed: [new Keyed('a'), new Keyed('b')], tagged: Tagged.from([1, 2]), plain: Plain.from([1, 2]) };
    },
  },
  { name: 'records with Dates and toJSON at every level', make: () => recordsWithToJSON(500) },
  // Getters and proxies: each getter must run once, in native's order.
  {
    name: 'getters run once each, in order, interleaved with toJSON',
    make: () => {
      const state = { calls: 0 };
      const o = { a: { toJSON: () => ++state.calls } };
      withGetter(o, 'b', () => ++state.calls);
      o.c = { toJSON: () => ++state.calls };
      withGetter(o, 'd', () => state.calls);
      return o;
    },
  },
  {
    name: 'a toJSON getter is read the way native reads it',
    make: () => {
      const state = { reads: 0 };
      const o = {};
      withGetter(o, 'toJSON', () => {
        state.reads++;
        return undefined;
      });
      o.x = 1;
      const report = withGetter({ o, list: [o, o] }, 'reads', () => state.reads);
      return report;
    },
  },
  {
    name: 'index getters in a large array see the side effects of earlier elements',
    make: () => {
      const state = { calls: 0 };
      const list = times(6000, (i) => ({ i, v: { toJSON: () => ++state.calls } }));
      for (let i = 25; i < list.length; i += 500) Object.defineProperty(list, i, { get: () => ({ seen: state.calls }), enumerable: true });
      return list;
    },
  },
  {
    name: 'proxies of objects and arrays',
    make: () => {
      const target = { a: 1, b: [1, 2], c: { d: 'e' } };
      const objectProxy = new Proxy(target, { get: (t, k) => (k === 'a' ? 'from trap' : t[k]) });
      const arrayProxy = new Proxy([1, 2, 3], { get: (t, k) => (k === '1' ? 'two' : t[k]) });
      return { objectProxy, arrayProxy, list: [objectProxy, arrayProxy], wide: times(3000, (i) => (i % 500 === 0 ? objectProxy : i)) };
    },
  },
  // Shapes.
  { name: 'huge array of numbers', make: () => numbers(200000, 5) },
  { name: 'wide object', make: () => wideObject(100000, 6) },
  { name: 'deep tree of objects and arrays (2000 levels)', make: () => deepTree(1000, 3) },
  { name: 'nested arrays, 2000 levels', make: () => nestedArrays(2000) },
  { name: 'nested objects, 2000 levels', make: () => nestedObjects(2000) },
  {
    name: 'nested arrays, 5000 levels (past native on Node 24)',
    make: () => nestedArrays(5000),
    text: () => '['.repeat(5001) + ']'.repeat(5001),
  },
  {
    name: 'nested objects, 5000 levels (past native on Node 24)',
    make: () => nestedObjects(5000),
    text: () => {
      const opens = [];
      for (let i = 4999; i >= 0; i--) opens.push(`{"level":${i},"child":`);
      return opens.join('') + '{"leaf":true}' + '}'.repeat(5000);
    },
  },
  { name: 'long string with escapes and unicode (5 MB)', make: () => escapeHeavyString(5 * 1024 * 1024, 7) },
  // Long ASCII strings are told apart by a scanner of their own (plain-ascii.js): one character to escape at the start,
  // far in or in the last 16 bytes, or one it must leave alone (DEL) or to others (é).
  {
    name: 'long ASCII strings, each with one character far in',
    make: () => [asciiWith(3000000, 2500001, '\u0001'), asciiWith(3000000, 2999999, '"'), asciiWith((1 << 20) + 17, 1 << 20, '\\'),
      asciiWith(3000000, 1500000, '\u007f'), asciiWith(3000000, 2000000, 'é'), asciiWith(3000000, 0, '\u001f')],
  },
  { name: 'long strings of surrogate pairs at odd and even offsets', make: () => ['\ud83d\ude00'.repeat(400000), `x${'\ud83d\ude00'.repeat(400000)}`] },
  { name: 'many medium strings', make: () => times(2000, (i) => escapeHeavyString(1000 + i, i)) },
  { name: 'records document', make: () => generate({ document: 'records', seed: 1, size: 500 }) },
  { name: 'shared references are not cycles', make: () => { const shared = { x: [1] }; return { a: shared, b: [shared, shared], c: times(3000, () => shared) }; } },
  // Errors: the same class as native.
  { name: 'cycle through an object', make: () => { const o = { a: 1 }; o.self = o; return o; } },
  { name: 'cycle through an array', make: cyclic },
  { name: 'cycle to the root from deep inside a large array', make: () => { const list = times(5000, (i) => ({ i })); list[4000].root = list; return list; } },
  { name: 'cycle inside one element of a large array', make: () => times(5000, (i) => (i === 4999 ? cyclic() : i)) },
  { name: 'cycle through a toJSON result', make: () => { const o = { x: null }; o.x = { toJSON: () => o }; return o; } },
  { name: 'BigInt in an object', make: () => ({ n: 1n }) },
  { name: 'BigInt in an array', make: () => [1, 2n] },
  { name: 'boxed BigInt', make: () => [Object(3n)] },
  { name: 'BigInt deep in a large array', make: () => times(5000, (i) => ({ i, v: i === 4321 ? 5n : i })) },
  {
    name: 'a getter that throws',
    make: () => [1, withGetter({}, 'bad', () => { throw new RangeError('getter failed'); })],
  },
  { name: 'a toJSON that throws', make: () => ({ a: { toJSON: () => { throw new SyntaxError('toJSON failed'); } } }) },
];

// The shape builders are exported for benchmarks, which want the same shapes at other sizes.
module.exports = { cases, shapes: { deepTree, numbers, wideObject, escapeHeavyString, recordsWithToJSON, randomValue } };
