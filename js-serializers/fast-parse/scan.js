'use strict';
// Batch ends found by a scan that reads past whole strings (fast-parse.md, "scanned"): the next quote, backslash and
// bracket of each kind found by indexOf (vectorized in V8) on windows of the text, a string's escapes checked by a
// sticky regular expression only when it has a backslash. A value still open past the batch's limit ends the batch
// before it, or, first in its batch, is left to the walk to descend into (tooLarge()), with the containers the scan
// was in kept as a chain, so that nested text is scanned once, not once a level. Parser methods (parser.js). Node 14
// syntax.
const { OBJECT, QUOTE, COMMA, COLON, BACKSLASH, OPEN_BRACKET, OPEN_BRACE, STRING_REST, isWhitespace, indexIn, syntaxError } = require('./syntax');
const { newDescent, newChain } = require('./frame');

// The scan reads windows of this many characters: bounds how far its searches read ahead of it, and the backtracking
// stack of its regular expressions.
const WINDOW = 1 << 16;
// Of the containers the scan was inside when it gave up on a value, those that already spanned this fraction of the
// scanned text are known to be large: the walk descends into them without scanning them again.
const CHAIN_FRACTION = 1 / 8;
// Scalars, colons and whitespace: stops at a comma, a quote or a bracket.
const TO_STOP = /[^",[\]{}]*/y;

const scanning = {
  /**
   * Finds where the batch that starts at `start` ends: the first comma at the frame's level at or past `target`, or
   * the frame's closing bracket; returns its position. A value still open at `limit` ends the batch before it, or,
   * when it comes first, is left to the walk: then scan returns -1 and sets this.descent.
   */
  scan(frame, start, target, limit) {
    this.cutBeforeLarge = false;
    const text = this.text;
    const length = this.length;
    const chain = frame.chain;
    const opens = []; // open brackets of the child being scanned, outermost first
    let p = start;
    let q;
    for (;;) {
      if (opens.length === 0 && p >= target) {
        // At the frame's level, past the target: the batch ends at the next comma.
        TO_STOP.lastIndex = p;
        TO_STOP.test(text);
        q = TO_STOP.lastIndex;
        if (q >= length) throw syntaxError(this, length);
      } else {
        if (p >= limit) {
          // Only inside a value (at the frame's level, p < target here): one opened at the limit itself.
          this.scanEnd = limit;
          return this.tooLarge(frame, start, opens[0], this.knownLarge(opens, start, limit), 1);
        }
        q = this.flatTo(p, opens.length === 0 ? target : limit);
        if (q === this.windowEnd) {
          p = q;
          if (q >= length) throw syntaxError(this, length);
          if (opens.length > 0 && q >= limit) {
            this.scanEnd = limit;
            return this.tooLarge(frame, start, opens[0], this.knownLarge(opens, start, limit), 1);
          }
          continue;
        }
      }
      const code = text.charCodeAt(q);
      if (code === QUOTE) {
        const end = this.skipString(q, limit);
        if (end >= 0) {
          p = end;
        } else if (opens.length > 0) {
          this.scanEnd = limit;
          return this.tooLarge(frame, start, opens[0], this.knownLarge(opens, start, limit), 1);
        } else {
          this.scanEnd = limit;
          const cut = this.tooLarge(frame, start, q, null, 0);
          if (cut !== -2) return cut;
          // A key longer than the slack, first in its batch: keys are never cut, so it is read whole.
          p = this.skipString(q, length);
          limit = Math.min(length, p + (limit - start));
        }
      } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
        if (opens.length === 0 && chain !== null && q === chain.at[frame.chainAt]) {
          // Known to be large: no need to scan it again.
          this.scanEnd = q;
          return this.tooLarge(frame, start, q, chain, frame.chainAt + 1);
        }
        opens.push(q);
        p = q + 1;
      } else if (code === COMMA || opens.length === 0) {
        // A comma past the target, or the frame's closing bracket (close() checks which).
        this.scanEnd = q;
        return q;
      } else {
        opens.pop();
        p = q + 1;
      }
    }
  },

  /**
   * A value at `at` (at the frame's level) reaches past the batch: returns the comma before its member, where the
   * batch ends, or, when its member is the first of the batch, -1 with this.descent set (-2 for a key, which scan
   * reads whole).
   */
  tooLarge(frame, start, at, chain, chainAt) {
    const text = this.text;
    let j = this.whitespaceBefore(at - 1);
    let keyStart = -1;
    let keyEnd = -1;
    let isKey = false;
    if (frame.kind === OBJECT) {
      if (j >= start && text.charCodeAt(j) === COLON) {
        j = this.whitespaceBefore(j - 1);
        if (j < start || text.charCodeAt(j) !== QUOTE) throw syntaxError(this, j + 1);
        keyEnd = j + 1;
        keyStart = this.openingQuote(j, start);
        if (keyStart < 0) throw syntaxError(this, j);
        j = this.whitespaceBefore(keyStart - 1);
      } else if (text.charCodeAt(at) === QUOTE) {
        isKey = true;
      } else {
        throw syntaxError(this, at); // a container where a key belongs
      }
    }
    if (j >= start) {
      if (text.charCodeAt(j) !== COMMA) throw syntaxError(this, j);
      this.cutBeforeLarge = true;
      if (chain !== null && chainAt === 1) {
        // The next batch starts with it: keep what this scan learnt, so that it is not scanned again.
        frame.chain = chain;
        frame.chainAt = 0;
      }
      return j;
    }
    if (isKey) return -2;
    this.descent = newDescent(at, keyStart, keyEnd, chain, chainAt);
    return -1;
  },

  /**
   * The containers the scan was in when it reached its limit (outermost first), cut to those that already spanned a
   * good part of the scanned text: those are known to be large, the ones opened just before the limit may be small.
   */
  knownLarge(opens, start, limit, byCount = false) {
    const minimum = (limit - start) * CHAIN_FRACTION;
    let n = 1;
    while (n < opens.length && limit - opens[n] >= minimum) n++;
    const ends = new Array(n);
    for (let i = 0; i < n; i++) ends[i] = i + 1 < opens.length ? this.commaBefore(opens[i], opens[i + 1]) : -1;
    opens.length = n;
    return newChain(opens, ends, byCount);
  },

  /**
   * In the container that opens at `container`, the comma before the member whose value opens at `at`, or -1 when
   * that member is the first (or the text is not what the scan took it for: the walk will scan it and say why).
   */
  commaBefore(container, at) {
    const text = this.text;
    let j = this.whitespaceBefore(at - 1);
    if (text.charCodeAt(container) === OPEN_BRACE) {
      if (text.charCodeAt(j) !== COLON) return -1;
      j = this.whitespaceBefore(j - 1);
      if (j <= container || text.charCodeAt(j) !== QUOTE) return -1;
      const keyStart = this.openingQuote(j, container + 1);
      if (keyStart < 0) return -1;
      j = this.whitespaceBefore(keyStart - 1);
    }
    return j > container && text.charCodeAt(j) === COMMA ? j : -1;
  },

  /**
   * Position of the opening quote of the string whose closing quote is at `close` (an unescaped quote before it, at
   * `start` or after), or -1.
   */
  openingQuote(close, start) {
    const text = this.text;
    let k = close - 1;
    for (;;) {
      k = text.lastIndexOf('"', k);
      if (k < start) return -1;
      let backslashes = 0;
      while (text.charCodeAt(k - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return k;
      k--;
    }
  },

  whitespaceBefore(j) {
    while (j >= 0 && isWhitespace(this.text.charCodeAt(j))) j--;
    return j;
  },

  /**
   * Skips from p everything but brackets and whole strings, in a window of the text that ends at most at `limit`;
   * returns where it stopped: at a bracket, at the quote of a string that does not end in the window (or holds an
   * invalid escape), or at windowEnd (nothing found). The next quote, backslash and bracket of each kind are found by
   * indexOf (vectorized) and kept until passed, so each character of a window is searched once for each of them.
   */
  flatTo(p, limit) {
    if (p < this.windowRead || p >= this.windowEnd || this.windowEnd > limit) this.openWindow(p, limit);
    const w = this.window;
    const length = w.length;
    let i = p - this.windowStart;
    for (;;) {
      if (this.nextQuote < i) this.nextQuote = indexIn(w, '"', i);
      if (this.nextOpenBracket < i) this.nextOpenBracket = indexIn(w, '[', i);
      if (this.nextCloseBracket < i) this.nextCloseBracket = indexIn(w, ']', i);
      if (this.nextOpenBrace < i) this.nextOpenBrace = indexIn(w, '{', i);
      if (this.nextCloseBrace < i) this.nextCloseBrace = indexIn(w, '}', i);
      const bracket = Math.min(this.nextOpenBracket, this.nextCloseBracket, this.nextOpenBrace, this.nextCloseBrace);
      const quote = this.nextQuote;
      if (bracket < quote) return this.stopAt(bracket);
      if (quote >= length) return this.stopAt(length);
      // A string opens at `quote`: skipped whole when it ends in the window (and its escapes are valid).
      const close = indexIn(w, '"', quote + 1);
      if (close >= length) return this.stopAt(quote);
      if (this.nextBackslash <= quote) this.nextBackslash = indexIn(w, '\\', quote + 1);
      if (this.nextBackslash > close) {
        this.nextQuote = close;
        i = close + 1;
        continue;
      }
      STRING_REST.lastIndex = quote + 1;
      STRING_REST.test(w);
      const end = STRING_REST.lastIndex;
      if (end >= length || w.charCodeAt(end) !== QUOTE) return this.stopAt(quote);
      i = end + 1;
    }
  },

  /** Where flatTo() stopped, i in the window: the characters it keeps are the next ones at or past it. */
  stopAt(i) {
    this.windowRead = this.windowStart + i;
    return this.windowRead;
  },

  /** A window from p (a scan that starts before where the last one stopped opens a new one: the kept are past it). */
  openWindow(p, limit) {
    this.windowStart = p;
    this.windowRead = p;
    this.windowEnd = Math.min(limit, p + WINDOW);
    this.window = this.text.slice(p, this.windowEnd);
    this.nextQuote = -1;
    this.nextBackslash = -1;
    this.nextOpenBracket = -1;
    this.nextCloseBracket = -1;
    this.nextOpenBrace = -1;
    this.nextCloseBrace = -1;
  },

  /**
   * Skips the string whose opening quote is at q; returns the position after its closing quote, or -1 when it does
   * not end before `limit`. Throws on an invalid escape or a string that never ends.
   */
  skipString(q, limit) {
    const text = this.text;
    const length = this.length;
    let p = q + 1;
    for (;;) {
      const end = Math.min(limit, p + WINDOW);
      STRING_REST.lastIndex = 0;
      STRING_REST.test(text.slice(p, end));
      const m = p + STRING_REST.lastIndex;
      if (m < end) {
        if (text.charCodeAt(m) === QUOTE) return m + 1;
        // A backslash: an escape cut by the window's end, or an invalid one (escapes are at most 6 characters).
        if (end - m >= 6 || end === length) throw syntaxError(this, m + 1, 'Bad escaped character');
        if (end === limit) return -1;
        p = m;
      } else {
        if (end === length) throw syntaxError(this, length, 'Unterminated string');
        if (end === limit) return -1;
        p = end;
      }
    }
  },
};

module.exports = { scanning };
