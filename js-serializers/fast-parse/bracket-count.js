'use strict';
// Batch ends found by counting brackets alone, blind to strings (fast-parse.md, "counted"): each kind of bracket
// found by indexOf, which V8 vectorizes, two to three times as fast as a scan where containers are small and many.
// A bracket or comma in a string can mislead the count; native's parse of the batch is the check, and a text whose
// counts keep failing is scanned instead (countsBrackets()). Also the close of a guessed batch's container
// (closeIn()) and a chain level's last child parsed apart (lastChildApart()). Parser methods (parser.js). Node 14
// syntax.
const { ARRAY, OBJECT, QUOTE, COLON, WS, MEMBER_HEAD, indexIn, setMember } = require('./syntax');
const { newDescent } = require('./frame');

// Batch ends found by counting brackets alone are tried until this many were wrong in the whole text, plus one for
// each BRACKET_COUNTS_PER_FAILURE that were right: a few strings with unbalanced brackets (MDN's notes quote syntax
// like `scale(scaleX[, originX]])`) cost a few wasted parses, not a string-aware scan of the rest of a 20 MB text
// (a scan of every string costs about half of native's parse there; a count of brackets a tenth). A text whose
// counts keep failing still wastes at most one parse in that many, plus MAX_BRACKET_FAILURES.
const MAX_BRACKET_FAILURES = 2;
const BRACKET_COUNTS_PER_FAILURE = 32;
// A guessed batch in a nested container is checked for the container's close unless the container has already had
// this many times the batch parsed (checksCloses()).
const CHECKED_SHARE = 16;
// A chain's level whose last child before the next level is a container of at least this many characters parses that
// child from a slice of the text, apart from the rest of its batch (lastChildApart()); finding it may take this many
// brackets at most.
const APART_MIN_CHARS = 4096;
const APART_MAX_BRACKETS = 8;

const bracketCounting = {
  /**
   * Where the batch that starts at `start` ends, found by counting brackets only, blind to strings: the first comma
   * at the frame's level at or past `target`, or the frame's closing bracket, or, when a value is still open at
   * `limit`, the comma before its member (cutBeforeLarge). When that value is the batch's first, returns -1 with
   * this.descent set, as scan() does, if what comes before it is only whitespace (and a key and its colon): -1 with
   * no descent when not, for scan() to read. A bracket, comma or quote inside a string can mislead the count; the
   * ends it gives are checked by native's parse of the batch, as a guess is (an end inside a string or a nested value
   * leaves a text it rejects), and the containers it says are large are entered only where the walk reaches them.
   */
  bracketEnd(frame, start, target, limit) {
    this.cutBeforeLarge = false;
    const region = this.text.slice(start, limit);
    const length = region.length;
    const goal = target - start;
    const opens = []; // in the region: the brackets open at p, outermost first
    // The next of each bracket at or past p (the region's length when there is none).
    let openBracket = indexIn(region, '[', 0);
    let openBrace = indexIn(region, '{', 0);
    let closeBracket = indexIn(region, ']', 0);
    let closeBrace = indexIn(region, '}', 0);
    let p = 0;
    for (;;) {
      const open = Math.min(openBracket, openBrace);
      const close = Math.min(closeBracket, closeBrace);
      if (opens.length === 0 && p >= goal) {
        const comma = indexIn(region, ',', p);
        if (comma < open && comma < close) return this.bracketStop(start + comma);
      }
      if (open < close) {
        opens.push(open);
        p = open + 1;
        if (open === openBracket) openBracket = indexIn(region, '[', p);
        else openBrace = indexIn(region, '{', p);
      } else if (close < length) {
        if (opens.length === 0) return this.bracketStop(start + close);
        opens.pop();
        p = close + 1;
        if (close === closeBracket) closeBracket = indexIn(region, ']', p);
        else closeBrace = indexIn(region, '}', p);
      } else {
        break;
      }
    }
    // The region ends inside a value, or with no comma past the target.
    this.scanEnd = limit;
    if (opens.length === 0) return -1;
    for (let i = 0; i < opens.length; i++) opens[i] += start;
    const chain = this.knownLarge(opens, start, limit, true);
    const comma = region.lastIndexOf(',', opens[0] - start);
    if (comma >= 0) {
      this.cutBeforeLarge = true;
      frame.chain = chain; // the next batch starts with it: scan() stops there
      frame.chainAt = 0;
      return start + comma;
    }
    this.descent = this.descentTo(frame, start, opens[0], chain, 1);
    return -1;
  },

  /**
   * The descent into the value that opens at `at`, when only whitespace (and, in an object, a key and its colon)
   * comes before it from `start`, the walk's position at a child's start; null otherwise: the walk never enters a
   * container where the count says one opens, only where it reaches one.
   */
  descentTo(frame, start, at, chain, chainAt) {
    WS.lastIndex = start;
    WS.test(this.text);
    const first = WS.lastIndex; // the member's key in an object, its value in an array
    if (frame.kind === ARRAY) return first === at ? newDescent(at, -1, -1, chain, chainAt) : null;
    MEMBER_HEAD.lastIndex = start;
    if (!MEMBER_HEAD.test(this.text) || MEMBER_HEAD.lastIndex !== at) return null;
    // back past the colon, to the key's closing quote
    return newDescent(at, first, this.whitespaceBefore(this.whitespaceBefore(at - 1) - 1) + 1, chain, chainAt);
  },

  /** bracketEnd()'s end at `end`, a comma or a closing bracket. */
  bracketStop(end) {
    this.scanEnd = end;
    return end;
  },

  /** Whether batch ends are still found by counting brackets: while they have seldom been wrong in this text. */
  countsBrackets() {
    return this.bracketFailures < MAX_BRACKET_FAILURES + Math.floor(this.bracketCounts / BRACKET_COUNTS_PER_FAILURE);
  },

  /**
   * Whether a guessed batch, text[start, end), is checked for its container's close first (closeIn()): in a nested
   * container (the root ends where the text does, and no comma follows it), while counting brackets blind to strings
   * has not been wrong in this text (a wrong count would cost a parse as often as it saves one), and while the batch
   * is more than a CHECKED_SHARE of what the container has had parsed: past that, the one batch that can run past its
   * end (a container ends once) wastes less than that share of the container, where checking every batch would read
   * a long array of small arrays (the world atlas' arcs) twice, bracket by bracket.
   */
  checksCloses(frame, start, end) {
    return this.stack.length > 1 && this.countsBrackets() && (end - start) * CHECKED_SHARE > start - frame.opened;
  },

  /**
   * Where frame's container, whose children start at `start`, closes before `end`, or -1: its first closing bracket
   * that no opening one of its kind matches there, counted blind to strings as bracketEnd() counts. Brackets of the
   * other kind need no count: in JSON they nest inside the container's, so an array's children are read for `[` and
   * `]` only, which an array of records has few of (indexOf skips whole records), an object's for `{` and `}`.
   * Native's parse of the batch that ends there is the check (flushChecked). The characters go to the slice's.
   */
  closeIn(frame, start, end) {
    const region = this.text.slice(start, end);
    const length = region.length;
    this.sliceChars += length;
    const opening = frame.kind === ARRAY ? '[' : '{';
    const closing = frame.kind === ARRAY ? ']' : '}';
    let depth = 0;
    let open = indexIn(region, opening, 0);
    let close = indexIn(region, closing, 0);
    while (close < length) {
      if (open < close) {
        depth++;
        open = indexIn(region, opening, open + 1);
      } else {
        if (depth === 0) return start + close;
        depth--;
        close = indexIn(region, closing, close + 1);
      }
    }
    return -1;
  },

  /**
   * The batch text[start, end) parsed in two: its last child, a container of at least APART_MIN_CHARS, from a slice of
   * the text (V8 does not copy a slice; a batch's `[...]` or `{...}` is a copy), and the rest with `null` in its place,
   * the child then set there. Null when the count finds no such child or either parse fails: the batch is then parsed
   * whole, as usual. A deep tree's level (its own values beside the next level) costs native's time this way; its
   * copies of 11 MB in all took a quarter more, in the collections they brought.
   * The brackets are counted blind to strings, at most APART_MAX_BRACKETS of them; native's two parses are the check:
   * when `[rest null]` (or `{rest null}`) and the slice both parse, the text is those two joined, and JSON's grammar
   * makes the values the whole batch's parse would make. The last member's key is the text between the last two
   * quotes before its colon that no backslash escapes: a key holds no other.
   */
  lastChildApart(frame, start, end) {
    const text = this.text;
    const region = text.slice(start, end);
    const length = region.length;
    let openBracket = indexIn(region, '[', 0);
    let openBrace = indexIn(region, '{', 0);
    let closeBracket = indexIn(region, ']', 0);
    let closeBrace = indexIn(region, '}', 0);
    let depth = 0;
    let lastTop = -1; // the last container opened at the batch's own level
    let lastClose = -1;
    for (let brackets = 0; ; brackets++) {
      const open = Math.min(openBracket, openBrace);
      const close = Math.min(closeBracket, closeBrace);
      if (open === length && close === length) break;
      if (brackets === APART_MAX_BRACKETS) return null;
      if (open < close) {
        if (depth === 0) lastTop = open;
        depth++;
        if (open === openBracket) openBracket = indexIn(region, '[', open + 1);
        else openBrace = indexIn(region, '{', open + 1);
      } else {
        if (--depth < 0) return null;
        lastClose = close;
        if (close === closeBracket) closeBracket = indexIn(region, ']', close + 1);
        else closeBrace = indexIn(region, '}', close + 1);
      }
    }
    if (depth !== 0 || lastTop < 0 || length - lastTop < APART_MIN_CHARS) return null;
    WS.lastIndex = start + lastClose + 1;
    WS.test(text);
    if (WS.lastIndex !== end) return null;
    const at = start + lastTop;
    const key = frame.kind === OBJECT ? this.keyBefore(at, start) : null;
    if (frame.kind === OBJECT && key === null) return null;
    let batch;
    let child;
    try {
      this.nativeCalls++;
      batch = JSON.parse(frame.kind === ARRAY ? `[${text.slice(start, at)}null]` : `{${text.slice(start, at)}null}`);
      this.nativeCalls++;
      child = JSON.parse(text.slice(at, end));
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return null;
    }
    if (frame.kind === ARRAY) batch[batch.length - 1] = child;
    else setMember(batch, this.keyOf(key, at), child);
    return batch;
  },

  /**
   * The text of the key (quotes included) whose colon comes before the value at `at`, no earlier than `start`; null
   * when there is none to find.
   */
  keyBefore(at, start) {
    const text = this.text;
    const colon = this.whitespaceBefore(at - 1);
    if (text.charCodeAt(colon) !== COLON) return null;
    const close = this.whitespaceBefore(colon - 1);
    if (text.charCodeAt(close) !== QUOTE) return null;
    const quote = this.openingQuote(close, start);
    return quote < 0 ? null : text.slice(quote, close + 1);
  },
};

module.exports = { bracketCounting, APART_MIN_CHARS };
