'use strict';
// An object whose members are large, member by member (fast-parse.md): each value that is a container parsed from a
// slice of the text up to its closing bracket, found by its line's indentation in a text printed a member a line, or
// by counting its own kind of bracket (matching-close.js), and its key apart; native's parse of the slice is the
// check. No copy of a batch's text, no merge of its keys. And the keys the walk parses itself, kept for the levels
// after (a deep tree repeats its few). Parser methods (parser.js). Node 14 syntax.
const { isArrayIndex } = require('../hash-table-growth');
const { matchingClose, indentedClose } = require('../matching-close');
const { COMMA, BACKSLASH, OPEN_BRACKET, OPEN_BRACE, CLOSE_BRACE, WS, MEMBER_HEAD, now, setMember } = require('./syntax');

// Objects whose members are this long on average (twice guess.js' ELEMENT_ALONE_CHARS, by which arrays are parsed
// child by child) are parsed member by member: each value that is a container from a slice of the text, found
// by counting its own kind of bracket (matching-close.js), its key apart (memberBatch()). A batch's `{...}` is a copy
// of its text, two bytes a character in a text with one character past Latin-1 (MDN's and GitHub's descriptions):
// those copies took a quarter of native's time on GitHub's description, and the merge lists every key of every batch
// again. Not from 1024: members of three values of a few hundred characters each made a native call per three values.
const MEMBER_ALONE_CHARS = 2048;
// A container stops being parsed member by member after this many members whose bracket count was wrong.
const MAX_MEMBER_FAILURES = 2;
// The keys the walk parses to descend or to set a child parsed apart, kept for the levels after: a deep tree's few.
const MAX_KNOWN_KEYS = 64;

/**
 * Whether a key's text (between its quotes) needs native's parse: an escape to decode, or a control character that
 * JSON forbids (native's error names it). Any other key is its text as it stands. Keys are short: a loop, which V8
 * optimizes, rather than a regular expression of control characters.
 */
function needsKeyParse(keyText) {
  for (let i = 0; i < keyText.length; i++) {
    const code = keyText.charCodeAt(i);
    if (code < 0x20 || code === BACKSLASH) return true;
  }
  return false;
}

const memberByMember = {
  /**
   * The next members of an object whose members are large, one by one: each value that is a container is parsed from
   * a slice of the text, which V8 does not copy, up to its closing bracket (indentedClose() while the text's layout
   * holds, matchingClose() otherwise: native's parse is the check, and rejects a slice a bracket in a string, or a
   * line indented otherwise, cut wrongly); its key is its text when it has no escape and no
   * control character, parsed natively when it has. Setting a key again keeps its first position and takes the last
   * value, as JSON.parse does. Stops before a member whose value is not a container, does not end by `limit`, or did
   * not parse; returns false when no member was parsed (the batch is then found the usual way).
   */
  memberBatch(frame, start, target, limit, started) {
    const text = this.text;
    const region = text.slice(start, limit);
    let at = start;
    let count = 0;
    let closed = -1;
    while (at < target) {
      MEMBER_HEAD.lastIndex = at;
      if (!MEMBER_HEAD.test(text)) break;
      const valueStart = MEMBER_HEAD.lastIndex;
      const code = text.charCodeAt(valueStart);
      if (code !== OPEN_BRACE && code !== OPEN_BRACKET) break;
      // A member as long as the last ones would not close by the limit: counting its brackets up to it would be a
      // read for nothing (the usual batch walks it).
      if (limit - valueStart < frame.memberChars) break;
      const closing = code === OPEN_BRACE ? '}' : ']';
      WS.lastIndex = at;
      WS.test(text);
      const keyStart = WS.lastIndex;
      const byLayout = this.layoutCloses ? indentedClose(region, at - start, keyStart - start, valueStart - start, closing) : -1;
      const close = byLayout >= 0 ? byLayout : matchingClose(region, valueStart - start, code === OPEN_BRACE ? '{' : '[', closing);
      if (close < 0) {
        this.sliceChars += limit - at; // read to the limit for nothing: the usual batch descends into the member
        break;
      }
      const valueEnd = start + close + 1;
      WS.lastIndex = valueEnd;
      WS.test(text);
      const next = WS.lastIndex;
      const separator = text.charCodeAt(next);
      if (separator !== COMMA && separator !== CLOSE_BRACE) break;
      let value;
      try {
        value = this.native(text.slice(valueStart, valueEnd), valueStart, valueStart, valueEnd);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        if (byLayout >= 0) this.layoutCloses = false; // laid out otherwise: brackets are counted from now on
        else frame.memberFailures++; // a wrong count, or a wrong text: the usual batch finds which, and native's error
        frame.exactNext = true;
        break;
      }
      const keyEnd = this.whitespaceBefore(this.whitespaceBefore(valueStart - 1) - 1) + 1;
      const keyText = text.slice(keyStart + 1, keyEnd - 1);
      const key = needsKeyParse(keyText) ? this.keyOf(text.slice(keyStart, keyEnd), keyStart) : keyText;
      if (frame.value === null) frame.value = {};
      setMember(frame.value, key, value);
      if (frame.namedKeys >= 0 && !isArrayIndex(key)) frame.namedKeys++;
      count++;
      if (separator === CLOSE_BRACE) {
        at = next;
        closed = next;
        break;
      }
      at = next + 1;
    }
    if (count === 0) return false;
    this.sliceChars += at - start;
    this.merged = true;
    this.learn(frame, now() - started, at - start);
    frame.memberChars = (at - start) / count;
    frame.lastBatch = at - start;
    if (closed >= 0) {
      this.close(frame, closed);
    } else {
      frame.pos = at;
      frame.needValue = true;
    }
    return true;
  },

  parseKey(start, end) {
    return this.keyOf(this.text.slice(start, end), start);
  },

  /** The key a key's text (quotes included) at `at` stands for: a deep tree repeats its few keys at every level. */
  keyOf(keyText, at) {
    let key = this.keys.get(keyText);
    if (key === undefined) {
      key = this.native(keyText, at, at, at + keyText.length);
      if (this.keys.size === MAX_KNOWN_KEYS) this.keys.clear();
      this.keys.set(keyText, key);
    }
    return key;
  },
};

module.exports = { memberByMember, MEMBER_ALONE_CHARS, MAX_MEMBER_FAILURES };
