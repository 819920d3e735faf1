'use strict';
// One container (or long string) the walk is inside (fast-parse.md): where it is in the text, what it has built, and
// what its batches taught (rates, the signature of its commas, failures). Every field is set in the constructor, so
// that all frames share one shape (V8 keeps the walk's property reads monomorphic). Node 14 syntax.
const { LearntRate } = require('../learnt-rate');

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
    // Nested containers known to be large (newChain below, made by Parser.knownLarge), this frame's child at chainAt.
    this.chain = null;
    this.chainAt = 0;
    this.knownEnd = -1; // a comma at this frame's level that the scan which found it large saw: its first batch's end
    this.knownByCount = false; // that scan was bracketEnd()'s, blind to strings: the comma may be in one
    this.knownClose = -1; // OBJECT: where it closes, counted when the walk descended into it: parsed whole (whole.js)
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
    this.memberChars = 0; // OBJECT: average length of a member in its last merged batch, or of its last walked member
    this.memberFailures = 0; // OBJECT: members whose value memberBatch() found the end of wrongly
    this.lastBatch = 0; // length of the text of the last batch parsed
  }
}

// The walk's small records, each made in one place, so that each has one shape (keepShapes() in parser.js keeps one
// of each alive between parses).

/**
 * A container to descend into (Parser.descent): where it opens, its key's text in an object parent (-1 in an array),
 * and the chain of large containers it heads (newChain), with the next one's index in it.
 */
const newDescent = (at, keyStart, keyEnd, chain, chainAt) => ({ at, keyStart, keyEnd, chain, chainAt });

/**
 * Nested containers known to be large (Frame.chain): their positions, outermost first; for each, the comma before the
 * member that holds the next one, or -1; byCount: found by counting brackets blind to strings.
 */
const newChain = (at, ends, byCount) => ({ at, ends, byCount });

/**
 * What the text around a comma between two children looks like (Frame.signature, guess.js): the text, the pattern
 * indexOf searches for and its offset in it, and the comma's offset in it.
 */
const newSignature = (text, search, searchOffset, commaOffset) => ({ text, search, searchOffset, commaOffset });

/** Adds a batch's children (an array of them) to an array frame's parts. */
function addPart(frame, values) {
  if (frame.parts === null) frame.parts = [values];
  else frame.parts.push(values);
  frame.count += values.length;
}

module.exports = { Frame, addPart, newDescent, newChain, newSignature };
