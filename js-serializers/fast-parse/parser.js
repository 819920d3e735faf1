'use strict';
// fast-parse's walk (fast-parse.md): the Parser, whose step(deadline) does work until the deadline and says whether
// the value is complete. Here: the loop of steps, the start, and each batch's sizing and the choice of how its end is
// found (bracket-count.js, scan.js, guess.js, members.js), what a batch teaches, and the native calls. The other
// modules' methods are Parser's too (mixed in below, before any parser exists), so that every call stays a call on
// the one Parser shape, as it was when they were one class. Node 14 syntax.
const { tableCapacity } = require('../hash-table-growth');
const { LearntRate } = require('../learnt-rate');
const { DocumentRate } = require('../document-rate');
const { ARRAY, OBJECT, STRING, QUOTE, COMMA, OPEN_BRACKET, OPEN_BRACE, WS, now, syntaxError } = require('./syntax');
const { INITIAL_MS_PER_CHAR, PROBE_FRACTION, MAX_BATCH_CHARS } = require('./sizes');
const { Frame, newDescent, newChain, newSignature } = require('./frame');
const { bracketCounting } = require('./bracket-count');
const { scanning } = require('./scan');
const { guessing, GUESS_GROWTH, MAX_GUESS_FAILURES, MAX_SIGNATURE_LOOKS } = require('./guess');
const { memberByMember, MEMBER_ALONE_CHARS, MAX_MEMBER_FAILURES } = require('./members');
const { assembling, MIN_GROWTH_ALONE_CAPACITY } = require('./assemble');
const { stringPieces } = require('./strings');
const { wholeObjects } = require('./whole');

// What this process' parses taught of native's rate, from the prior: a text it reads within one slice is read whole
// (document-rate.js says which). Module state, one per process: fast-parse.js' run() teaches it and reads it too.
const documentRate = new DocumentRate(INITIAL_MS_PER_CHAR);
// The first batch of a container after the first probe of all aims at this fraction of what is left of the slice,
// and batches merged into an object at MERGE_FRACTION.
const NEW_FRAME_FRACTION = 1 / 2;
const MERGE_FRACTION = 1 / 2;
// A value that starts before the batch's target length may end this fraction of the batch past it.
const SLACK_FRACTION = 1 / 4;
const MIN_BATCH_CHARS = 256;
// A scanned batch shorter than this and than a quarter of what a whole slice would give it, all that is left of a
// slice, waits for the next slice (whose first step takes any size).
const MIN_TAIL_CHARS = 12000;
// An object's batch holds at least this many members where that takes at most DICTIONARY_BATCH_CHARS characters:
// V8's JSON.parse builds an object of fewer than 128 members (Node 24; 129 on Node 14) in fast mode, a hidden class
// made for each key it has not seen in that place before, about 1 us a key, where it builds a larger one as a
// dictionary, 0.3-0.45 us a key. A map's keys are its own (an icon set's names): parsed in batches of MAX_BATCH_CHARS,
// 76 icons of 500 characters a batch, the 7000 icons of bench/record-families.js cost native 8.2 ms where the whole
// text costs 4.7. The batch is merged into the object key by key anyway. DICTIONARY_BATCH_CHARS keeps a one-byte
// text's copy under V8's largest regular object (sizes.js' MAX_BATCH_CHARS says why; a two-byte text's is past it).
const DICTIONARY_MEMBERS = 144;
const DICTIONARY_BATCH_CHARS = 120000;
const POSITION = / at position (\d+)/;

class Parser {
  constructor(text, maxSliceChars) {
    this.text = text;
    this.length = text.length;
    this.stack = [];
    this.started = false;
    this.result = undefined;
    this.nativeCalls = 0;
    this.nativeMs = 0; // time in native calls that parsed, and the characters they read: native's rate on this text
    this.nativeChars = 0;
    this.breakSlice = false; // the next step must start a slice of its own
    this.sliceFresh = true; // the current step is the first of its slice
    this.sliceMs = 0; // the time the current slice had at its first step
    this.priorMsPerChar = INITIAL_MS_PER_CHAR; // the prior for new frames: the last rate learnt anywhere
    this.measured = false; // before the first rate is learnt, batches are probes
    this.scanRate = new LearntRate(INITIAL_MS_PER_CHAR / 4); // scanning, all frames alike
    this.scanEnd = 0; // furthest position the last scan read
    this.descent = null; // what scan() found to descend into, when it returns -1
    this.bracketFailures = 0; // batches whose end bracketEnd() found wrong
    this.bracketCounts = 0; // and those it found right (native parsed them)
    this.wholeMisses = 0; // objects wholeClose() counted for nothing, or whose whole parse failed
    this.cutBeforeLarge = false; // scan() ended the batch before a large value
    this.merged = false; // the last object batch was merged into an object (not adopted)
    this.children = 0; // children in the last batch (-1: not counted)
    this.batchKeys = null; // the keys of the last batch merged into an object
    this.keys = new Map(); // key texts the walk parsed (quotes included) and their keys, up to MAX_KNOWN_KEYS
    this.layoutCloses = true; // a member's close may be found by the text's layout (matching-close.js' indentedClose)
    this.region = null; // the text nextComma() searches, from regionStart to regionEnd
    this.regionStart = 0;
    this.regionEnd = 0;
    this.window = ''; // the text flatTo() searches, from windowStart to windowEnd
    this.windowStart = 0;
    this.windowEnd = 0;
    this.windowRead = 0; // where flatTo() last stopped
    this.nextQuote = -1; // in the window: the next of each character at or past where flatTo() last read, or its length
    this.nextBackslash = -1;
    this.nextOpenBracket = -1;
    this.nextCloseBracket = -1;
    this.nextOpenBrace = -1;
    this.nextCloseBrace = -1;
    this.maxSliceChars = maxSliceChars;
    this.sliceChars = 0; // characters parsed, scanned or copied in the current slice
  }

  /** Characters the current slice may still handle (a batch sized to it may end a quarter past it). */
  charsLeft() {
    return Math.max(0, this.maxSliceChars - this.sliceChars);
  }

  /**
   * Characters the next batch or string piece may take: what is left of the slice, at most MAX_BATCH_CHARS, or for an
   * object's batch, as many as DICTIONARY_MEMBERS of its members take when that is at most DICTIONARY_BATCH_CHARS.
   */
  batchCharsLeft(frame) {
    let most = MAX_BATCH_CHARS;
    if (frame !== undefined && frame.kind === OBJECT) {
      const dictionary = Math.ceil(DICTIONARY_MEMBERS * frame.memberChars);
      if (dictionary > most && dictionary <= DICTIONARY_BATCH_CHARS) most = dictionary;
    }
    return Math.min(this.charsLeft(), most);
  }

  /**
   * Whether an object's next batch, which could hold DICTIONARY_MEMBERS members (batchCharsLeft), would hold fewer in
   * what is left of the slice (left ms), where a fresh slice holds them: it waits for the next slice. Sized to the
   * slice's end, a map's batches shrank by half each (85, 59, 30, 16, 7, 3 icons in a 1 ms slice), each built in V8's
   * fast mode, a hidden class a key.
   */
  dictionaryWaits(frame, left) {
    if (frame.kind !== OBJECT || frame.memberChars <= 0 || !frame.parseRate.measured) return false;
    const dictionary = DICTIONARY_MEMBERS * frame.memberChars;
    if (dictionary > DICTIONARY_BATCH_CHARS || dictionary > this.maxSliceChars) return false;
    const msPerChar = frame.parseRate.msPerChar;
    return left / msPerChar < dictionary && dictionary * msPerChar <= this.sliceMs * MERGE_FRACTION;
  }

  step(deadline) {
    if (!this.started) {
      this.started = true;
      this.begin(deadline);
    }
    const stack = this.stack;
    let progressed = false; // one step per slice at least, however short yieldMs is
    while (stack.length > 0) {
      if (progressed && (this.breakSlice || now() >= deadline || this.sliceChars >= this.maxSliceChars)) {
        this.breakSlice = false;
        return false;
      }
      this.sliceFresh = !progressed;
      if (!progressed) this.sliceMs = Math.max(deadline - now(), 0);
      progressed = true;
      const frame = stack[stack.length - 1];
      if (frame.kind === STRING) this.stringStep(frame, deadline);
      else if (frame.closeAt >= 0) this.assemble(frame, deadline);
      else if (frame.afterValue) this.separator(frame);
      else this.batch(frame, deadline);
    }
    return true;
  }

  begin(deadline) {
    const text = this.text;
    WS.lastIndex = 0;
    WS.test(text);
    const start = WS.lastIndex;
    const code = text.charCodeAt(start);
    const small = documentRate.readsWhole(text, this.maxSliceChars, Math.max(deadline - now(), 0));
    if (small || (code !== OPEN_BRACKET && code !== OPEN_BRACE && code !== QUOTE)) {
      // A short text, or a top-level number or literal (a token is never cut): native whole, native's error.
      this.nativeCalls++;
      this.sliceChars += this.length;
      this.result = JSON.parse(text);
      return;
    }
    const kind = code === OPEN_BRACKET ? ARRAY : code === OPEN_BRACE ? OBJECT : STRING;
    this.stack.push(new Frame(kind, start + 1, undefined, this.priorMsPerChar));
  }

  /** After a walked child: a comma (a value must follow) or the container's end. */
  separator(frame) {
    WS.lastIndex = frame.pos;
    WS.test(this.text);
    const p = WS.lastIndex;
    if (this.text.charCodeAt(p) === COMMA) {
      frame.pos = p + 1;
      frame.afterValue = false;
      frame.needValue = true;
    } else {
      this.close(frame, p);
    }
  }

  /** Parses the next children of frame natively, as many as fit in what is left of the slice, or descends into one. */
  batch(frame, deadline) {
    if (frame.rest !== null) {
      this.mergeRest(frame);
      return;
    }
    const started = now();
    // The first batch of all is a probe: the prior rates may be far off. So is an object's first batch merged into
    // its first (adopted as is): setting keys one by one on a large object costs as much as parsing them.
    const merging = frame.kind === OBJECT && frame.value !== null;
    let fraction = 1;
    if (!this.measured || (merging && !(frame.mergeLearnt && frame.parseRate.measured))) fraction = PROBE_FRACTION;
    else if (!frame.parseRate.measured) fraction = NEW_FRAME_FRACTION; // another container's rate, a guide only
    else if (merging) fraction = MERGE_FRACTION; // room for a smaller hash table's growth (a large one's waits: merge())
    const left = Math.max(deadline - started, 0) * fraction;
    const start = frame.pos;
    if (frame.knownClose >= 0) {
      this.wholeBatch(frame, left, started);
      return;
    }
    if (frame.knownEnd >= 0) {
      this.knownBatch(frame, start, left, started);
      return;
    }
    if (frame.kind === OBJECT && frame.memberChars >= MEMBER_ALONE_CHARS && !frame.exactNext && frame.chain === null && frame.memberFailures < MAX_MEMBER_FAILURES && tableCapacity(frame.namedKeys) < MIN_GROWTH_ALONE_CAPACITY) {
      // An object whose members so far were walked has no rate of its own, and a probe at the prior would stay
      // shorter than any of its members: each would be walked and merged key by key in turn (a tree of 600 objects
      // of 40 K characters had every one walked). Members set one by one have no merge to probe for: the rate learnt
      // last anywhere (its walked members') sizes the batch, as for a new container, up to GUESS_GROWTH times its
      // members' length: a member far longer than the last ones is counted up to the limit for nothing.
      const fits = frame.parseRate.measured
        ? Math.floor(left / frame.parseRate.msPerChar)
        : Math.min(Math.floor((Math.max(deadline - started, 0) * NEW_FRAME_FRACTION) / this.priorMsPerChar), Math.ceil(GUESS_GROWTH * frame.memberChars));
      const chars = Math.max(MIN_BATCH_CHARS, Math.min(this.charsLeft(), fits));
      const target = Math.min(this.length, start + chars);
      if (this.memberBatch(frame, start, target, Math.min(this.length, target + Math.ceil(chars * SLACK_FRACTION)), started)) return;
    }
    if (!this.sliceFresh && this.dictionaryWaits(frame, left)) {
      this.breakSlice = true;
      return;
    }
    if (frame.signature !== null && !frame.exactNext) {
      const chars = Math.max(MIN_BATCH_CHARS, Math.min(this.batchCharsLeft(frame), Math.floor(left / frame.parseRate.msPerChar), GUESS_GROWTH * frame.lastBatch));
      const target = Math.min(this.length, start + chars);
      if (this.guess(frame, start, target, Math.min(this.length, target + Math.ceil(chars * SLACK_FRACTION)), started)) return;
    }
    frame.exactNext = false;
    // A scanned batch: the scan reads up to `limit`, native parses up to about `target`.
    const rate = frame.parseRate.msPerChar + this.scanRate.msPerChar * (1 + SLACK_FRACTION);
    const chars = Math.max(MIN_BATCH_CHARS, Math.min(this.batchCharsLeft(frame), Math.floor(left / rate)));
    const target = Math.min(this.length, start + chars);
    if (!this.sliceFresh && chars < MIN_TAIL_CHARS && chars * 4 < this.sliceMs * fraction / rate) {
      // The slice is nearly spent: a batch this short would walk any value longer than itself (a frame, its key's
      // parse, its batches merged into its first), where the next slice's whole batch parses it in one native call.
      this.breakSlice = true;
      return;
    }
    const limit = Math.min(this.length, target + Math.ceil(chars * SLACK_FRACTION));
    if (frame.scanNext) {
      frame.scanNext = false;
    } else if (frame.chain === null && this.countsBrackets()) {
      const end = this.bracketEnd(frame, start, target, limit);
      if (end >= 0 || this.descent !== null) {
        this.sliceChars += this.scanEnd - start;
        this.scanRate.add(now() - started, this.scanEnd - start);
      }
      if (this.descent !== null) {
        this.descend(frame);
        return;
      }
      if (end >= 0) {
        this.endBatch(frame, start, end, true);
        return;
      }
    }
    if (frame.chain !== null) {
      // Text nested deeply: the next child may be a container already known to be large (after its key, in an object).
      this.descent = this.descentTo(frame, start, frame.chain.at[frame.chainAt], frame.chain, frame.chainAt + 1);
      if (this.descent !== null) {
        this.descend(frame);
        return;
      }
    }
    const end = this.scan(frame, start, target, limit);
    const scannedChars = Math.max(end, this.scanEnd) - start;
    this.sliceChars += scannedChars;
    this.scanRate.add(now() - started, scannedChars);
    if (end >= 0) this.endBatch(frame, start, end, false);
    else this.descend(frame);
  }

  /**
   * Parses the batch text[start, end) that scan() or bracketEnd() (byCount) found, and moves frame past it; a batch
   * of bracketEnd()'s that native rejects is scanned again.
   */
  endBatch(frame, start, end, byCount) {
    const scanned = now();
    const closing = this.text.charCodeAt(end) !== COMMA;
    if (!this.flushChecked(frame, start, end, closing, byCount)) return;
    this.learn(frame, now() - scanned, end - start);
    if (closing && frame.rest !== null) {
      frame.restClose = end;
    } else if (closing) {
      this.close(frame, end);
    } else {
      frame.pos = end + 1;
      frame.needValue = true;
      if (this.cutBeforeLarge) frame.exactNext = true;
      else if (frame.signature === null && frame.failures < MAX_GUESS_FAILURES && (frame.signatureLooks < MAX_SIGNATURE_LOOKS || frame.kind === OBJECT)) {
        frame.signature = this.learnSignature(frame, start, end);
        if (frame.signature === null) frame.signatureLooks++;
      }
    }
  }

  /** Walks the large value that comes first in frame, found by scan() (which returned -1) and told by this.descent. */
  descend(frame) {
    const large = this.descent;
    this.descent = null;
    frame.needValue = false;
    let key;
    if (frame.kind === OBJECT) key = this.parseKey(large.keyStart, large.keyEnd);
    const at = large.at;
    const code = this.text.charCodeAt(at);
    const kind = code === OPEN_BRACKET ? ARRAY : code === OPEN_BRACE ? OBJECT : STRING;
    const child = new Frame(kind, at + 1, key, kind === STRING ? frame.parseRate.msPerChar : this.priorMsPerChar);
    // An object that heads no chain of large containers may close within a slice's reach: parsed whole (whole.js).
    if (kind === OBJECT && (large.chain === null || large.chainAt >= large.chain.at.length)) child.knownClose = this.wholeClose(at);
    if (large.chain !== null) {
      if (large.chainAt < large.chain.at.length) {
        child.chain = large.chain;
        child.chainAt = large.chainAt;
      }
      child.knownEnd = large.chain.ends[large.chainAt - 1];
      child.knownByCount = large.chain.byCount;
    }
    if (frame.chain !== null && frame.chain.at[frame.chainAt] === at) frame.chain = null;
    this.stack.push(child);
  }

  learn(frame, ms, chars) {
    if (frame.kind === OBJECT && this.merged && !frame.mergeLearnt) {
      frame.parseRate.forget(); // the rate of the object's first batch, adopted as is, is no guide
      frame.mergeLearnt = true;
    }
    frame.parseRate.add(ms, chars);
    if (!frame.parseRate.measured) return;
    this.priorMsPerChar = frame.parseRate.msPerChar;
    this.measured = true;
  }

  /**
   * flush(), for a batch whose end bracketEnd() may have found (byCount): a SyntaxError then means a wrong count, not
   * a wrong text, and the batch is scanned (the next slice), with its chain forgotten. Says whether it parsed.
   */
  flushChecked(frame, start, end, atClose, byCount, lastApart = false) {
    try {
      this.flush(frame, start, end, atClose, lastApart);
      if (byCount) this.bracketCounts++;
      return true;
    } catch (error) {
      if (!byCount || !(error instanceof SyntaxError)) throw error;
    }
    this.bracketFailures++;
    frame.chain = null;
    frame.exactNext = true;
    frame.scanNext = true;
    this.breakSlice = true;
    return false;
  }

  /**
   * The first batch of a container the walk descended into along a chain: the scan that found the container large
   * went past frame.knownEnd, a comma at this level, so the batch ends there without a scan. Native's parse is the
   * check, as for any batch. It waits for a slice of its own when it would not fit in what is left of this one.
   */
  knownBatch(frame, start, left, started) {
    const end = frame.knownEnd;
    if (!this.sliceFresh && (end - start > this.charsLeft() || (end - start) * frame.parseRate.msPerChar > left)) {
      this.breakSlice = true;
      return;
    }
    frame.knownEnd = -1;
    this.sliceChars += end - start;
    if (!this.flushChecked(frame, start, end, false, frame.knownByCount, true)) return;
    this.learn(frame, now() - started, end - start);
    frame.pos = end + 1;
    frame.needValue = true;
    frame.exactNext = true; // the value after it is large, or was still open where the scan stopped
  }

  /** JSON.parse of a piece of text; offset: where the piece's first character is in the text (to map positions). */
  native(piece, offset, from, to) {
    this.nativeCalls++;
    const started = now();
    try {
      const value = JSON.parse(piece);
      this.nativeMs += now() - started;
      this.nativeChars += piece.length;
      return value;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      const match = POSITION.exec(error.message);
      if (match !== null) {
        const at = Math.max(from, Math.min(to, offset + Number(match[1])));
        throw syntaxError(this, at, error.message.slice(0, match.index).replace(/ in JSON$/, ''));
      }
      throw new SyntaxError(`${error.message} (in the JSON text between positions ${from} and ${to})`, { cause: error });
    }
  }
}

Object.assign(Parser.prototype, bracketCounting, scanning, guessing, memberByMember, assembling, stringPieces, wholeObjects);

// One instance of each object the walk makes (a parser, a frame with its LearntRates, a descent, a chain, a
// signature), remade after each parse that walked and outliving it: V8 drops a shape at a full collection once no
// object has it, with the optimized code that checks it, and the next parse rebuilt them field by field (the tree of
// small arrays right after gc(): 17.8 ms where 13.4 are steady). Remade after a parse, not at load: a field's first
// fraction (a time) moves its objects to a new shape. They hold no text and no value. fast-parse.md, "Shapes kept".
const kept = { shapes: null };

function keepShapes() {
  const chain = newChain([0], [-1], false);
  kept.shapes = {
    parser: new Parser('', 0),
    frame: new Frame(ARRAY, 0, undefined, INITIAL_MS_PER_CHAR),
    descent: newDescent(0, -1, -1, chain, 0),
    signature: newSignature('', '', 0, 0),
  };
}

module.exports = { Parser, documentRate, keepShapes };
