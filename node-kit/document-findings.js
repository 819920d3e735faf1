'use strict';
// What in a user's JSON document runtimes may treat differently (issue 36): a finding is not a refusal, the document
// is stored and runs; PUT /documents says what THIS runtime does with each (CONTRACT.md, "Findings"). One pass over
// a text JSON.parse has already accepted, bounded work per character: a JSON pointer is built only for a topic's
// first instance (five at most), a key is decoded once to compare it with its object's others. Node 14 syntax.

const TOPICS = ['large-integer', 'negative-zero', 'duplicate-key', 'lone-surrogate', 'number-format'];

// What JSON.parse and JSON.stringify do with each, the same on every Node line the lab runs (14 and 24: V8 has
// written lone surrogates as \u escapes since 7.2, "well-formed JSON.stringify"); checked by document-findings.test.js.
const NODE_DETAILS = {
  'large-integer': 'JSON.parse rounds the integer to the nearest double (a JS number), so a run carries that double and writes it back as its shortest digits, not the digits sent',
  'negative-zero': 'JSON.parse reads -0 as the number -0, and JSON.stringify writes it back as 0',
  'duplicate-key': "JSON.parse keeps the last member's value, in the place of the first member of that name; the others are gone",
  'lone-surrogate': 'JSON.parse keeps the unpaired code unit in the string, and JSON.stringify writes it back as the same \\u escape (as UTF-8 bytes it would become U+FFFD)',
  'number-format': 'JSON.parse reads the value alone, and JSON.stringify writes it back in its shortest form (1.0 as 1, 1e2 as 100); a number past the double range (1e400) becomes Infinity, which JSON.stringify writes as null',
};

const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

/** True for the text of an integer (no fraction, no exponent) beyond ±(2^53 − 1). */
function beyondSafe(token) {
  const digits = token[0] === '-' ? token.slice(1) : token;
  return digits.length > MAX_SAFE_DIGITS.length || (digits.length === MAX_SAFE_DIGITS.length && digits > MAX_SAFE_DIGITS);
}

/** The topic of a number's text, or null. One topic per number: the first that applies. */
function numberTopic(token) {
  const integer = !/[.eE]/.test(token);
  if (integer && beyondSafe(token)) return 'large-integer';
  const value = Number(token);
  if (value === 0 && token[0] === '-') return 'negative-zero';
  return JSON.stringify(value) === token ? null : 'number-format';
}

const isHigh = (unit) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Reads the string starting at the quote at `start`: {end (after the closing quote), text (decoded, only when
 * `decode`), lone (an unpaired surrogate in it)}.
 */
function readString(text, start, decode) {
  let i = start + 1;
  let pendingHigh = false;
  let lone = false;
  let decoded = '';
  for (;;) {
    let unit = text.charCodeAt(i);
    if (unit === 0x22) break;
    if (unit === 0x5c) {
      const escape = text[i + 1];
      if (escape === 'u') {
        unit = parseInt(text.slice(i + 2, i + 6), 16);
        i += 6;
      } else {
        unit = ({ b: 8, f: 12, n: 10, r: 13, t: 9 })[escape] || escape.charCodeAt(0);
        i += 2;
      }
    } else i++;
    if (pendingHigh && !isLow(unit)) lone = true;
    else if (!pendingHigh && isLow(unit)) lone = true;
    pendingHigh = !pendingHigh && isHigh(unit);
    if (decode) decoded += String.fromCharCode(unit);
  }
  return { end: i + 1, text: decoded, lone: lone || pendingHigh };
}

const pointerToken = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The findings of a JSON text that JSON.parse accepts: [{topic, path, count}] in TOPICS' order, path the JSON
 * pointer of the first instance (of a duplicate key: its second member), count the instances.
 */
function scanFindings(text) {
  const found = new Map();
  // One frame per open container: {object, index (array) or key (object, the current member's), keys (the object's)}.
  const stack = [];
  let expectKey = false;
  const pointer = (extra) => stack.map((f) => `/${pointerToken(f.object ? f.key : f.index)}`).join('') + (extra === undefined ? '' : `/${pointerToken(extra)}`);
  const note = (topic, extra) => {
    const known = found.get(topic);
    if (known) known.count++;
    else found.set(topic, { topic, path: pointer(extra), count: 1 });
  };
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c === '{' ? { object: true, key: '', keys: new Set() } : { object: false, index: 0 });
      expectKey = c === '{';
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
      i++;
    } else if (c === ',') {
      const frame = stack[stack.length - 1];
      if (frame.object) expectKey = true;
      else frame.index++;
      i++;
    } else if (c === '"') {
      const key = expectKey;
      const string = readString(text, i, key);
      if (key) {
        const frame = stack[stack.length - 1];
        frame.key = string.text;
        if (frame.keys.has(string.text)) note('duplicate-key');
        frame.keys.add(string.text);
        expectKey = false;
      }
      if (string.lone) note('lone-surrogate');
      i = string.end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let end = i + 1;
      while (end < text.length && /[0-9.eE+-]/.test(text[end])) end++;
      const topic = numberTopic(text.slice(i, end));
      if (topic) note(topic);
      i = end;
    } else i++; // whitespace, ':' and the letters of true, false and null
  }
  return TOPICS.filter((t) => found.has(t)).map((t) => found.get(t));
}

/** The findings with `detail` from details ({topic: words}: what the runtime answering does with each). */
const describeFindings = (findings, details) => findings.map((f) => Object.assign({}, f, { detail: details[f.topic] }));

module.exports = { scanFindings, describeFindings, TOPICS, NODE_DETAILS };
