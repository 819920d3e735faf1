'use strict';
// JSON texts on which any JSON.parse replacement must agree with native: `valid` texts must give a value deep-equal to
// JSON.parse's (key order, -0, "__proto__" as an own key included), `invalid` texts must be rejected with a
// SyntaxError, as JSON.parse rejects them. Each case is {name, text}; the large ones have `text` as a getter that
// builds the text on each read (read it once), so requiring this file is cheap.
// tortureTexts() adds the JSON.stringify output of every torture-corpus case that has one; randomText() makes seeded
// random documents with random whitespace between tokens; textOf() writes a parse result back to text at any depth;
// firstDifference() compares a result with JSON.parse's the strict way (-0, key order, own "__proto__", prototypes).
// No dependency on any parser: this file is shared by the tests of every approach. Node 14 syntax.
const { generate, mulberry32 } = require('@lab/payloads');
const { cases: tortureCases, shapes } = require('./torture-corpus');
const { growthCount } = require('../hash-table-growth');

/** A case whose text is built when read. */
function lazy(name, build) {
  return Object.defineProperty({ name }, 'text', { get: build, enumerable: true });
}

const repeat = (n, make) => {
  const parts = new Array(n);
  for (let i = 0; i < n; i++) parts[i] = make(i);
  return parts;
};

/** Number literals in every form the grammar allows (JSON.stringify writes only a few of them). */
function numberLiteral(next) {
  const r = next();
  const digits = String(r);
  switch (r % 9) {
    case 0: return '0';
    case 1: return `-${digits}`;
    case 2: return `${digits.slice(0, 3)}.${digits.slice(3) || '0'}`;
    case 3: return `-0.${digits}e-${r % 30}`;
    case 4: return `${r % 10}E+${r % 300}`;
    case 5: return `${digits}e${r % 20}`;
    case 6: return '-0';
    case 7: return `${digits}${digits}${digits}`; // beyond 2^53
    default: return `0.${'0'.repeat(r % 5)}${digits}`;
  }
}

// Whitespace runs drawn at random: JSON allows exactly these four characters.
const SPACES = ['', '', '', ' ', '\n', '\t', '\r\n', '  \t ', '\n\n    '];

/** Serializes a JSON.parse result with random whitespace between all tokens. */
function spaced(value, next) {
  const ws = () => SPACES[next() % SPACES.length];
  const out = [];
  const stack = [{ value, keys: null, index: -1 }];
  out.push(ws());
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const v = top.value;
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v), ws());
      stack.pop();
      continue;
    }
    const isArray = Array.isArray(v);
    if (top.index === -1) {
      top.keys = isArray ? null : Object.keys(v);
      out.push(isArray ? '[' : '{', ws());
    }
    top.index++;
    const length = isArray ? v.length : top.keys.length;
    if (top.index >= length) {
      out.push(isArray ? ']' : '}', ws());
      stack.pop();
      continue;
    }
    if (top.index > 0) out.push(',', ws());
    if (isArray) {
      stack.push({ value: v[top.index], keys: null, index: -1 });
    } else {
      const key = top.keys[top.index];
      out.push(JSON.stringify(key), ws(), ':', ws());
      stack.push({ value: v[key], keys: null, index: -1 });
    }
  }
  return out.join('');
}

/** JSON.stringify's text of a JSON.parse result, written without a call stack (native's runs out near 10k levels). */
function textOf(value) {
  return spaced(value, () => 0);
}

/**
 * Where actual differs from expected (a JSON.parse result): a path like `$.a[3]`, or null when they are the same:
 * same types, Object.is for scalars (so -0 differs from 0), same prototypes, same own keys in the same order. Iterative,
 * so any depth compares.
 */
function firstDifference(actual, expected) {
  // Entries are [actual, expected, parent entry, key]; a path is only written for a difference.
  const pathOf = (entry) => {
    const keys = [];
    for (let at = entry; at[2] !== null; at = at[2]) keys.push(Array.isArray(at[2][1]) ? `[${at[3]}]` : `.${at[3]}`);
    return `$${keys.reverse().join('')}`;
  };
  const stack = [[actual, expected, null, '']];
  while (stack.length > 0) {
    const entry = stack.pop();
    const a = entry[0];
    const e = entry[1];
    if (e === null || typeof e !== 'object') {
      if (!Object.is(a, e)) return pathOf(entry);
      continue;
    }
    if (a === null || typeof a !== 'object' || Array.isArray(a) !== Array.isArray(e)) return pathOf(entry);
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(e)) return `${pathOf(entry)} (prototype)`;
    const keysA = Object.keys(a);
    const keysE = Object.keys(e);
    if (keysA.length !== keysE.length) return `${pathOf(entry)} (${keysA.length} keys, expected ${keysE.length})`;
    for (let i = keysE.length - 1; i >= 0; i--) {
      if (keysA[i] !== keysE[i]) return `${pathOf(entry)} (key ${i} is ${JSON.stringify(keysA[i])}, expected ${JSON.stringify(keysE[i])})`;
      stack.push([a[keysE[i]], e[keysE[i]], entry, keysE[i]]);
    }
  }
  return null;
}

/** A seeded random document (torture-corpus' random values, through JSON) with random whitespace between tokens. */
function randomText(seed, budget) {
  const text = JSON.stringify(shapes.randomValue(seed, budget));
  return text === undefined ? 'null' : spaced(JSON.parse(text), mulberry32(seed * 7919));
}

function nested(depth, open, close, leaf) {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

/**
 * A tree `levels` deep whose large member comes after small ones at every level, under keys made of quotes, brackets
 * and backslashes, in an object's member and in an array after small elements: where a parser that learnt the nesting
 * from one scan cuts each level's first batch, at the comma before the large member.
 */
function deepTreeAfterSmallMembers(levels) {
  let node = { leaf: ['"', '\\'] };
  for (let i = 1; i < levels; i++) {
    const level = { 'a "key", [like] {this}': i, 'list\\': repeat(12, (k) => i * k), '': 'x,"y":[' };
    if (i % 2 === 0) level['kids\\"'] = node;
    else level.kids = ['small', { n: i }, node];
    node = level;
  }
  return node;
}

/**
 * A tree `levels` deep whose every level holds, right before the next level, a container of thousands of characters:
 * a parser may parse it apart from the small members before it, and must find where it starts and under which key.
 * In turn: a key with escaped quotes and backslashes, "__proto__", a key the level already had (last value, first
 * position), and an array level whose large child comes after small ones; some large children hold strings of
 * brackets and quotes that mislead a count of brackets.
 */
function deepTreeWithLargeMembers(levels, space) {
  const text = (value) => JSON.stringify(value, null, space);
  let node = text({ leaf: true });
  for (let i = 1; i < levels; i++) {
    const large = text(i % 3 === 0
      ? repeat(300, (k) => TRICKY_STRINGS[(i + k) % TRICKY_STRINGS.length])
      : { values: repeat(900, (k) => i * k) });
    const key = [text('big \\"key\\" \\'), '"__proto__"', '"dup"', null][i % 4];
    if (key === null) node = `{"id":${i},"next":["small",{"n":${i}},${large},${node}]}`;
    else node = `{"dup":"first","id":${i},${key}:${large},"next\\\\":${node}}`;
  }
  return node;
}

/**
 * A complete binary tree `depth` levels deep whose keys and strings (taken from `strings` in turn) hold brackets,
 * braces, commas and quotes: a parser that finds where its batches end by counting brackets alone is misled here.
 */
function bushyTreeOfTrickyStrings(depth, strings, [idKey, kidsKey]) {
  let id = 0;
  const node = (below) => {
    const own = id++;
    const kids = below > 0 ? [node(below - 1), strings[own % strings.length], node(below - 1)] : [];
    return { [idKey]: own, label: strings[(own * 7) % strings.length], [kidsKey]: kids };
  };
  return node(depth);
}
/** bushyTreeOfTrickyStrings' text with every kind of tricky string, in keys too. */
const trickyBushyText = () => JSON.stringify(bushyTreeOfTrickyStrings(14, TRICKY_STRINGS, ['id]', '{kids[']));
// Balanced in each string, and no comma: the count of brackets stays right, but some containers it sees are strings.
const BALANCED_STRINGS = ['[]', '{[]}', '[{}{}]', '[[[]]]', 'plain', '{"a":[1]}'];

const ESCAPES = '\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0000 \\u001F \\u007f \\u00e9 \\u20AC \\u2028 \\ud83d\\ude00 \\ud800 \\udfff';
const TRICKY_STRINGS = ['[', ']', '{', '}', '"', '\\', ',', ':', '\\"', '"\\', '],[', '},{', '","', '":"', '\\\\"', ' ',
  '\u2028\u2029', '\ud800', '\udc00', '\ud83d\ude00', '\u0000\u001f', 'é€', ''];

const valid = [
  // Top-level scalars.
  { name: 'zero', text: '0' },
  { name: 'negative zero', text: '-0' },
  { name: 'negative zero as a float', text: '-0.0e0' },
  { name: 'integer', text: '42' },
  { name: 'negative float with exponent', text: '-1.5e-3' },
  { name: 'capital exponent with plus', text: '1E+2' },
  { name: 'number that overflows to Infinity', text: '1e400' },
  { name: 'number that overflows to -Infinity', text: '-1e400' },
  { name: 'number that underflows to 0', text: '1e-400' },
  { name: 'smallest subnormal', text: '5e-324' },
  { name: 'largest double', text: '1.7976931348623157e308' },
  { name: 'integer beyond 2^53', text: '123456789012345678901234567890' },
  { name: 'long fraction', text: '0.1000000000000000055511151231257827021181583404541015625' },
  { name: 'true', text: 'true' },
  { name: 'false', text: 'false' },
  { name: 'null', text: 'null' },
  { name: 'empty string', text: '""' },
  { name: 'string', text: '"text"' },
  { name: 'whitespace around a scalar', text: ' \t\n\r 1 \r\n\t ' },
  { name: 'whitespace around a string', text: '\n"x"\n' },
  // Strings.
  { name: 'every escape', text: `"${ESCAPES}"` },
  { name: 'escaped NUL', text: '"\\u0000"' },
  { name: 'escaped lone surrogates', text: '["\\ud800", "\\udfff", "\\uDBFF", "a\\ud800b", "\\udc00\\ud800"]' },
  { name: 'escaped surrogate pair, upper and lower case hex', text: '["\\ud83d\\ude00", "\\uD83D\\uDE00", "\\uDbFf\\udFfF"]' },
  { name: 'raw unicode', text: '"é€😀\u2028\u2029\u007f\u0080\uffff"' },
  { name: 'raw lone surrogates', text: '["\ud800", "\udfff", "a\ud83d", "\ude00\ud83d"]' },
  { name: 'strings made of brackets, quotes and backslashes', text: JSON.stringify(TRICKY_STRINGS) },
  { name: 'keys made of brackets, quotes and backslashes', text: JSON.stringify(Object.fromEntries(TRICKY_STRINGS.map((s, i) => [s, i]))) },
  { name: 'escaped slash and unnecessary escapes', text: '["\\/", "\\u0041\\u0062", "a\\/b"]' },
  // Containers.
  { name: 'empty array', text: '[]' },
  { name: 'empty object', text: '{}' },
  { name: 'empty containers with whitespace', text: '[ [ ] , { } , [ [ ] ] , {"a" : { } } , [ { } ] ]' },
  { name: 'array of primitives', text: '[0,-0,1.5,-1e21,1e-7,true,false,null,"",""]' },
  { name: '__proto__ key is an own property', text: '{"__proto__":{"polluted":true},"a":1}' },
  { name: '__proto__ key nested and in arrays', text: '[{"__proto__":[1]},{"x":{"__proto__":null}},{"__proto__":"s"}]' },
  { name: 'duplicate keys: last value, first position', text: '{"a":1,"b":2,"a":3,"c":4,"b":5}' },
  { name: 'duplicate __proto__ keys', text: '{"__proto__":1,"x":0,"__proto__":{"y":2}}' },
  { name: 'integer-like keys are ordered first', text: '{"b":1,"2":2,"a":3,"1":4,"-1":5,"01":6,"4294967295":7,"4294967294":8,"1.5":9}' },
  { name: 'keys shadowing Object.prototype', text: '{"constructor":1,"toString":2,"hasOwnProperty":3,"valueOf":{},"":"empty"}' },
  { name: 'whitespace everywhere', text: ' \n{ "a" :\t[ 1 ,\r\n2 , { "b" : null } ] , "c" : "d" \n} \t' },
  { name: 'pretty-printed document', text: JSON.stringify(JSON.parse('{"a":[1,{"b":[true,null]},[]],"c":{"d":"e","f":{}}}'), null, 4) },
  // Nesting.
  { name: 'nested arrays, 10k levels', text: nested(10000, '[', ']', '') },
  { name: 'nested objects, 10k levels', text: nested(10000, '{"a":', '}', '1') },
  { name: 'nested arrays and objects alternating, 10k levels', text: nested(5000, '[{"k":', '}]', '"leaf"') },
  { name: 'nested arrays with whitespace, 2k levels', text: nested(2000, '[ \n', ' \n]', '0') },
  lazy('nested arrays, 200k levels', () => nested(200000, '[', ']', '')),
  lazy('deep tree of objects and arrays (2000 levels)', () => JSON.stringify(shapes.deepTree(1000, 50))),
  lazy('bushy tree whose keys and strings hold brackets, commas and quotes', trickyBushyText),
  lazy('bushy tree whose strings hold balanced brackets', () => JSON.stringify(bushyTreeOfTrickyStrings(14, BALANCED_STRINGS, ['id', 'kids']))),
  lazy('deep tree with small members before the large one, pretty-printed', () => JSON.stringify(deepTreeAfterSmallMembers(500), null, 1)),
  lazy('deep tree with a large member before the next level', () => deepTreeWithLargeMembers(200)),
  lazy('deep tree with a large member before the next level, pretty-printed', () => deepTreeWithLargeMembers(200, 2)),
  // Large shapes, in text forms JSON.stringify never writes.
  lazy('big array of numbers in every form', () => {
    const next = mulberry32(11);
    return `[${repeat(300000, () => numberLiteral(next)).join(',')}]`;
  }),
  lazy('big array of numbers with whitespace', () => {
    const next = mulberry32(12);
    return `[ ${repeat(100000, () => numberLiteral(next)).join(' ,\n ')} ]`;
  }),
  lazy('wide object, 100k keys with escapes', () => {
    const next = mulberry32(13);
    const members = repeat(100000, (i) => {
      const r = next();
      const key = r % 11 === 0 ? String(r % 50000) : r % 13 === 0 ? `k\\"${i}\\u00e9` : `key_${i}`;
      const value = r % 5 === 0 ? `{"n":${r},"s":"x,\\"}"}` : r % 5 === 1 ? `[${r},null,"]"]` : r % 5 === 2 ? '"v"' : String(r);
      return `"${key}":${value}`;
    });
    return `{${members.join(',')}}`;
  }),
  // Keys that share a start (fast-parse guesses batch ends at `,"key_`), and that start after commas of other levels:
  // in runs of arrays and nested objects, and after the wide object's end; integer-like keys first, as JSON.stringify
  // writes them.
  lazy('wide object of keys that share a start, the start also inside its values and after it', () => {
    const next = mulberry32(14);
    const members = repeat(80000, (i) => {
      const r = next();
      const key = i < 8000 ? String(i * 3) : `key_${i}`;
      // Past the first 20000 keys, runs of values with the start inside, where a guessed end can fall.
      const trap = i >= 20000 && i % 1000 < 100;
      const value = trap && r % 2 === 0 ? '["a","key_z"]' : trap ? `{"key_a":${r},"key_b":"key_,\\"key_"}` : r % 3 === 0 ? '[1,"x"]' : String(r);
      return `"${key}":${value}`;
    });
    return `{"wide":{${members.join(',')}},"key_after":{"key_1":1,"key_2":[2]},"key_3":3}`;
  }),
  lazy('wide object with duplicate and __proto__ keys spread across it', () => {
    const members = repeat(60000, (i) => `"k${i % 20000}":${i}`);
    members.splice(30000, 0, '"__proto__":{"late":true}');
    members.push('"__proto__":[1,2]', '"k5":"last"');
    return `{${members.join(',')}}`;
  }),
  lazy('wide object whose last key grows its hash table, after a long member', () => {
    // 21846 named keys: the last one's insertion grows a table of 32768 (hash-table-growth.js), so fast-parse's merge
    // of the last batch stops before it and the object closes a slice later.
    const members = repeat(60, (i) => `"${i * 7}":${i}`);
    for (let i = 0; i < growthCount(1 << 15); i++) members.push(i === 9000 ? `"m${i}":"${'x'.repeat(200000)}"` : `"m${i}":${i}`);
    return `{${members.join(',')}}`;
  }),
  // Keys longer than a thin slice's slack: the scan stops at a key it cannot finish, the batch ends before it, and
  // the next batch's scan starts at that same quote.
  { name: 'object of long keys', text: `{${repeat(300, (i) => `"${'long key '.repeat(10 + (i % 7))}${i}":[${i},{"k":"v"}]`).join(',')}}` },
  lazy('array of strings full of tricky characters', () => JSON.stringify(repeat(50000, (i) => TRICKY_STRINGS[i % TRICKY_STRINGS.length].repeat(1 + (i % 7))))),
  lazy('huge element between small ones', () => `[1,"a",{"x":[${repeat(200000, (i) => i).join(',')}],"y":"]"},2,[3]]`),
  lazy('huge member between small ones', () => `{"a":1,"big":{"list":[${repeat(200000, (i) => `"s${i}"`).join(',')}]},"z":[{}]}`),
  // Long strings.
  lazy('long string with escapes and unicode (4 MB)', () => JSON.stringify(shapes.escapeHeavyString(4 * 1024 * 1024, 7))),
  lazy('long string of \\u escapes', () => `"${'\\u0041\\ud83d\\ude00\\ud800'.repeat(100000)}"`),
  lazy('long string of escaped backslashes and quotes', () => `"${'\\\\\\"\\\\'.repeat(300000)}"`),
  lazy('long string of raw surrogate pairs', () => `"${'\ud83d\ude00'.repeat(600000)}x"`),
  lazy('long ascii string', () => `"${'abcdefgh'.repeat(1 << 20)}"`),
  lazy('long string without escapes, 20M characters', () => JSON.stringify('plain text '.repeat(1900000))),
  lazy('long string without escapes beside a long one with them', () => `[${JSON.stringify('a'.repeat(5000000))},${JSON.stringify('"\\'.repeat(1000000))},${JSON.stringify('b'.repeat(70000))}]`),
  lazy('long strings in an array and an object', () => `[${JSON.stringify('x'.repeat(300000))},${JSON.stringify({ k: 'y\\"'.repeat(200000), n: 1 })},"${'\\n'.repeat(150000)}"]`),
  lazy('long key', () => `{"${'k'.repeat(400000)}":1,"b":[2]}`),
  lazy('records document (small)', () => JSON.stringify(generate({ document: 'records', seed: 3, size: 300 }))),
  lazy('records with a huge record and a huge string among them', () => {
    const doc = generate({ document: 'records', seed: 4, size: 3000 });
    doc.records[1700].notes = 'n\\"'.repeat(1000000);
    doc.records.splice(2500, 0, 'a string of records: },{"id":'.repeat(100000));
    return JSON.stringify(doc, null, 1500 % 7);
  }),
  lazy('random document with random whitespace', () => randomText(5, 20000)),
];

const invalid = [
  { name: 'empty text', text: '' },
  { name: 'only whitespace', text: ' \n\t ' },
  { name: 'non-JSON whitespace (no-break space)', text: '\u00a0[]' },
  { name: 'byte order mark', text: '\ufeff[]' },
  { name: 'comment', text: '/* c */ []' },
  { name: 'lone minus', text: '-' },
  { name: 'plus sign', text: '+1' },
  { name: 'leading zero', text: '01' },
  { name: 'negative leading zero', text: '-01' },
  { name: 'leading zeros in an array', text: '[1,00]' },
  { name: 'trailing dot', text: '1.' },
  { name: 'leading dot', text: '.5' },
  { name: 'empty exponent', text: '1e' },
  { name: 'exponent sign only', text: '1e+' },
  { name: 'hex number', text: '0x10' },
  { name: 'NaN', text: 'NaN' },
  { name: 'Infinity', text: 'Infinity' },
  { name: '-Infinity', text: '[-Infinity]' },
  { name: 'undefined', text: 'undefined' },
  { name: 'truncated literal', text: 'nul' },
  { name: 'capitalized literal', text: 'True' },
  { name: 'single-quoted string', text: "'a'" },
  { name: 'single-quoted key', text: "{'a':1}" },
  { name: 'unquoted key', text: '{a:1}' },
  { name: 'trailing comma in an array', text: '[1,2,]' },
  { name: 'trailing comma in an object', text: '{"a":1,}' },
  { name: 'leading comma', text: '[,1]' },
  { name: 'double comma', text: '[1,,2]' },
  { name: 'comma only', text: '[,]' },
  { name: 'object comma only', text: '{,}' },
  { name: 'missing comma', text: '[1 2]' },
  { name: 'missing comma between members', text: '{"a":1 "b":2}' },
  { name: 'missing colon', text: '{"a" 1}' },
  { name: 'missing value', text: '{"a":}' },
  { name: 'key without value', text: '{"a"}' },
  { name: 'number as key', text: '{1:1}' },
  { name: 'array as key', text: '{[]:1}' },
  { name: 'unclosed array', text: '[1,2' },
  { name: 'unclosed object', text: '{"a":1' },
  { name: 'unclosed nested', text: '[[1]' },
  { name: 'extra closing bracket', text: '[1]]' },
  { name: 'mismatched brackets', text: '[1}' },
  { name: 'mismatched braces', text: '{"a":1]' },
  { name: 'lone closing bracket', text: ']' },
  { name: 'unterminated string', text: '"abc' },
  { name: 'unterminated string in an array', text: '["abc]' },
  { name: 'escaped closing quote', text: '"abc\\"' },
  { name: 'bad escape', text: '"\\x41"' },
  { name: 'short unicode escape', text: '"\\u12"' },
  { name: 'bad unicode escape', text: '"\\u12G4"' },
  { name: 'escaped single quote', text: '"\\\'"' },
  { name: 'raw tab in a string', text: '"a\tb"' },
  { name: 'raw newline in a string', text: '["a\nb"]' },
  { name: 'raw NUL in a string', text: '"\u0000"' },
  { name: 'raw U+001F in a key', text: '{"\u001f":1}' },
  { name: 'trailing garbage', text: '[1] x' },
  { name: 'two values', text: '1 2' },
  { name: 'two objects', text: '{} {}' },
  { name: 'trailing NUL', text: '[1,2]\u0000' },
  // The same faults far into large texts, where a batch or a piece after the first one meets them.
  lazy('trailing comma at the end of a large array', () => `[${repeat(200000, (i) => i).join(',')},]`),
  lazy('double comma deep in a large array', () => `[${repeat(200000, (i) => (i === 150000 ? ',' : i)).join(',')}]`),
  lazy('bad number deep in a large array', () => `[${repeat(200000, (i) => (i === 190000 ? '01' : i)).join(',')}]`),
  lazy('unclosed large array', () => `[${repeat(200000, (i) => `"s${i}"`).join(',')}`),
  lazy('large array closed by a brace', () => `[${repeat(200000, (i) => i).join(',')}}`),
  lazy('large object closed by a bracket', () => `{${repeat(100000, (i) => `"k${i}":${i}`).join(',')}]`),
  lazy('trailing comma in a large object', () => `{${repeat(100000, (i) => `"k${i}":${i}`).join(',')},}`),
  lazy('missing colon deep in a large object', () => `{${repeat(100000, (i) => (i === 99000 ? `"k${i}" ${i}` : `"k${i}":${i}`)).join(',')}}`),
  lazy('unquoted key deep in a large object', () => `{${repeat(100000, (i) => (i === 70000 ? `k${i}:${i}` : `"k${i}":${i}`)).join(',')}}`),
  lazy('garbage after a large document', () => `[${repeat(200000, (i) => i).join(',')}] ,`),
  lazy('second value after a large document', () => `{"a":[${repeat(200000, (i) => i).join(',')}]} {}`),
  lazy('unterminated long string', () => `["${'x'.repeat(3000000)}`),
  lazy('bad escape deep in a long string', () => `"${'ab\\n'.repeat(500000)}\\q${'c'.repeat(100)}"`),
  lazy('raw control character deep in a long string', () => `["${'ab\\u0041'.repeat(300000)}\u0001${'c'.repeat(100000)}"]`),
  lazy('raw control character deep in a long string without escapes', () => `["${'abc'.repeat(1000000)}\u001f${'c'.repeat(100000)}"]`),
  lazy('raw tab at the end of a long string without escapes', () => `"${'abc'.repeat(1000000)}\t"`),
  lazy('short unicode escape at the end of a long string', () => `"${'z'.repeat(2000000)}\\u12"`),
  lazy('long string escaping its own closing quote', () => `"${'z'.repeat(2000000)}\\"`),
  lazy('unclosed nesting, 10k levels', () => '['.repeat(10000) + ']'.repeat(9999)),
  lazy('mismatched close deep in nesting', () => `${'['.repeat(50000)}1${']'.repeat(25000)}}${']'.repeat(24999)}`),
  lazy('unclosed huge element', () => `[1,{"x":[${repeat(200000, (i) => i).join(',')}]`),
  lazy('bracket missing deep in a bushy tree of tricky strings', () => {
    const text = trickyBushyText();
    const at = text.indexOf(']},', Math.floor(text.length * 0.7));
    return text.slice(0, at) + text.slice(at + 1);
  }),
  lazy('trailing comma inside a huge element', () => `[1,{"x":[${repeat(200000, (i) => i).join(',')},]},2]`),
];

/** The JSON.stringify output of every torture-corpus case that has one (built on call: some cases are large). */
function tortureTexts() {
  const texts = [];
  for (const testCase of tortureCases) {
    let text;
    try {
      text = JSON.stringify(testCase.make());
    } catch (error) {
      if (testCase.text && error instanceof RangeError) text = testCase.text(); // past native's stack
    }
    if (typeof text === 'string') texts.push({ name: `torture: ${testCase.name}`, text });
  }
  return texts;
}

module.exports = { valid, invalid, tortureTexts, randomText, textOf, firstDifference };
