'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { parse, parseChunks, AbortError, MAX_BATCH_CHARS } = require('../fast-parse');
const fastStringify = require('../fast-stringify');
const { maxSliceChars } = require('@lab/loop-kit/slices');
const { valid, invalid, tortureTexts, randomText, firstDifference } = require('../conformance/parse-corpus');
const { abortAfterYields } = require('./abort-after-yields');
const { shapes } = require('../conformance/torture-corpus');
const { generate } = require('@lab/payloads');
const { countWork } = require('./work-counts');

// Slices so thin that every batch, piece and descent boundary is crossed; one step per slice for short texts.
const THIN_MS = 0.05;
const ONE_STEP_MS = 1e-9;
const ONE_STEP_MAX_CHARS = 50000;

// Responsiveness is the feature, so it is asserted, as a property no machine's speed or load can break: the work of
// one slice, in characters, stays within what the module promises for its yieldMs (a batch may end a quarter past
// its target; a long string's smallest piece is 4 Ki characters). The times are the benchmark's
// (bench/fast-parse-bench.js). A key is never cut: a text whose longest key is longer than a slice may exceed it by
// that key.
const sliceBound = (yieldMs) => Math.ceil(maxSliceChars(yieldMs) * 1.25) + 4096;
const LONGEST_KEY = { 'long key': 400000 };

async function settle(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

function assertSame(actual, expected, what) {
  const difference = firstDifference(actual, expected);
  assert.ok(difference === null, `${what}: differs from JSON.parse at ${difference}`);
}

/**
 * parse() equals JSON.parse on text, with default slices, thin slices and (short texts) one step per slice, and no
 * slice handles more characters than promised.
 */
async function checkValid(name, text) {
  const expected = JSON.parse(text);
  const settings = [{ yieldMs: 5 }, { yieldMs: THIN_MS }];
  if (text.length <= ONE_STEP_MAX_CHARS) settings.push({ yieldMs: ONE_STEP_MS });
  for (const options of settings) {
    const stats = {};
    const outcome = await settle(parse(text, Object.assign({ stats }, options)));
    if (outcome.error) throw new Error(`${name} (yieldMs ${options.yieldMs}): ${outcome.error.stack}`);
    assertSame(outcome.value, expected, `${name} (yieldMs ${options.yieldMs})`);
    assert.ok(stats.nativeCalls >= 0 && stats.yields >= 0 && stats.maxSliceMs >= 0, `${name}: stats not filled in`);
    const bound = sliceBound(options.yieldMs) + (LONGEST_KEY[name] || 0);
    assert.ok(stats.maxSliceChars <= bound, `${name} (yieldMs ${options.yieldMs}): a slice handled ${stats.maxSliceChars} characters, more than ${bound}`);
  }
}

async function checkInvalid(name, text) {
  assert.throws(() => JSON.parse(text), SyntaxError, `the corpus calls "${name}" invalid, native accepts it`);
  const settings = [{}, { yieldMs: THIN_MS }];
  if (text.length <= ONE_STEP_MAX_CHARS) settings.push({ yieldMs: ONE_STEP_MS });
  for (const options of settings) {
    const outcome = await settle(parse(text, options));
    assert.ok(outcome.error !== undefined, `${name} (yieldMs ${options.yieldMs}): accepted an invalid text`);
    assert.ok(outcome.error instanceof SyntaxError, `${name}: ${outcome.error && outcome.error.stack}`);
  }
}

for (const testCase of valid) {
  test(`parse equals JSON.parse, in bounded slices: ${testCase.name}`, async () => {
    await checkValid(testCase.name, testCase.text); // read once: large cases are getters
  });
}

for (const testCase of invalid) {
  test(`parse rejects with a SyntaxError: ${testCase.name}`, async () => {
    await checkInvalid(testCase.name, testCase.text);
  });
}

test('the JSON.stringify output of every torture-corpus case parses as native does', async () => {
  for (const testCase of tortureTexts()) await checkValid(testCase.name, testCase.text);
});

test('random documents with random whitespace parse as native does', async () => {
  for (let seed = 1; seed <= 20; seed++) await checkValid(`random document ${seed}`, randomText(seed, 3000));
});

test('syntax errors far into a large text name a position near the fault', async () => {
  const cases = [
    { text: `[${Array.from({ length: 200000 }, (_, i) => (i === 190000 ? '01' : i)).join(',')}]`, fault: ',01,' },
    { text: `{${Array.from({ length: 100000 }, (_, i) => (i === 99000 ? `"k${i}" ${i}` : `"k${i}":${i}`)).join(',')}}`, fault: ' 99000' },
    { text: `"${'ab\\n'.repeat(500000)}\\q"`, fault: '\\q' },
    { text: `[${'1,'.repeat(300000)}1] x`, fault: ' x' },
    // In a member before a level's large one, deep in a tree: parsed by a batch that ends where a scan saw a comma.
    { text: JSON.stringify(shapes.deepTree(1000, 50)).replace('"label":"node 300"', '"label" "node 300"'), fault: ' "node 300"' },
  ];
  for (const { text, fault } of cases) {
    const error = (await settle(parse(text))).error;
    assert.ok(error instanceof SyntaxError, String(error));
    const match = /position (\d+)/.exec(error.message);
    assert.ok(match !== null, `no position in "${error.message}"`);
    const expected = text.indexOf(fault) + 1;
    assert.ok(Math.abs(Number(match[1]) - expected) <= 2, `"${error.message}": the fault is at ${expected}`);
  }
});

test('an array of more children than a slice copies is assembled over slices, whatever its children\'s kinds', async () => {
  // Past the slice's characters (64 Ki at this yieldMs) the batches are copied by a loop into an array made for the
  // first child: doubles, small integers that a double follows, objects after a number, nested arrays.
  const count = 100000;
  const arrays = {
    doubles: Array.from({ length: count }, (_, i) => i + 0.5),
    'integers, then a double': Array.from({ length: count }, (_, i) => (i === count - 1 ? 0.25 : i)),
    'a number, then objects': Array.from({ length: count }, (_, i) => (i === 0 ? 1 : { i })),
    arrays: Array.from({ length: count }, (_, i) => [i]),
  };
  for (const [name, array] of Object.entries(arrays)) {
    const text = JSON.stringify(array);
    const stats = {};
    assertSame(await parse(text, { yieldMs: 0.05, stats }), JSON.parse(text), name);
    assert.ok(stats.maxSliceChars <= sliceBound(0.05), `${name}: a slice handled ${stats.maxSliceChars} characters`);
  }
});

const bigText = () => JSON.stringify(generate({ document: 'records', seed: 1, size: 10000 })); // ~19.8 MB

test('the 20 MB records document parses as native does, in slices bounded in characters', async () => {
  const text = bigText();
  const expected = JSON.parse(text);
  const stats = {};
  const value = await parse(text, { stats, yieldMs: 5 });
  assertSame(value, expected, 'records');
  assert.ok(stats.yields > 3 && stats.nativeCalls > 3 && stats.maxSliceMs > 0, JSON.stringify(stats));
  assert.ok(stats.maxSliceChars <= sliceBound(5), `a slice handled ${stats.maxSliceChars} characters (${JSON.stringify(stats)})`);
  assert.ok(stats.maxSliceChars < text.length / 3, `a slice handled ${stats.maxSliceChars} of ${text.length} characters`);
});

/** fn()'s result, with watch(piece) called on every text handed to JSON.parse meanwhile; JSON.parse restored after. */
async function watchingJsonParse(watch, fn) {
  const nativeParse = JSON.parse;
  JSON.parse = (piece) => {
    watch(piece);
    return nativeParse(piece);
  };
  try {
    return await fn();
  } finally {
    JSON.parse = nativeParse;
  }
}

test('no text handed to JSON.parse is longer than a batch, so that its copy is never a large object', async () => {
  // V8's largest regular object is 128 KB: 64 Ki characters of two-byte text (the records have non-ASCII strings).
  // Past it a copy is a large object, on fresh pages of its own, the cost MAX_BATCH_CHARS avoids.
  const bound = (128 * 1024) / 2 - 16;
  const texts = {
    records: JSON.stringify(generate({ document: 'records', seed: 2, size: 1000 })),
    'pretty-printed records': JSON.stringify(generate({ document: 'records', seed: 3, size: 1000 }), null, 2),
    'a long string': JSON.stringify({ body: 'plain text '.repeat(100000), escaped: 'a "quote" \\ \u00e9\n'.repeat(20000) }),
  };
  for (const [name, text] of Object.entries(texts)) {
    let longest = 0;
    // A slice of 1 ms handles 1 Mi characters at most (loop-kit/slices.js): every text here is longer, so it is sliced
    // whatever rate the parses before taught (a text of their kind that fits a slice is read whole).
    const value = await watchingJsonParse((piece) => {
      longest = Math.max(longest, piece.length);
    }, () => parse(text, { yieldMs: 1 }));
    assertSame(value, JSON.parse(text), name);
    assert.ok(longest > 0 && longest <= bound, `${name}: JSON.parse got ${longest} characters at once, more than ${bound}`);
  }
});

test('an object of large members is parsed member by member from slices; a brace in a string wastes a member\'s and a batch\'s parse at most', async () => {
  // 1.4 MB of members of about 3 KB (past MEMBER_ALONE_CHARS), two of them with unbalanced braces in a string (the count of
  // braces is wrong there: native rejects the slice, and the usual batch, whose bracket count may be wrong there too,
  // is parsed again after a scan), a repeated key (its first position,
  // its last value, as native), "__proto__" (an own property) and a key with escapes (parsed natively).
  const member = (i) => {
    const value = {};
    for (let j = 0; j < 40; j++) value[`field_${j}`] = `value ${i} ${j} ${'x'.repeat(40)}`;
    if (i === 50) value.note = 'syntax: f({a}, {b}}';
    if (i === 150) value.note = '{ opened only';
    return JSON.stringify(value);
  };
  const members = [];
  for (let i = 0; i < 500; i++) members.push(`${JSON.stringify(i === 120 ? 'key 10' : i === 200 ? '__proto__' : i === 300 ? 'an "escaped" key' : `key ${i}`)}: ${member(i)}`);
  const text = `{${members.join(',\n')}}`;
  let chars = 0;
  let alone = 0;
  const value = await watchingJsonParse((piece) => {
    chars += piece.length;
    if (piece.charCodeAt(0) === 0x7b && piece.startsWith('{"field_0"')) alone++;
  }, () => parse(text, { yieldMs: 1 })); // sliced whatever the rate learnt: longer than a slice of 1 ms handles
  assertSame(value, JSON.parse(text), 'large members');
  assert.ok(Object.prototype.hasOwnProperty.call(value, '__proto__'), '"__proto__" is not an own property');
  assert.ok(alone > 100, `only ${alone} members parsed alone`);
  // Each of the two braces: a member's slice and a batch of the usual path rejected, and the keys of members the usual
  // path walks (a frame each) parsed natively.
  const waste = 2 * (Math.max(...members.map((m) => m.length)) + Math.ceil(MAX_BATCH_CHARS * 1.25)) + 16 * members.length;
  assert.ok(chars <= text.length + waste, `native read ${chars} characters of a text of ${text.length}: more than ${waste} wasted`);
});

/** fn()'s result, with the calls of String.prototype.indexOf that search for `character` counted; restored after. */
async function countingSearches(character, fn) {
  const nativeIndexOf = String.prototype.indexOf;
  const counted = { calls: 0 };
  String.prototype.indexOf = function indexOf(search, from) {
    if (search === character) counted.calls++;
    return nativeIndexOf.call(this, search, from);
  };
  try {
    return { value: await fn(), calls: counted.calls };
  } finally {
    String.prototype.indexOf = nativeIndexOf;
  }
}

/**
 * An object of `count` members of 3-5 KB each (printed with tabs or two spaces), nested objects and arrays; with
 * bracesInStrings, some of its strings hold braces and "\n  }" (escaped, as JSON writes a line break in a string).
 */
function largeMembers(count, bracesInStrings) {
  const doc = {};
  for (let i = 0; i < count; i++) {
    const fields = {};
    const example = bracesInStrings ? `value ${i} {\n  }` : `value ${i}`;
    for (let j = 0; j < 20; j++) fields[`field_${j}`] = { type: 'string', example, enum: [j, bracesInStrings ? '}' : 'x', { deep: [j] }] };
    doc[`key ${i}`] = { fields, tags: [`tag ${i}`, bracesInStrings ? '{' : 'y'], empty: {}, none: [] };
  }
  return doc;
}

test('a pretty-printed object of large members finds each member\'s close by its layout; a text laid out otherwise parses alike', async () => {
  const doc = largeMembers(400, false);
  const braces = (text) => text.split('{').length - 1;
  // A slice of 1 ms handles 1 Mi characters at most: every text here is longer, so it is sliced, members apart. The
  // batches are sized from the clock, so that how many members go alone would follow the machine's load: the
  // work-count guard's clock (test/work-counts.js), which advances with the counted work, makes it the same on any
  // machine.
  const slicedParse = (text) => async () => {
    let value;
    await countWork(require.resolve('../fast-parse'), async () => {
      value = await parse(text, { yieldMs: 1 });
    });
    return value;
  };
  for (const [name, text] of [
    ['two spaces', JSON.stringify(doc, null, 2)],
    ['tabs', JSON.stringify(doc, null, '\t')],
    ['CRLF line ends', JSON.stringify(doc, null, 2).replace(/\n/g, '\r\n')],
    // A count of brackets, blind to strings, goes wrong at every member here: the layout does not.
    ['braces in strings', JSON.stringify(largeMembers(400, true), null, 2)],
  ]) {
    let alone = 0;
    const { value, calls } = await countingSearches('{', () => watchingJsonParse((piece) => {
      if (piece.startsWith('{') && piece.includes('"fields"') && piece.endsWith('}')) alone++;
    }, slicedParse(text)));
    assertSame(value, JSON.parse(text), name);
    assert.ok(alone > 200, `${name}: only ${alone} members parsed alone`);
    // Counting brackets searches every opening brace of a member; its layout, none. The batches before the members'
    // size is known search some.
    assert.ok(calls < braces(text) / 10, `${name}: ${calls} searches for an opening brace in a text of ${braces(text)}`);
  }
  // Laid out otherwise: one member's closing brace indented as its fields are, so that its layout leads to the next
  // member's close (native rejects that slice), then members written on one line. The brackets are counted from then on.
  const misleading = JSON.stringify(doc, null, 2).replace(/\n {2}\},\n {2}"key 100"/, '\n    },\n  "key 100"');
  const oneLine = Object.keys(doc).map((key) => `${JSON.stringify(key)}: ${JSON.stringify(doc[key])}`).join(',\n  ');
  for (const [name, text] of [
    ['a close indented as its fields', misleading],
    ['members on one line each', `{\n  ${oneLine}\n}`],
  ]) {
    assert.notStrictEqual(text, JSON.stringify(doc, null, 2), `${name}: the layout was not changed`);
    assertSame(await parse(text, { yieldMs: 1 }), JSON.parse(text), name);
  }
});

test('an object parsed whole from a slice (fast-parse/whole.js) is walked instead when a brace in a string misleads its count', async () => {
  // An icon set's aliases, 2000 objects of one member (68 K characters: walked, past what a batch holds), after 10 000
  // icons (5.4 M characters: past what a slice reads whole, whatever the parses before taught); one alias' parent
  // names a brace. The clock is the work-count guard's
  // (modelled, the same on any machine), so that the count is tried: the whole parse is asked of native, rejected, and
  // the aliases are walked (a batch of the walk may end where the count did, and hold the same text).
  const { iconSet } = require('../bench/record-families');
  for (const brace of ['}', '{', '']) {
    const doc = iconSet(10000, 200, 800, 66);
    doc.aliases = {};
    for (let i = 0; i < 2000; i++) doc.aliases[`alias-${i}`] = { parent: i === 1000 ? `icon ${brace} ${i}` : `icon-${i}` };
    const text = JSON.stringify(doc);
    assert.ok(text.length > maxSliceChars(5), `${text.length} characters: a slice of 5 ms could read them whole`);
    const open = text.indexOf('{"alias-0"');
    // A batch of the walk is a copy, `{` and its members and `}`: the first ends before a comma, which it does not hold.
    const fromText = (piece) => piece.startsWith('{"alias-0"') && text.startsWith(piece, open);
    let whole = 0;
    let value;
    // Watched outside the counting (which wraps the watch), so that the modelled clock counts each native call.
    await watchingJsonParse((piece) => {
      if (fromText(piece)) whole++;
    }, () => countWork(require.resolve('../fast-parse'), async () => {
      value = await parse(text, { yieldMs: 5 });
    }));
    assertSame(value, JSON.parse(text), `aliases with "${brace}"`);
    assert.ok(whole >= 1, `the aliases with "${brace}" were not asked of native whole`);
  }
});

test('no slice runs in the caller\'s turn of the loop, so the caller\'s own work and the first slice are two blocks', async () => {
  const text = JSON.stringify(generate({ document: 'records', seed: 4, size: 200 }));
  const stats = {};
  const pending = parse(text, { stats, yieldMs: THIN_MS });
  for (let i = 0; i < 50; i++) await null; // promises alone never give the loop a turn
  assert.strictEqual(stats.chars, 0, JSON.stringify(stats));
  assertSame(await pending, JSON.parse(text), 'records in thin slices');
});

test('a text native reads within one slice is read whole in the caller\'s turn: no second slice to share it with', async () => {
  const stats = {};
  const pending = parse('[1,2,3]', { stats });
  assert.deepStrictEqual(stats, { yields: 0, nativeCalls: 1, maxSliceMs: stats.maxSliceMs, chars: 7, maxSliceChars: 7 });
  assert.deepStrictEqual(await pending, [1, 2, 3]);
  await assert.rejects(parse('[1,2', { stats }), SyntaxError); // native's own error
});

test('abort rejects with AbortError at the next slice boundary, and no work is done after it', async () => {
  const text = bigText();
  const controller = new AbortController();
  const stats = {};
  const atAbort = abortAfterYields(controller, stats, 2);
  // A real AbortSignal has a reason (a DOMException named AbortError): it is what parse rejects with.
  await assert.rejects(parse(text, { signal: controller.signal, stats }), (error) => error === controller.signal.reason && error.name === 'AbortError');
  const { chars, nativeCalls } = await atAbort;
  assert.strictEqual(stats.chars, chars, 'characters were parsed after the abort');
  assert.strictEqual(stats.nativeCalls, nativeCalls, 'native parsing went on after the abort');
  assert.ok(chars < text.length, 'the abort came before the end');
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.strictEqual(stats.nativeCalls, nativeCalls, 'native parsing went on after the rejection');
  assert.strictEqual(AbortError, fastStringify.AbortError, 'one AbortError for both modules');
});

test('abort uses the signal reason, and an aborted signal does no work at all', async () => {
  const reason = new Error('stop now');
  const controller = new AbortController();
  controller.abort(reason);
  const stats = {};
  await assert.rejects(parse('[1,2,3]', { signal: controller.signal, stats }), (error) => error === reason);
  assert.strictEqual(stats.nativeCalls, 0);
  await assert.rejects(parse('[1]', { signal: { aborted: true } }), (error) => error instanceof AbortError); // no reason
  await assert.rejects(parseChunks(['[1]'], { signal: AbortSignal.abort() }), { name: 'AbortError' });
});

test('concurrent parses do not interfere', async () => {
  const texts = [
    ...[11, 12, 13].map((seed) => JSON.stringify(generate({ document: 'records', seed, size: 800 }))),
    JSON.stringify(generate({ document: 'objects', seed: 2, size: 1500 }), null, 1),
    ...['wide object, 100k keys with escapes', 'long string with escapes and unicode (4 MB)', 'big array of numbers in every form',
      'huge member between small ones', 'nested arrays, 10k levels'].map((name) => valid.find((c) => c.name === name).text),
  ];
  const values = await Promise.all(texts.map((text, i) => parse(text, { yieldMs: 1 + (i % 3) })));
  values.forEach((value, i) => assertSame(value, JSON.parse(texts[i]), `document ${i}`));
});

test('a text that is not a string is converted as JSON.parse converts it', async () => {
  await assert.rejects(parse(undefined), SyntaxError); // the text "undefined"
  assert.strictEqual(await parse(42), 42);
  assert.strictEqual(await parse(null), null);
  assert.strictEqual(await parse(true), true);
  assert.deepStrictEqual(await parse({ toString: () => '[1,{"a":2}]' }), [1, { a: 2 }]);
  assert.deepStrictEqual(await parse(Buffer.from('{"b":[true]}')), { b: [true] });
  await assert.rejects(parse(Symbol('s')), TypeError);
});

test('parseChunks takes strings and UTF-8 bytes, split anywhere', async () => {
  const text = JSON.stringify({ s: 'é€😀'.repeat(5000), list: Array.from({ length: 3000 }, (_, i) => ({ i })) });
  const expected = JSON.parse(text);
  const pieces = (list, size) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
  assertSame(await parseChunks(pieces(text, 777)), expected, 'string chunks');
  const bytes = Buffer.from(text);
  assertSame(await parseChunks(pieces(bytes, 1001)), expected, 'Buffer chunks split inside characters');
  async function* slowly() {
    for (const piece of pieces(new Uint8Array(bytes), 4096)) {
      await new Promise((resolve) => setImmediate(resolve));
      yield piece;
    }
  }
  const stats = {};
  assertSame(await parseChunks(slowly(), { stats }), expected, 'async iterable of Uint8Arrays');
  assert.ok(stats.nativeCalls > 0);
  await assert.rejects(parseChunks(['[1,', '2,]']), SyntaxError);
  await assert.rejects(parseChunks([1, 2]), TypeError);
});

test('options are validated', async () => {
  await assert.rejects(parse('1', { yieldMs: 0 }), RangeError);
  await assert.rejects(parse('1', { yieldMs: 'fast' }), RangeError);
  await assert.rejects(parse('1', { signal: {} }), TypeError);
  await assert.rejects(parse('1', { stats: 3 }), TypeError);
});

test('the corpus is run on Node 14 too, when that runtime is installed', (t) => {
  const node14 = path.join(__dirname, '../../.runtimes/node-14.21.3/bin/node');
  if (!fs.existsSync(node14)) return t.skip(`no Node 14 runtime at ${node14}`);
  const script = `
    const { parse } = require(${JSON.stringify(path.join(__dirname, '../fast-parse'))});
    const corpus = require(${JSON.stringify(path.join(__dirname, '..', 'conformance', 'parse-corpus'))});
    (async () => {
      const failures = [];
      const texts = corpus.valid.concat(corpus.tortureTexts());
      for (let seed = 1; seed <= 10; seed++) texts.push({ name: 'random ' + seed, text: corpus.randomText(seed, 3000) });
      for (const c of texts) {
        const text = c.text;
        for (const yieldMs of text.length > 200000 ? [5] : [5, ${THIN_MS}]) {
          try {
            const difference = corpus.firstDifference(await parse(text, { yieldMs }), JSON.parse(text));
            if (difference !== null) failures.push(c.name + ' differs at ' + difference);
          } catch (e) { failures.push(c.name + ' threw ' + e.message.slice(0, 200)); }
        }
      }
      for (const c of corpus.invalid) {
        const text = c.text;
        let nativeAccepts = true;
        try { JSON.parse(text); } catch (e) { nativeAccepts = false; }
        if (nativeAccepts) failures.push(c.name + ' is accepted by native');
        for (const yieldMs of text.length > 200000 ? [5] : [5, ${THIN_MS}]) {
          try { await parse(text, { yieldMs }); failures.push(c.name + ' accepted'); }
          catch (e) { if (!(e instanceof SyntaxError)) failures.push(c.name + ' threw a ' + e.constructor.name); }
        }
      }
      process.stdout.write(JSON.stringify({ version: process.version, cases: texts.length + corpus.invalid.length, failures }));
    })();`;
  const report = JSON.parse(execFileSync(node14, ['-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 }));
  assert.strictEqual(report.version, 'v14.21.3');
  assert.ok(report.cases > 150, `only ${report.cases} cases`);
  assert.deepStrictEqual(report.failures, []);
});
