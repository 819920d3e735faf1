'use strict';
// One pass over a JSON text, as RFC 8259 reads it, that can stop after any number of characters and go on later: the
// lab's one reading of a user's document before anything parses it. It finds where the text first stops being JSON
// (the same place and words as JSON.parse's refusal, but on every Node line: json-syntax-error.js), how deep it
// nests, how many values of each kind it holds (what a runtime's value of it costs: document-memory.js), and its
// findings (document-findings.js). Work is bounded per character: a string is read once (a key is decoded to compare
// it with its object's others), a number's text is looked at once it ends, a JSON pointer is built only for a
// topic's first instance; containers nested past `framesDepth` keep one byte each (their kind), so a text of nothing
// but `[` cannot make the scan hold more than its own length. Node 14 syntax.

const TOPICS = ['large-integer', 'negative-zero', 'duplicate-key', 'lone-surrogate', 'number-format'];
const ESCAPES = { '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 8, f: 12, n: 10, r: 13, t: 9 };
// What is expected next.
const VALUE = 0;
const VALUE_OR_CLOSE = 1;
const KEY = 2;
const KEY_OR_CLOSE = 3;
const COLON = 4;
const COMMA_OR_CLOSE = 5;
const END = 6;
const OBJECT = 1;
const ARRAY = 2;
// A number's text is compared with its shortest form only up to this length: longer, it cannot be one (a double's
// shortest form has at most 25 characters), and Number() of a 60 MB digit string would be a block of its own.
const SHORT_NUMBER_CHARS = 400;
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

const isSpace = (c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c) => c >= 0x30 && c <= 0x39;
const isHex = (c) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isHigh = (unit) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit) => unit >= 0xdc00 && unit <= 0xdfff;
const pointerToken = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** 'x' for a visible character, U+0001 for any other. */
function describe(ch) {
  const code = ch.charCodeAt(0);
  return code > 0x20 && code < 0x7f ? `'${ch}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** True for the text of an integer (no fraction, no exponent) beyond ±(2^53 − 1). */
function beyondSafe(token) {
  const digits = token[0] === '-' ? token.slice(1) : token;
  return digits.length > MAX_SAFE_DIGITS.length || (digits.length === MAX_SAFE_DIGITS.length && digits > MAX_SAFE_DIGITS);
}

/** The topic of a number's text, or null. One topic per number: the first that applies. */
function numberTopic(token) {
  const integer = !/[.eE]/.test(token);
  if (integer && beyondSafe(token)) return 'large-integer';
  if (token.length > SHORT_NUMBER_CHARS) {
    // Not an integer: zero when every digit of its mantissa is, whatever its exponent.
    const zero = !/[1-9]/.test(token.split(/[eE]/)[0]);
    return zero && token[0] === '-' ? 'negative-zero' : 'number-format';
  }
  const value = Number(token);
  if (value === 0 && token[0] === '-') return 'negative-zero';
  return JSON.stringify(value) === token ? null : 'number-format';
}

class JsonTextScan {
  /**
   * text: the JSON text. framesDepth: how deep the findings follow the document (deeper containers are checked for
   * syntax and depth only: a service refuses such a document anyway); Infinity by default.
   */
  constructor(text, { framesDepth = Infinity } = {}) {
    this.text = text;
    this.at = 0; // the next character to read
    this.expect = VALUE;
    this.kinds = new Uint8Array(64); // OBJECT or ARRAY of each open container, outermost first
    this.depth = 0;
    this.deepest = 0;
    this.framesDepth = framesDepth;
    this.frames = []; // the findings' view of the open containers up to framesDepth: {object, key | index, keys}
    this.counts = { objects: 0, arrays: 0, members: 0, strings: 0, scalars: 0 };
    // Σ over strings and keys of escapes × length: what a reader that rebuilds a string at each of its escapes does
    // (yieldable-json's parse, quadratic: a service bounds it, js-serializers/parse-approaches.js).
    this.escapeWork = 0;
    this.found = new Map(); // topic -> {topic, path, count}
    this.error = null; // {offset, what}
    this.token = null; // the string or number being read (one of the two below), across calls of step() if need be
    this.stringToken = { string: true, key: false, start: 0, decoded: null, pieceFrom: 0, pendingHigh: false, lone: false, escapes: 0 };
    this.numberToken = { string: false, start: 0, state: 'int', validEnd: 0, integer: true };
    this.finished = false;
  }

  /** Reads on for about `chars` characters (a token's last few may run past); true once the text is read or refused. */
  step(chars) {
    const text = this.text;
    const stop = Math.min(text.length, this.at + chars);
    while (!this.finished) {
      if (this.token !== null) {
        if (!(this.token.string ? this.readString(stop) : this.readNumber(stop))) return false;
        continue;
      }
      let i = this.at;
      while (i < stop && isSpace(text.charCodeAt(i))) i++;
      this.at = i;
      if (i >= text.length) {
        if (this.expect !== END) this.fail(i, `the end of the text where ${this.expected()} was expected`);
        this.finished = true;
        break;
      }
      if (i >= stop) return false;
      this.readAt(i, text.charCodeAt(i));
    }
    return true;
  }

  /** The whole text at once (a sync caller's form of step). */
  run() {
    this.step(Infinity);
    return this;
  }

  /**
   * {error: {offset, what} | null, depth, nodes, counts, escapeWork, findings: [{topic, path, count}] in TOPICS'
   * order}.
   */
  result() {
    const c = this.counts;
    return {
      error: this.error,
      depth: this.deepest,
      nodes: c.objects + c.arrays + c.strings + c.scalars,
      counts: Object.assign({}, c),
      escapeWork: this.escapeWork,
      findings: TOPICS.filter((t) => this.found.has(t)).map((t) => this.found.get(t)),
    };
  }

  /** One token or punctuation starting with character code c at i. */
  readAt(i, c) {
    const text = this.text;
    switch (this.expect) {
      case END:
        return this.fail(i, `${describe(text[i])} after the end of the document`);
      case COLON:
        if (c !== 0x3a) return this.fail(i, `${describe(text[i])} where ':' was expected`);
        this.at = i + 1;
        this.expect = VALUE;
        return undefined;
      case COMMA_OR_CLOSE: {
        const object = this.kinds[this.depth - 1] === OBJECT;
        if (c === 0x2c) {
          this.at = i + 1;
          this.expect = object ? KEY : VALUE;
          const frame = this.frame();
          if (frame && !object) frame.index++;
          return undefined;
        }
        if (c === (object ? 0x7d : 0x5d)) return this.close(i);
        return this.fail(i, `${describe(text[i])} where ',' or '${object ? '}' : ']'}' was expected`);
      }
      case KEY:
      case KEY_OR_CLOSE:
        if (this.expect === KEY_OR_CLOSE && c === 0x7d) return this.close(i);
        if (c !== 0x22) return this.fail(i, `${describe(text[i])} where a key (a string in double quotes) was expected`);
        this.counts.members++;
        return this.startString(i, true);
      default:
        if (this.expect === VALUE_OR_CLOSE && c === 0x5d) return this.close(i);
        return this.readValue(i, c);
    }
  }

  readValue(i, c) {
    const text = this.text;
    if (c === 0x7b || c === 0x5b) return this.open(i, c === 0x7b ? OBJECT : ARRAY);
    if (c === 0x22) return this.startString(i, false);
    const literal = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : null;
    if (literal !== null && text.startsWith(literal, i)) {
      this.counts.scalars++;
      this.at = i + literal.length;
      return this.afterValue();
    }
    if (c === 0x2d || isDigit(c)) {
      const t = this.numberToken;
      t.start = i;
      t.state = c === 0x2d ? 'minus' : c === 0x30 ? 'zero' : 'int';
      t.validEnd = c === 0x2d ? i : i + 1;
      t.integer = true;
      this.token = t;
      this.at = i + 1;
      return undefined;
    }
    return this.fail(i, `${describe(text[i])} where a value was expected`);
  }

  open(i, kind) {
    if (this.depth === this.kinds.length) {
      const grown = new Uint8Array(this.kinds.length * 2);
      grown.set(this.kinds);
      this.kinds = grown;
    }
    this.kinds[this.depth++] = kind;
    this.deepest = Math.max(this.deepest, this.depth);
    if (kind === OBJECT) this.counts.objects++;
    else this.counts.arrays++;
    if (this.depth <= this.framesDepth) this.frames.push(kind === OBJECT ? { object: true, key: '', keys: new Set() } : { object: false, index: 0 });
    this.at = i + 1;
    this.expect = kind === OBJECT ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
  }

  close(i) {
    if (this.depth <= this.framesDepth) this.frames.pop();
    this.depth--;
    this.at = i + 1;
    this.afterValue();
  }

  afterValue() {
    this.expect = this.depth === 0 ? END : COMMA_OR_CLOSE;
  }

  startString(i, key) {
    const t = this.stringToken;
    t.key = key;
    t.start = i;
    t.decoded = key ? [] : null;
    t.pieceFrom = i + 1;
    t.pendingHigh = false;
    t.lone = false;
    t.escapes = 0;
    this.token = t;
    this.at = i + 1;
  }

  /** Reads the string token on up to stop; true once it ended (or the text was refused in it). */
  readString(stop) {
    const text = this.text;
    const t = this.token;
    let i = this.at;
    while (i < stop) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.at = i + 1;
        this.endString(t, i);
        return true;
      }
      if (c < 0x20) {
        this.fail(i, `a control character (${describe(text[i])}) inside a string: escape it`);
        return true;
      }
      let unit = c;
      if (c === 0x5c) {
        if (i + 1 >= text.length) {
          this.fail(text.length, 'the end of the text inside a string');
          return true;
        }
        const escaped = text[i + 1];
        if (escaped === 'u') {
          if (!(i + 5 < text.length && isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)) && isHex(text.charCodeAt(i + 5)))) {
            this.fail(i, 'a \\u escape without four hex digits');
            return true;
          }
          unit = parseInt(text.slice(i + 2, i + 6), 16);
        } else if (Object.prototype.hasOwnProperty.call(ESCAPES, escaped)) {
          unit = ESCAPES[escaped];
        } else {
          this.fail(i, `an unknown escape \\${escaped}`);
          return true;
        }
        t.escapes++;
        if (t.decoded !== null) {
          t.decoded.push(text.slice(t.pieceFrom, i), String.fromCharCode(unit));
          t.pieceFrom = i + (escaped === 'u' ? 6 : 2);
        }
        i += escaped === 'u' ? 6 : 2;
      } else {
        i++;
      }
      if (t.pendingHigh || (unit >= 0xd800 && unit <= 0xdfff)) {
        if (t.pendingHigh && !isLow(unit)) t.lone = true;
        else if (!t.pendingHigh && isLow(unit)) t.lone = true;
        t.pendingHigh = !t.pendingHigh && isHigh(unit);
      }
    }
    this.at = Math.min(i, text.length);
    if (this.at >= text.length) {
      this.fail(text.length, 'the end of the text inside a string');
      return true;
    }
    return false;
  }

  endString(t, quoteAt) {
    this.token = null;
    this.escapeWork += t.escapes * (quoteAt - t.start - 1);
    const lone = t.lone || t.pendingHigh;
    const frame = this.frame();
    if (t.key) {
      t.decoded.push(this.text.slice(t.pieceFrom, quoteAt));
      const key = t.decoded.join('');
      if (frame) {
        frame.key = key;
        if (frame.keys.has(key)) this.note('duplicate-key');
        frame.keys.add(key);
      }
      if (lone) this.note('lone-surrogate');
      this.expect = COLON;
      return;
    }
    if (lone) this.note('lone-surrogate');
    this.counts.strings++;
    this.afterValue();
  }

  /**
   * Reads the number token on up to stop, as /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/ reads it: the longest prefix
   * that is a number, so `1e` is the number 1 followed by an `e` that is refused where it stands.
   */
  readNumber(stop) {
    const text = this.text;
    const t = this.token;
    let i = this.at;
    for (; i < stop; i++) {
      const c = text.charCodeAt(i);
      const digit = isDigit(c);
      switch (t.state) {
        case 'minus':
          if (!digit) return this.endNumber();
          t.state = c === 0x30 ? 'zero' : 'int';
          t.validEnd = i + 1;
          break;
        case 'int':
          if (digit) {
            t.validEnd = i + 1;
            break;
          }
        // falls through: after the integer part, as after a zero
        case 'zero':
          if (c === 0x2e) t.state = 'dot';
          else if (c === 0x65 || c === 0x45) t.state = 'e';
          else return this.endNumber();
          break;
        case 'dot':
          if (!digit) return this.endNumber();
          t.state = 'fraction';
          t.integer = false;
          t.validEnd = i + 1;
          break;
        case 'fraction':
          if (digit) t.validEnd = i + 1;
          else if (c === 0x65 || c === 0x45) t.state = 'e';
          else return this.endNumber();
          break;
        case 'e':
          if (c === 0x2b || c === 0x2d) t.state = 'sign';
          else if (digit) {
            t.state = 'exponent';
            t.integer = false;
            t.validEnd = i + 1;
          } else return this.endNumber();
          break;
        case 'sign':
          if (!digit) return this.endNumber();
          t.state = 'exponent';
          t.integer = false;
          t.validEnd = i + 1;
          break;
        default: // 'exponent'
          if (!digit) return this.endNumber();
          t.validEnd = i + 1;
      }
    }
    this.at = i;
    return i >= text.length ? this.endNumber() : false;
  }

  /** The number token ends at its longest valid prefix (reading goes on from there); true. */
  endNumber() {
    const t = this.token;
    this.token = null;
    if (t.validEnd === t.start) {
      this.fail(t.start, `${describe(this.text[t.start])} where a value was expected`);
      return true;
    }
    this.at = t.validEnd;
    this.counts.scalars++;
    // An integer of up to 15 characters is written as JSON.stringify writes it (no leading zeros in JSON), but -0.
    const plain = t.integer && t.validEnd - t.start <= 15 && !(t.validEnd - t.start === 2 && this.text.charCodeAt(t.start) === 0x2d && this.text.charCodeAt(t.start + 1) === 0x30);
    const topic = plain ? null : numberTopic(this.text.slice(t.start, t.validEnd));
    if (topic) this.note(topic);
    this.afterValue();
    return true;
  }

  frame() {
    return this.depth > 0 && this.depth <= this.framesDepth ? this.frames[this.frames.length - 1] : null;
  }

  note(topic) {
    const known = this.found.get(topic);
    if (known) known.count++;
    else if (this.depth <= this.framesDepth) this.found.set(topic, { topic, path: this.frames.map((f) => `/${pointerToken(f.object ? f.key : f.index)}`).join(''), count: 1 });
  }

  fail(offset, what) {
    this.error = { offset, what };
    this.token = null;
    this.finished = true;
  }

  expected() {
    const close = this.depth > 0 && this.kinds[this.depth - 1] === OBJECT ? '}' : ']';
    return ['a value', "a value or ']'", 'a key', "a key or '}'", "':'", `',' or '${close}'`][this.expect];
  }
}

module.exports = { JsonTextScan, TOPICS, numberTopic };
