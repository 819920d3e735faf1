'use strict';
/**
 * Non-blocking JSON.parse: the same value, built in slices of about `yieldMs` milliseconds with a turn of the event
 * loop (setImmediate) between slices, so timers and I/O keep running while a large text is parsed. Sister module of
 * fast-stringify.js. CommonJS and Node 14 syntax, because the Node 14 services load it too.
 *
 *   parse(text, options?)               -> Promise<value>
 *       Resolves to a value deep-equal to JSON.parse(text): same key order, "__proto__" as an own property, duplicate
 *       keys resolved the same way (last value, first position), -0 kept, lone surrogates kept. No reviver.
 *       Rejects with a SyntaxError on every text JSON.parse rejects, and accepts no other: its message names a
 *       position in `text` where native's does (otherwise the range of the text that was being parsed).
 *       A `text` that is not a string is converted with ToString first, as JSON.parse does (`undefined` is the text
 *       "undefined" and rejects with a SyntaxError; a Symbol rejects with a TypeError).
 *   parseChunks(chunks, options?)       -> Promise<value>
 *       The same for an iterable or async iterable of strings, Buffers or Uint8Arrays (UTF-8), e.g. a request stream.
 *       Not incremental: the chunks are collected (signal checked between them), joined, then parsed as above.
 *
 * Options (all optional):
 *   signal   AbortSignal: once aborted, the promise rejects with signal.reason, or an AbortError (node-kit/slices.js's,
 *            re-exported here) when there is none, at the next slice boundary; no more work is done after it.
 *   yieldMs  target length of one synchronous slice in ms (default 5).
 *   stats    an object that gets `yields`, `nativeCalls`, `maxSliceMs`, `chars` (characters of the text parsed,
 *            scanned or copied, an array element copied counting as one, all slices together) and `maxSliceChars`
 *            (the most of them in one slice) filled in as the work progresses.
 *
 * Before changing this module: `make bench-shapes-quick` (a few minutes: the generated tree families against native,
 * the worst ratio and block per family) tells whether a change costs time anywhere.
 *
 * Work per slice is bounded twice: by time (about yieldMs) and by characters (node-kit/slices.js's maxSliceChars(yieldMs)), so
 * that it stays bounded in work units whatever the clock says. A slice handles at most that many characters plus a
 * quarter (a batch may end past its target), except where one token must be read whole (a key or a number longer
 * than the slice) and parseChunks' join of its chunks (a copy of the whole text, one step).
 *
 * A text of at most 1 Mi characters that native reads within one slice, at the rate this process' parses taught
 * (document-rate.js; before any, a slow prior of 20 characters a microsecond), is read whole: one native call, in the
 * caller's turn, with no turn waited, since there is no second slice for a first to share a turn with. A text of a
 * kind that parses much slower than the one the rate came from can outlast a slice in that step (up to 1 Mi
 * characters of native's work); its own parse teaches its rate.
 *
 * How: all the parsing is done by native JSON.parse, on batches. The containers near the top (the root, and any value
 * too large for one batch) are walked here with an explicit stack, so depth costs no call stack. The children of a
 * walked container are parsed in batches of consecutive values, `JSON.parse('[' + slice + ']')` (or '{...}' for
 * members), whose length in characters comes from the measured milliseconds per character, so that a slice lasts
 * about yieldMs, and is at most MAX_BATCH_CHARS (a slice holds several): its copy then never is a large object,
 * whose fresh pages cost more than the copy itself. Where a batch ends (the first comma at the container's own
 * level past the target length) is found one of three ways:
 * - counted: the brackets alone are counted, each kind found by indexOf (vectorized in V8), blind to strings: two
 *   to three times as fast as a scan where containers are small and many (a tree's nodes). A value still open at the
 *   limit ends the batch at the last comma before it, or is descended into when only whitespace (and its key) comes
 *   before it, with the containers it was in kept as a scan keeps them. A bracket or comma in a string can mislead
 *   the count; native's parse of the batch is the check, and once it rejected two batches and more than one in 32
 *   of those counted, the text is scanned.
 * - scanned: the brackets are counted, found past whole strings by indexOf (vectorized in V8: the next quote,
 *   backslash and bracket of each kind, each kept until passed; a string's escapes are checked by a sticky regular
 *   expression, only when it has a backslash), on windows of the text. A value still open a quarter of a batch past
 *   the target ends the batch before it, or, when it comes first, is walked itself: a container is descended into (the scan keeps the chain of containers it was in, and in each the comma
 *   before the member that holds the next: the first batch of each ends there unscanned, so nested text is scanned
 *   once, not once a level), a long string is decoded in pieces, each parsed natively: a plain piece (no quote or
 *   backslash, which indexOf finds) is cut anywhere, a piece with escapes before an escape. Native's parse of a piece
 *   checks its characters and copies them in one pass; a check here (a regular expression for the control
 *   characters) and a copy were 10-20 % slower.
 * - guessed: once a scanned batch shows that the text around the commas between children is always the same (e.g.
 *   `},{"id":` in an array of records, or `,` in an array of numbers) and appears nowhere else in the batch, the
 *   next batches end at the first such comma past the target, found by indexOf, without reading what lies between
 *   (each at most four times as long as the one before: a guess cannot see where its container ends; in a nested one,
   the brackets before the guessed comma are counted first, and a close among them ends the batch there). An object
 *   whose values differ in kind can have its keys' common start instead (`,"key_`), when it appears in the batch once
 *   for each key of that start and nowhere else: batches then end at commas before such keys only.
 *   Children of a thousand characters or more are then parsed one by one from slices of the text, which V8 does not
 *   copy (a batch is one copy of its text). Two wrong guesses and the container is scanned to its end.
 * An object whose members are two thousand characters or more on average (a batch merged into it tells) is parsed member
 * by member instead (memberBatch()): each value that is a container from a slice of the text up to its closing
 * bracket, found by counting its own kind of bracket (matching-close.js), and its key apart; native's parse of the
 * slice is the check. No copy, no merge of a batch's keys, and a slice's worth of members needs no MAX_BATCH_CHARS.
 * A batch that ends before the next large container of a chain (a deep tree's level: its own members, then the next
 * level) and ends itself with a container of 4096 characters or more parses that one from a slice of the text, and
 * the rest with null in its place (lastChildApart()): the level's bulk is not copied.
 * Correctness does not rest on the count, the scan nor the guesses: native parses every batch and every string
 * piece, and JSON's grammar is unambiguous, so batches that each parse, joined by the commas, colons and brackets
 * checked here, make up exactly a text JSON.parse accepts, and the values they build are the values it builds. A
 * wrong count or guess only costs its parse; a container is entered only at a position the walk reaches as a value's
 * start.
 * The batches of an array are copied into one array once it ends (by concat in a slice of its own, or past a million
 * children by a loop spread over slices); those of an object are merged into the first one (adopted as is), key by key.
 *
 * Limits:
 * - A slice can outlast yieldMs when one step cannot be split: a single key or number token (never cut), the copy of
 *   an array's batches into one array (about 5 ms a million children, up to 1 Mi of them), making the storage of a
 *   larger one (about 4 ms a million children: V8 fills it with holes), the join
 *   of a long string's pieces (a slice of its own, up to 4 Mi characters: about 1 ms per MB copied), parseChunks'
 *   join of its chunks (the same), a wide object's hash table growing (a rehash of every key, hash-table-growth.js:
 *   8-10 ms at 87k keys, 15-20 at 175k; from 22k keys on, the merge stops before the insertion that grows it, which
 *   starts the next slice), or a garbage collection: the values take as much memory as native's, and
 *   on the machine of the benchmark Node 24's scavenges stay within a few ms, Node 14's reach 10-20 ms on 1M numbers;
 *   a walk 100k levels deep also keeps ~200 bytes a level, whose collections have taken 10-15 ms.
 * - A string longer than 4 Mi characters is returned as a concatenation of its pieces (a V8 cons string): equal to
 *   native's, but the first operation that needs it flat copies it then (~1 ms per MB).
 * - Time (Node 24, median ratios to native JSON.parse on the shapes of bench/shapes-bench.js, 2-core machine):
 *   1.05-1.3x on documents of many similar values (records, pretty-printed or not, floats, long strings plain or
 *   escape-dense; 1.5x on the plain string when rounds run back to back); 1.2-1.35x on a bushy tree; more where
 *   containers must be walked or merged: 1.6-1.9x on a tree 2000 levels deep with 16 MB semi-spaces (its pieces cost
 *   native's time; a turn every 5 ms lets V8 run inside this parse the scavenges native's one block leaves for after
 *   it: 1.35x with both times' collector pauses taken out; each container walked adds about 5 microseconds),
 *   1.45-2.1x on objects of 100k-1M keys (each key listed from its batch and set again); ~10x on text nested 200k
 *   levels deep (bench/fast-parse-bench.js: native takes 16 ms; ~1 us a level).
 * - `text` is read, never copied whole; a string built by `+=` is flattened once, by the first regex, in the first
 *   slice (about 1 ms per MB).
 */
const { performance } = require('perf_hooks');
const { StringDecoder } = require('string_decoder');
const { AbortError, throwIfAborted, readSliceOptions, nextTurn, runSlices } = require('../node-kit/slices');
const { isArrayIndex, indexKeyCount, tableCapacity, growthCount } = require('./hash-table-growth');
const { LearntRate } = require('./learnt-rate');
const { DocumentRate } = require('./document-rate');
const { matchingClose } = require('./matching-close');

// Before anything is measured, assume a slow 20 characters per microsecond (deeply nested arrays on Node 14 parse at
// about that speed; most documents parse 10 to 30 times faster). A text this short at that rate is parsed whole.
const INITIAL_MS_PER_CHAR = 1 / 20000;
// What this process' parses taught of native's rate, from that prior: a text it reads within one slice is read whole.
const documentRate = new DocumentRate(INITIAL_MS_PER_CHAR);
// ... up to this many characters: the rate is that of the texts parsed before, and kinds of text parse at rates 10-50x
// apart (long strings at 1 GB/s, arrays of small arrays at 40 MB/s, deep nesting at 20): after a fast kind, a slow one
// read whole by mistake blocks for its whole native time, once. Bounded so, that is at most 1 Mi characters' worth
// (25-50 ms at the slowest) rather than a slice's maxSliceChars (5 Mi: 250 ms); the documents of under 1 MB that
// slicing gains nothing on stay under it.
const MAX_WHOLE_CHARS = 1 << 20;
// The first batch of all is a probe of this fraction of the slice, so that a misjudged prior cannot overshoot; so is
// the first batch merged into an object (the adopted first batch tells nothing of the cost of setting keys).
const PROBE_FRACTION = 1 / 8;
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
// A batch's text, and a long string's piece, is at most this many characters (a batch may end a quarter past it), so
// that its copy (two bytes a character in a two-byte text) stays under V8's largest regular object, 128 KB. A larger
// copy is a large object, on fresh pages of its own: records parsed from copies of 150k characters took 15-20 % longer
// than from copies under 60k, and a long plain string parsed in pieces of over a million characters 1.8x native's
// time, against 1.03x in pieces of 48k.
const MAX_BATCH_CHARS = 48000;
const MIN_PIECE_CHARS = 4096;
// The scan reads windows of this many characters: bounds how far its searches read ahead of it, and the backtracking
// stack of its regular expressions.
const WINDOW = 1 << 16;
// An array parsed in several batches is concatenated in one step, in a slice of its own, up to this many children;
// one of at most ASSEMBLE_IN_PLACE_CHILDREN (microseconds of copying) is concatenated at once, in the slice that
// closed it: a slice break costs a turn of the event loop, and a tree has arrays of a few walked children by the
// hundred.
const MAX_CONCAT_CHILDREN = 1 << 20;
const ASSEMBLE_IN_PLACE_CHILDREN = 1 << 12;
// A long string's pieces are joined in a slice of their own past this many characters; past MAX_JOIN_CHARS they are
// left concatenated (a V8 cons string), since one flat copy would outlast a slice (about 1 ms per MB written, most
// of it page faults on the new memory).
const JOIN_ALONE_CHARS = 1 << 20;
const MAX_JOIN_CHARS = 1 << 22;
// Of the containers the scan was inside when it gave up on a value, those that already spanned this fraction of the
// scanned text are known to be large: the walk descends into them without scanning them again.
const CHAIN_FRACTION = 1 / 8;
// A container whose batches end at a guessed comma stops guessing after this many wrong guesses.
const MAX_GUESS_FAILURES = 2;
// Batch ends found by counting brackets alone are tried until this many were wrong in the whole text, plus one for
// each BRACKET_COUNTS_PER_FAILURE that were right: a few strings with unbalanced brackets (MDN's notes quote syntax
// like `scale(scaleX[, originX]])`) cost a few wasted parses, not a string-aware scan of the rest of a 20 MB text
// (a scan of every string costs about half of native's parse there; a count of brackets a tenth). A text whose
// counts keep failing still wastes at most one parse in that many, plus MAX_BRACKET_FAILURES.
const MAX_BRACKET_FAILURES = 2;
const BRACKET_COUNTS_PER_FAILURE = 32;
// A guessed batch is at most this many times as long as the container's last batch: a guess cannot see where the
// container ends, and one past it (at a comma of the text after) fails after parsing all of it. Bounded so, a small
// container that learnt a signature wastes little, and a large one still grows to full batches in a few.
const GUESS_GROWTH = 4;
// A guessed batch in a nested container is checked for the container's close unless the container has already had
// this many times the batch parsed (checksCloses()).
const CHECKED_SHARE = 16;
const MAX_SIGNATURE_CHARS = 24;
// A container stops looking for a signature after this many scanned batches without one: the children differ (a wide
// object's values of several kinds, say), and each look reads the whole batch again.
const MAX_SIGNATURE_LOOKS = 3;
// A signature is learnt from a scanned batch of at least this many children.
const MIN_SIGNATURE_CHILDREN = 4;
// Arrays whose children are this long on average are parsed child by child, from slices of the text (no copy).
const ELEMENT_ALONE_CHARS = 1024;
// So are objects whose members are twice that long: each value that is a container from a slice of the text, found
// by counting its own kind of bracket (matching-close.js), its key apart (memberBatch()). A batch's `{...}` is a copy
// of its text, two bytes a character in a text with one character past Latin-1 (MDN's and GitHub's descriptions):
// those copies took a quarter of native's time on GitHub's description, and the merge lists every key of every batch
// again. Not from 1024: members of three values of a few hundred characters each made a native call per three values.
const MEMBER_ALONE_CHARS = 2048;
// A container stops being parsed member by member after this many members whose bracket count was wrong.
const MAX_MEMBER_FAILURES = 2;
// A chain's level whose last child before the next level is a container of at least this many characters parses that
// child from a slice of the text, apart from the rest of its batch (lastChildApart()); finding it may take this many
// brackets at most.
const APART_MIN_CHARS = 4096;
const APART_MAX_BRACKETS = 8;
// The keys the walk parses to descend or to set a child parsed apart, kept for the levels after: a deep tree's few.
const MAX_KNOWN_KEYS = 64;
// An object's hash table of at least this capacity is grown (every key rehashed, one step) at the start of a slice.
const MIN_GROWTH_ALONE_CAPACITY = 1 << 15;

const ARRAY = 1;
const OBJECT = 2;
const STRING = 3;

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

// JSON whitespace, forwards.
const WS = /[ \t\n\r]*/y;
// The rest of a string: stops at its closing quote, at a backslash that does not start a valid escape (or one cut by
// the window's end), or at the window's end.
const STRING_REST = /[^"\\]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\]*)*/y;
// Scalars, colons and whitespace: stops at a comma, a quote or a bracket.
const TO_STOP = /[^",[\]{}]*/y;
const POSITION = / at position (\d+)/;
// The start of an object up to its first key's colon, for a signature.
const FIRST_KEY = /\{[ \t\n\r]*"[^"\\]{0,16}"[ \t\n\r]*:/y;
// A member's key and colon, with the whitespace around them.
const MEMBER_HEAD = /[ \t\n\r]*"[^"\\]*(?:\\[^][^"\\]*)*"[ \t\n\r]*:[ \t\n\r]*/y;
// The start of a key up to its first digit, for an object's signature (keySignature): with its quote, a pattern of
// at most 6 characters.
const KEY_PREFIX_CHARS = 5;
const KEY_PREFIX = new RegExp(`[^"\\\\0-9]{0,${KEY_PREFIX_CHARS}}`, 'y');

const now = () => performance.now();
const isWhitespace = (code) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
const isCloser = (code) => code === CLOSE_BRACKET || code === CLOSE_BRACE;
const isOpener = (code) => code === OPEN_BRACKET || code === OPEN_BRACE;

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


/** An own data property, like JSON.parse's CreateDataProperty: "__proto__" must not reach the prototype setter. */
function setMember(object, key, value) {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

class Frame {
  constructor(kind, pos, key, msPerChar) {
    this.kind = kind;
    this.pos = pos; // next character to read: a value's start, a separator after afterValue, or a string piece
    this.opened = pos; // where its first child starts
    this.key = key; // the member name this value goes under, in an object parent
    this.value = null; // OBJECT: the object built so far (its first batch's result, adopted); ARRAY: see closeAt
    this.parts = null; // ARRAY: arrays of consecutive children (batch results), copied into one at the end; STRING: pieces
    this.count = 0; // ARRAY: children in parts
    this.closeAt = -1; // ARRAY: position of the closing bracket, once the parts are being copied into `value`
    this.copied = false; // ARRAY: the parts are copied by a loop over slices, into `value` made for them, not by concat
    this.filled = 0; // ARRAY: children copied so far, from parts[0] to parts[partIndex - 1]
    this.partIndex = 0;
    this.needValue = false; // after a comma: a value must follow
    this.afterValue = false; // a walked child has just been attached: a comma or the closing bracket follows
    // Nested containers known to be large, this frame's child at chainAt: {at: their positions, outermost first,
    // ends: for each, the comma before the member that holds the next one, or -1 (see Parser.knownLarge)}.
    this.chain = null;
    this.chainAt = 0;
    this.knownEnd = -1; // a comma at this frame's level that the scan which found it large saw: its first batch's end
    this.knownByCount = false; // that scan was bracketEnd()'s, blind to strings: the comma may be in one
    this.chars = 0; // STRING: length of the pieces
    this.end = -1; // STRING: position after the closing quote, once found (the pieces wait for their join)
    this.lastPiece = 0; // STRING: length of the last piece
    this.failedCut = -1; // STRING: end of a piece that did not parse, and why (its end is looked for next)
    this.failure = null;
    this.parseRate = new LearntRate(msPerChar); // native parsing and merging, for this container's children
    this.plainRate = new LearntRate(msPerChar); // STRING: a plain piece (no escape), found and parsed
    this.mergeLearnt = false; // OBJECT: parse has forgotten the rate of the first batch (adopted as is) for a merged one's
    this.namedKeys = 0; // OBJECT: keys of value that are not array indices (a repeated key counted each time); -1:
    // not counted yet (value is a batch adopted as is: counted when a first batch is merged into it)
    this.rest = null; // OBJECT: a batch whose merge stopped before the insertion that grows value's hash table
    this.restKeys = null; // its keys, and where the merge goes on
    this.restAt = 0;
    this.restClose = -1; // where the object closes once the rest is merged, when that batch was its last
    this.signature = null; // what the text around a comma between two children looks like, once learnt
    this.failures = 0; // batches whose guessed end was wrong
    this.signatureLooks = 0; // scanned batches that showed no signature
    this.failedPrefix = null; // OBJECT: the key start keySignature() tried last
    this.exactNext = false; // the next batch must be scanned (a large child follows, or a guess just failed)
    this.scanNext = false; // the next batch must be scanned by scan(): bracketEnd() just failed on it
    this.elementChars = 0; // ARRAY: average length of a child
    this.memberChars = 0; // OBJECT: average length of a member in its last merged batch
    this.memberFailures = 0; // OBJECT: members whose value memberBatch() found the end of wrongly
    this.lastBatch = 0; // length of the text of the last batch parsed
  }
}

/** The parse state; step(deadline) does work until the deadline and says whether the value is complete. */
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
    this.cutBeforeLarge = false; // scan() ended the batch before a large value
    this.merged = false; // the last object batch was merged into an object (not adopted)
    this.children = 0; // children in the last batch (-1: not counted)
    this.batchKeys = null; // the keys of the last batch merged into an object
    this.keys = new Map(); // key texts the walk parsed (quotes included) and their keys, up to MAX_KNOWN_KEYS
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

  /** Characters the next batch or string piece may take: what is left of the slice, at most MAX_BATCH_CHARS. */
  batchCharsLeft() {
    return Math.min(this.charsLeft(), MAX_BATCH_CHARS);
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
    const small = this.length <= Math.min(this.maxSliceChars, MAX_WHOLE_CHARS) && documentRate.fits(this.length, Math.max(deadline - now(), 0));
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
    if (frame.knownEnd >= 0) {
      this.knownBatch(frame, start, left, started);
      return;
    }
    if (frame.kind === OBJECT && frame.memberChars >= MEMBER_ALONE_CHARS && !frame.exactNext && frame.chain === null && frame.memberFailures < MAX_MEMBER_FAILURES && tableCapacity(frame.namedKeys) < MIN_GROWTH_ALONE_CAPACITY) {
      const chars = Math.max(MIN_BATCH_CHARS, Math.min(this.charsLeft(), Math.floor(left / frame.parseRate.msPerChar)));
      const target = Math.min(this.length, start + chars);
      if (this.memberBatch(frame, start, target, Math.min(this.length, target + Math.ceil(chars * SLACK_FRACTION)), started)) return;
    }
    if (frame.signature !== null && !frame.exactNext) {
      const chars = Math.max(MIN_BATCH_CHARS, Math.min(this.batchCharsLeft(), Math.floor(left / frame.parseRate.msPerChar), GUESS_GROWTH * frame.lastBatch));
      const target = Math.min(this.length, start + chars);
      if (this.guess(frame, start, target, Math.min(this.length, target + Math.ceil(chars * SLACK_FRACTION)), started)) return;
    }
    frame.exactNext = false;
    // A scanned batch: the scan reads up to `limit`, native parses up to about `target`.
    const rate = frame.parseRate.msPerChar + this.scanRate.msPerChar * (1 + SLACK_FRACTION);
    const chars = Math.max(MIN_BATCH_CHARS, Math.min(this.batchCharsLeft(), Math.floor(left / rate)));
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
  }

  /**
   * The descent into the value that opens at `at`, when only whitespace (and, in an object, a key and its colon)
   * comes before it from `start`, the walk's position at a child's start; null otherwise: the walk never enters a
   * container where the count says one opens, only where it reaches one.
   */
  descentTo(frame, start, at, chain, chainAt) {
    WS.lastIndex = start;
    WS.test(this.text);
    const first = WS.lastIndex; // the member's key in an object, its value in an array
    if (frame.kind === ARRAY) return first === at ? { at, keyStart: -1, keyEnd: -1, chain, chainAt } : null;
    MEMBER_HEAD.lastIndex = start;
    if (!MEMBER_HEAD.test(this.text) || MEMBER_HEAD.lastIndex !== at) return null;
    // back past the colon, to the key's closing quote
    return { at, keyStart: first, keyEnd: this.whitespaceBefore(this.whitespaceBefore(at - 1) - 1) + 1, chain, chainAt };
  }

  /** bracketEnd()'s end at `end`, a comma or a closing bracket. */
  bracketStop(end) {
    this.scanEnd = end;
    return end;
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

  /**
   * Ends the batch without scanning it: at the first comma past the target that looks like the commas between the
   * frame's children seen so far. Native's parse of the batch is the check (a comma inside a string or a nested
   * value leaves an unfinished value, which it rejects). Arrays of large children are parsed child by child, from
   * slices of the text, which saves copying them into a batch. Returns false when the batch must be scanned.
   */
  guess(frame, start, target, limit, started) {
    const chainAt = frame.chain !== null ? frame.chain.at[frame.chainAt] : -1;
    if (frame.kind === ARRAY && frame.elementChars >= ELEMENT_ALONE_CHARS) return this.elementBatch(frame, start, target, limit, started, chainAt);
    const end = this.nextComma(frame.signature, target, limit);
    if (end < 0 || (chainAt >= start && chainAt < end)) return false;
    if (this.checksCloses(frame, start, end)) {
      // A nested container may end before the guessed comma, which is then one of the text after it (a sibling's
      // with the same text around it): native would read the whole batch, reject it, and it would be parsed again
      // smaller. The brackets, counted, show the container's close first, and the batch ends there.
      const close = this.closeIn(frame, start, end);
      if (close >= 0) {
        this.endBatch(frame, start, close, true);
        return true;
      }
    }
    this.sliceChars += end - start; // parsed, or wasted on a wrong guess
    try {
      this.flush(frame, start, end, false);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      this.guessFailed(frame);
      return true;
    }
    this.learn(frame, now() - started, end - start);
    frame.pos = end + 1;
    frame.needValue = true;
    return true;
  }

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
  }

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

  elementBatch(frame, start, target, limit, started, chainAt) {
    const text = this.text;
    let at = start;
    let count = 0;
    let failed = false;
    const values = [];
    while (at < target) {
      const end = this.nextComma(frame.signature, at, limit);
      if (end < 0 || (chainAt >= at && chainAt < end)) break;
      this.sliceChars += end - at; // parsed, or wasted on a wrong guess
      let value;
      try {
        value = this.native(text.slice(at, end), at, at, end);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        failed = true;
        break;
      }
      values.push(value);
      count++;
      at = end + 1;
    }
    if (count > 0) {
      addPart(frame, values);
      this.learn(frame, now() - started, at - start);
      frame.elementChars = (at - start) / count;
      frame.lastBatch = at - start;
      frame.pos = at;
      frame.needValue = true;
    }
    if (failed) this.guessFailed(frame);
    return count > 0 || failed;
  }

  /** Whether batch ends are still found by counting brackets: while they have seldom been wrong in this text. */
  countsBrackets() {
    return this.bracketFailures < MAX_BRACKET_FAILURES + Math.floor(this.bracketCounts / BRACKET_COUNTS_PER_FAILURE);
  }

  /**
   * The next members of an object whose members are large, one by one: each value that is a container is parsed from
   * a slice of the text, which V8 does not copy, up to its closing bracket (matchingClose(): native's parse is the
   * check, and rejects a slice a bracket in a string cut wrongly); its key is its text when it has no escape and no
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
      const close = matchingClose(region, valueStart - start, code === OPEN_BRACE ? '{' : '[', code === OPEN_BRACE ? '}' : ']');
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
        frame.memberFailures++; // a wrong count, or a wrong text: the usual batch finds which, and native's error
        frame.exactNext = true;
        break;
      }
      WS.lastIndex = at;
      WS.test(text);
      const keyStart = WS.lastIndex;
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

  guessFailed(frame) {
    frame.failures++;
    if (frame.failures >= MAX_GUESS_FAILURES) frame.signature = null;
    frame.exactNext = true;
    this.breakSlice = true; // the wasted parse took part of the slice: scan in the next one
  }

  /**
   * The signature of the comma that ended a scanned batch, if it is a safe guide: in the batch just parsed, it must
   * appear at every comma between two children and nowhere else (a guess at a false one costs a wasted parse). An
   * object whose values differ in kind has no such text; its keys may still share a start (`key_` in `key_1`,
   * `key_2`, ...): keySignature() tries that.
   */
  learnSignature(frame, start, end) {
    if (this.children < MIN_SIGNATURE_CHILDREN) return null;
    if (frame.signatureLooks < MAX_SIGNATURE_LOOKS) {
      const signature = this.signatureAt(frame, end, false);
      if (this.countCommas(signature, start, end) === this.children - 1) return signature;
      // Children that are arrays of arrays (the world atlas' arcs, [[x,y],[dx,dy],...]) have `],[` between their own
      // children too; the brackets their ends and starts have in a row (`]],[[`) tell their commas apart. Arrays only:
      // in an object of objects (`}},"`), the guesses it allowed were each checked for the object's close (closeIn()),
      // a second read of the batch that cost more than the scans they saved.
      const nested = frame.kind === ARRAY ? this.signatureAt(frame, end, true) : null;
      if (nested !== null && this.countCommas(nested, start, end) === this.children - 1) return nested;
    }
    return frame.kind === OBJECT ? this.keySignature(frame, start, end) : null;
  }

  /** How many commas with the signature around them lie in text[start, end), counting up to this.children. */
  countCommas(signature, start, end) {
    let count = 0;
    for (let at = start; count < this.children;) {
      const comma = this.nextComma(signature, at, end - 1);
      if (comma < 0) break;
      count++;
      at = comma + 1;
    }
    return count;
  }

  /**
   * A comma followed by the start of a key, up to its first digit (at most KEY_PREFIX_CHARS; none when the key starts
   * with one), as a signature of the object's commas, if in the batch just merged it appears once for each of the
   * batch's keys with that start but the first, and nowhere else. The start is that of the batch's last key in
   * Object.keys' order, which lists array indices first: a named key's, when the batch has one. Guesses then end at
   * such commas only, skipping keys of other starts (integer-like keys, say), whatever kinds of values lie between.
   */
  keySignature(frame, start, end) {
    const text = this.text;
    WS.lastIndex = end + 1;
    WS.test(text);
    const quote = WS.lastIndex;
    const last = this.batchKeys[this.batchKeys.length - 1];
    KEY_PREFIX.lastIndex = 0;
    KEY_PREFIX.test(last);
    const prefix = last.slice(0, KEY_PREFIX.lastIndex);
    if (text.charCodeAt(quote) !== QUOTE || prefix === frame.failedPrefix) return null;
    frame.failedPrefix = prefix; // a start that fails here is not tried again on the batches after
    const search = `"${prefix}`;
    let keys = 0;
    for (const key of this.batchKeys) if (key.startsWith(prefix)) keys++;
    WS.lastIndex = start;
    WS.test(text);
    if (text.startsWith(search, WS.lastIndex)) keys--; // the batch's first key has no comma before it in the batch
    if (keys < MIN_SIGNATURE_CHILDREN - 1) return null;
    const signature = { text: text.slice(end, quote) + search, search, searchOffset: quote - end, commaOffset: 0 };
    return this.countCommas(signature, start, end) === keys ? signature : null;
  }

  /**
   * The text around the comma at `comma`, between two children of frame: the end of the child before (a closing
   * bracket or quote), whitespace, and the start of the next one up to its first key. Searched for with indexOf on
   * a pattern of at most 6 characters (longer ones take V8 a table per call), starting at its rarest character.
   * nested: with every closing bracket that ends the child before and every opening one that starts the next (null
   * when that adds none to the plain signature).
   */
  signatureAt(frame, comma, nested) {
    const text = this.text;
    let begin = comma;
    while (begin > 0 && isWhitespace(text.charCodeAt(begin - 1))) begin--;
    const before = text.charCodeAt(begin - 1);
    if (before === CLOSE_BRACE || before === CLOSE_BRACKET || before === QUOTE) begin--;
    else begin = comma;
    WS.lastIndex = comma + 1;
    WS.test(text);
    const first = WS.lastIndex;
    let end = first;
    const code = text.charCodeAt(first);
    if (code === OPEN_BRACE && frame.kind === ARRAY) {
      FIRST_KEY.lastIndex = first;
      end = FIRST_KEY.test(text) ? FIRST_KEY.lastIndex : first + 1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET || code === QUOTE) {
      end = first + 1;
    }
    if (nested) {
      const plainBegin = begin;
      const plainEnd = end;
      if (before === CLOSE_BRACE || before === CLOSE_BRACKET) while (begin > 0 && isCloser(text.charCodeAt(begin - 1))) begin--;
      if (code === OPEN_BRACKET) while (end < this.length && isOpener(text.charCodeAt(end))) end++;
      if (begin === plainBegin && end === plainEnd) return null;
    }
    end = Math.min(end, begin + MAX_SIGNATURE_CHARS);
    // The indexOf pattern starts at the next child's first character when it has one (rarer than a comma).
    const searchFrom = end > first ? first : comma;
    return {
      text: text.slice(begin, end),
      search: text.slice(searchFrom, Math.min(end, searchFrom + 6)),
      searchOffset: searchFrom - begin,
      commaOffset: comma - begin,
    };
  }

  /** The first comma at or past `from` (and before `limit`) with the signature around it, or -1. */
  nextComma(signature, from, limit) {
    const begin = Math.max(0, from - signature.commaOffset);
    const end = Math.min(this.length, limit + signature.text.length);
    if (end - begin < signature.text.length) return -1;
    // Searched in a slice that ends at the limit (indexOf must not run through the rest of the text), kept for the
    // searches of one batch.
    if (this.region === null || begin < this.regionStart || end !== this.regionEnd) {
      this.regionStart = begin;
      this.regionEnd = end;
      this.region = this.text.slice(begin, end);
    }
    const region = this.region;
    const offset = this.regionStart;
    let at = begin - offset + signature.searchOffset;
    for (;;) {
      const found = region.indexOf(signature.search, at);
      if (found < 0) return -1;
      const candidate = found - signature.searchOffset;
      const comma = offset + candidate + signature.commaOffset;
      if (comma > limit) return -1;
      if (comma >= from && region.startsWith(signature.text, candidate)) return comma;
      at = found + 1;
    }
  }

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
  }

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
    this.descent = { at, keyStart, keyEnd, chain, chainAt };
    return -1;
  }

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
    return { at: opens, ends, byCount };
  }

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
  }

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
  }

  whitespaceBefore(j) {
    while (j >= 0 && isWhitespace(this.text.charCodeAt(j))) j--;
    return j;
  }

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
  }

  /** Where flatTo() stopped, i in the window: the characters it keeps are the next ones at or past it. */
  stopAt(i) {
    this.windowRead = this.windowStart + i;
    return this.windowRead;
  }

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
  }

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
  }

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
  }

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
  }

  parseKey(start, end) {
    return this.keyOf(this.text.slice(start, end), start);
  }

  /** The key a key's text (quotes included) at `at` stands for: a deep tree repeats its few keys at every level. */
  keyOf(keyText, at) {
    let key = this.keys.get(keyText);
    if (key === undefined) {
      key = this.native(keyText, at, at, at + keyText.length);
      if (this.keys.size === MAX_KNOWN_KEYS) this.keys.clear();
      this.keys.set(keyText, key);
    }
    return key;
  }

  /**
   * Parses text[start, end) natively as the members of frame (atClose: the container ends at `end`) and adds them.
   * lastApart: the batch may end with a large container, worth parsing apart (lastChildApart()).
   */
  flush(frame, start, end, atClose, lastApart = false) {
    WS.lastIndex = start;
    WS.test(this.text);
    if (WS.lastIndex >= end) {
      // No value: fine only for an empty container.
      if (!atClose || frame.needValue) throw syntaxError(this, end);
      return;
    }
    let batch = lastApart && end - start >= APART_MIN_CHARS ? this.lastChildApart(frame, start, end) : null;
    if (batch === null) {
      const slice = this.text.slice(start, end);
      batch = frame.kind === ARRAY ? this.native(`[${slice}]`, start - 1, start, end) : this.native(`{${slice}}`, start - 1, start, end);
    }
    this.merged = false;
    frame.lastBatch = end - start;
    if (frame.kind === ARRAY) {
      frame.elementChars = (end - start) / batch.length;
      addPart(frame, batch);
      this.children = batch.length;
      return;
    }
    this.merged = frame.value !== null;
    if (frame.value === null) {
      frame.value = batch;
      frame.namedKeys = -1;
      this.batchKeys = null;
      this.children = -1; // not counted (a key listing of a large object costs; merge() lists it if it must)
    } else {
      const keys = Object.keys(batch);
      this.children = keys.length; // at most: duplicate keys count once
      this.batchKeys = keys;
      frame.memberChars = keys.length > 0 ? (end - start) / keys.length : 0;
      this.merge(frame, batch, keys, 0, false);
    }
  }

  /**
   * Sets the members of batch, from keys[from] on, on the object frame is building. A wide object's hash table grows
   * in one step, a rehash of every key (hash-table-growth.js): when the insertion that grows a large one comes in
   * this batch, the merge stops before it and goes on at the start of the next slice (mergeRest), so that the rehash
   * is not added to a slice already spent. startsSlice: this merge is the first work of its slice.
   */
  merge(frame, batch, keys, from, startsSlice) {
    const target = frame.value;
    if (frame.namedKeys < 0) {
      const own = Object.keys(target);
      frame.namedKeys = own.length - indexKeyCount(own);
    }
    const named = Math.max(from, indexKeyCount(keys)); // Object.keys lists array indices first; they live elsewhere
    const capacity = tableCapacity(frame.namedKeys);
    let end = keys.length;
    if (capacity >= MIN_GROWTH_ALONE_CAPACITY) {
      const growing = named + (growthCount(capacity) - frame.namedKeys) - 1; // the index in keys of that insertion
      if (growing >= from + (startsSlice ? 1 : 0) && growing < end) end = growing;
    }
    for (let i = from; i < end; i++) setMember(target, keys[i], batch[keys[i]]);
    frame.namedKeys += Math.max(0, end - named);
    if (end < keys.length) {
      frame.rest = batch;
      frame.restKeys = keys;
      frame.restAt = end;
      this.breakSlice = true;
    }
  }

  /**
   * The rest of a batch whose merge stopped before the table's growth (the first work of this slice: the batch ended
   * the slice before), and the object's close if the batch was its last.
   */
  mergeRest(frame) {
    const batch = frame.rest;
    const keys = frame.restKeys;
    const at = frame.restAt;
    frame.rest = null;
    frame.restKeys = null;
    this.sliceChars += keys.length - at;
    this.merge(frame, batch, keys, at, true);
    if (frame.rest === null && frame.restClose >= 0) {
      const end = frame.restClose;
      frame.restClose = -1;
      this.close(frame, end);
    }
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

  close(frame, at) {
    const code = this.text.charCodeAt(at);
    if (code !== (frame.kind === ARRAY ? CLOSE_BRACKET : CLOSE_BRACE)) throw syntaxError(this, at);
    if (frame.kind === OBJECT) {
      this.finish(frame, frame.value !== null ? frame.value : {}, at + 1);
    } else if (frame.parts === null || frame.parts.length === 1) {
      this.finish(frame, frame.parts !== null ? frame.parts[0] : [], at + 1);
    } else {
      // Several batches: copied into one array by assemble(), in a slice of its own unless they are few.
      frame.closeAt = at;
      frame.copied = frame.count > Math.min(MAX_CONCAT_CHILDREN, this.maxSliceChars);
      if (frame.count > ASSEMBLE_IN_PLACE_CHILDREN) this.breakSlice = true;
    }
  }

  /**
   * Copies the children of an array parsed in several batches into its one array: by concat (one step, about 5 ms a
   * million children), or, past MAX_CONCAT_CHILDREN or more children than a slice's characters, by a loop (half as
   * fast, but it stops at the deadline or the slice's characters) into an array made in a slice before. A child
   * copied counts as one character.
   */
  assemble(frame, deadline) {
    if (!frame.copied) {
      this.sliceChars += frame.count;
      this.finish(frame, Array.prototype.concat.apply([], frame.parts), frame.closeAt + 1);
      return;
    }
    if (frame.value === null) {
      // Making the array's storage is one step (about 4 ms a million children): a slice of its own.
      frame.value = arrayOfLength(frame.parts[0][0], frame.count);
      this.breakSlice = true;
      return;
    }
    const target = frame.value;
    const parts = frame.parts;
    let k = frame.filled;
    let p = frame.partIndex;
    while (p < parts.length) {
      const part = parts[p];
      for (let i = 0; i < part.length; i++) target[k++] = part[i];
      parts[p++] = null;
      this.sliceChars += part.length;
      if (now() >= deadline || this.sliceChars >= this.maxSliceChars) break;
    }
    frame.filled = k;
    frame.partIndex = p;
    if (p === parts.length) this.finish(frame, target, frame.closeAt + 1);
  }

  /** Pops frame, whose value ended at `end`, and attaches the value to its parent (or makes it the result). */
  finish(frame, value, end) {
    this.stack.pop();
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1] : null;
    if (parent === null) {
      WS.lastIndex = end;
      WS.test(this.text);
      if (WS.lastIndex < this.length) throw syntaxError(this, WS.lastIndex);
      this.result = value;
      return;
    }
    if (parent.kind === ARRAY) {
      if (parent.parts === null) addPart(parent, [value]);
      else {
        parent.parts[parent.parts.length - 1].push(value);
        parent.count++;
      }
    } else {
      if (parent.value === null) parent.value = {};
      setMember(parent.value, frame.key, value);
      if (parent.namedKeys >= 0 && !isArrayIndex(frame.key)) parent.namedKeys++;
    }
    parent.pos = end;
    parent.afterValue = true;
  }

  /**
   * Decodes the next piece of a long string, natively: a plain piece (no escape) cut anywhere, or a piece with
   * escapes cut before one. Each kind of piece is sized by its own rate, which differ by 5x: sized by the plain
   * pieces', a piece of escapes would overrun its slice.
   */
  stringStep(frame, deadline) {
    const text = this.text;
    if (frame.end >= 0) {
      // The join is a copy of the whole string that cannot be split: a slice of its own (step saw to that).
      this.sliceChars += frame.chars;
      this.finish(frame, frame.parts.join(''), frame.end);
      return;
    }
    if (frame.parts === null) frame.parts = [];
    const started = now();
    const start = frame.pos;
    let cut = frame.failedCut;
    if (cut < 0) {
      const budget = Math.max(deadline - started, 0);
      // A piece grows to at most twice the last one: the rate of the first small pieces can be far off.
      const pieceChars = (rate) => Math.max(MIN_PIECE_CHARS, Math.min(Math.floor((budget * (rate.measured ? 1 : PROBE_FRACTION)) / rate.msPerChar), 2 * Math.max(frame.lastPiece, MIN_PIECE_CHARS), this.batchCharsLeft()));
      const slice = text.slice(start, Math.min(this.length, start + pieceChars(frame.plainRate)));
      const run = plainRun(slice);
      if (slice.charCodeAt(run) === QUOTE) {
        // The closing quote, with no escape before it: the last piece.
        this.sliceChars += run;
        this.endString(frame, this.native(`"${slice.slice(0, run)}"`, start - 1, start, start + run), start + run + 1);
        return;
      }
      if ((run === slice.length && start + run < this.length) || run >= MIN_PIECE_CHARS) {
        // No escape up to the cut, or up to an escape worth stopping before: a plain piece, cut anywhere.
        this.sliceChars += run;
        this.addPiece(frame, this.native(`"${slice.slice(0, run)}"`, start - 1, start, start + run), run);
        frame.pos = start + run;
        frame.plainRate.add(now() - started, run);
        return;
      }
      cut = run === slice.length ? this.length : this.escapeBoundary(start, Math.min(this.length, start + pieceChars(frame.parseRate)));
      if (cut < this.length) {
        this.sliceChars += cut - start;
        // Guess that the string goes on past the cut: if the piece parses, it holds no closing quote, so it does.
        try {
          this.addPiece(frame, this.native(`"${text.slice(start, cut)}"`, start - 1, start, cut), cut - start);
          frame.pos = cut;
        } catch (error) {
          // The string ends before the cut (or the piece is invalid): find out in a slice of its own.
          if (!(error instanceof SyntaxError)) throw error;
          frame.failedCut = cut;
          frame.failure = error;
          this.breakSlice = true;
        }
        // Strings decode at their own rate: learnt by the frame only.
        frame.parseRate.add(now() - started, cut - start);
        return;
      }
    }
    const end = this.skipString(start - 1, Math.min(this.length, cut + 1));
    if (end < 0) throw frame.failure;
    this.sliceChars += end - start;
    this.endString(frame, this.native(`"${text.slice(start, end - 1)}"`, start - 1, start, end), end);
  }

  addPiece(frame, piece, textChars) {
    frame.parts.push(piece);
    frame.chars += piece.length;
    frame.lastPiece = textChars;
  }

  /** The piece the string ends with, before the quote at end - 1: the string is joined now, or in a slice of its own. */
  endString(frame, piece, end) {
    frame.parts.push(piece);
    frame.chars += piece.length;
    frame.end = end;
    if (frame.parts.length === 1) this.finish(frame, piece, end);
    else if (frame.chars > Math.min(MAX_JOIN_CHARS, this.maxSliceChars)) this.finish(frame, frame.parts.reduce(concatenateStrings), end);
    else if (frame.chars > JOIN_ALONE_CHARS) this.breakSlice = true;
    else this.finish(frame, frame.parts.join(''), end);
  }

  /** Moves a cut back before an escape it would split (valid text from `start`; if not, the piece's parse fails). */
  escapeBoundary(start, cut) {
    const text = this.text;
    for (let j = cut - 1; j >= cut - 5 && j > start; j--) { // cut - start >= MIN_PIECE_CHARS: j never reaches start
      if (text.charCodeAt(j) !== BACKSLASH) continue;
      let run = 1;
      while (j - run >= start && text.charCodeAt(j - run) === BACKSLASH) run++;
      if (run % 2 === 0) return cut; // j is an escaped backslash: the escape before it ended at j
      const escapeEnd = j + (text.charCodeAt(j + 1) === 0x75 ? 6 : 2);
      return escapeEnd > cut ? j : cut;
    }
    return cut;
  }
}

/**
 * An array of `length` elements whose storage already suits `first` (the first child): new Array(length) is made for
 * small integers, and the first double or object written into it converts all of its storage at once, in one step
 * (about 9 ms for 2 M children); an array made from its first child keeps that child's kind as it grows.
 */
function arrayOfLength(first, length) {
  const array = [first];
  array.length = length;
  return array;
}

const concatenateStrings = (a, b) => a + b;
/** The position of `character` in window at or past `from`, or the window's length when there is none. */
function indexIn(window, character, from) {
  const at = window.indexOf(character, from);
  return at < 0 ? window.length : at;
}

/** The characters of slice before its first quote or backslash (all of them if none): indexOf's search is vectorized. */
function plainRun(slice) {
  const quote = slice.indexOf('"');
  const backslash = slice.indexOf('\\');
  if (quote < 0) return backslash < 0 ? slice.length : backslash;
  return backslash < 0 ? quote : Math.min(quote, backslash);
}

function addPart(frame, values) {
  if (frame.parts === null) frame.parts = [values];
  else frame.parts.push(values);
  frame.count += values.length;
}

function syntaxError(parser, at, reason) {
  if (reason === undefined && at >= parser.length) return new SyntaxError('Unexpected end of JSON input');
  const what = reason || `Unexpected token ${JSON.stringify(parser.text.charAt(at))}`;
  return new SyntaxError(`${what} in JSON at position ${at}`);
}

function readOptions(options) {
  const settings = readSliceOptions(options);
  return Object.assign(settings, { stats: settings.stats || {} });
}

function resetStats(stats) {
  stats.yields = 0;
  stats.nativeCalls = 0;
  stats.maxSliceMs = 0;
  stats.chars = 0;
  stats.maxSliceChars = 0;
}

/** Adds one slice's figures to stats. */
function countSlice(stats, ms, chars) {
  stats.maxSliceMs = Math.max(stats.maxSliceMs, ms);
  stats.chars += chars;
  stats.maxSliceChars = Math.max(stats.maxSliceChars, chars);
}

/** Runs a Parser slice by slice (node-kit's slice loop). */
async function run(text, settings) {
  const stats = settings.stats;
  if (text.length <= Math.min(settings.maxSliceChars, MAX_WHOLE_CHARS) && documentRate.fits(text.length, settings.yieldMs)) {
    throwIfAborted(settings.signal);
    return parseWhole(text, stats);
  }
  const parser = new Parser(text, settings.maxSliceChars);
  const step = (deadline) => {
    const started = now();
    parser.sliceChars = 0;
    try {
      return parser.step(deadline);
    } finally {
      countSlice(stats, now() - started, parser.sliceChars);
      stats.nativeCalls += parser.nativeCalls;
      parser.nativeCalls = 0;
    }
  };
  await runSlices(step, { yieldMs: settings.yieldMs, signal: settings.signal, stats });
  // Native's own rate on this text's pieces (their copies included), not the batches' (scans, merges, frames): the
  // rate a whole parse of a text like it would run at.
  documentRate.addWhole(parser.nativeMs, parser.nativeChars);
  return parser.result;
}

/**
 * A text native reads within one slice, at the rate this process learnt: read whole, in the caller's turn, with no
 * turn waited (there is no second slice for the first to share a turn with), and native's error if it fails.
 */
function parseWhole(text, stats) {
  const started = now();
  stats.nativeCalls = 1;
  let value;
  try {
    value = JSON.parse(text);
  } finally {
    countSlice(stats, now() - started, text.length);
  }
  documentRate.addWhole(stats.maxSliceMs, text.length); // a text rejected early would teach a rate far too fast
  return value;
}

async function parse(text, options) {
  const settings = readOptions(options);
  resetStats(settings.stats);
  return run(typeof text === 'string' ? text : `${text}`, settings);
}

async function parseChunks(chunks, options) {
  const settings = readOptions(options);
  resetStats(settings.stats);
  throwIfAborted(settings.signal);
  const parts = [];
  let chars = 0;
  let decoder = null;
  const add = (part) => {
    parts.push(part);
    chars += part.length;
  };
  for await (const chunk of chunks) {
    throwIfAborted(settings.signal);
    if (typeof chunk === 'string') {
      if (decoder !== null) add(decoder.end());
      decoder = null;
      add(chunk);
    } else if (ArrayBuffer.isView(chunk)) {
      if (decoder === null) decoder = new StringDecoder('utf8');
      add(decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    } else {
      throw new TypeError('parseChunks takes strings, Buffers or Uint8Arrays');
    }
  }
  if (decoder !== null) add(decoder.end());
  if (chars > JOIN_ALONE_CHARS) {
    // The join copies the whole text and cannot be split: a slice of its own.
    await nextTurn();
    settings.stats.yields++;
    throwIfAborted(settings.signal);
  }
  const started = now();
  const text = parts.join('');
  countSlice(settings.stats, now() - started, chars); // a copy of the whole text, one step: the module's documented limit
  return run(text, settings);
}

module.exports = { parse, parseChunks, AbortError, MAX_BATCH_CHARS };
