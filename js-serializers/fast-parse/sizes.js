'use strict';
// The sizes more than one of fast-parse's modules (fast-parse.md) go by: the prior rate, the probe, a batch's largest,
// and the join that gets a slice of its own. Node 14 syntax.

// Before anything is measured, assume a slow 20 characters per microsecond (deeply nested arrays on Node 14 parse at
// about that speed; most documents parse 10 to 30 times faster). A text this short at that rate is parsed whole.
const INITIAL_MS_PER_CHAR = 1 / 20000;
// The first batch of all is a probe of this fraction of the slice, so that a misjudged prior cannot overshoot; so is
// the first batch merged into an object (the adopted first batch tells nothing of the cost of setting keys).
const PROBE_FRACTION = 1 / 8;
// A batch's text, and a long string's piece, is at most this many characters (a batch may end a quarter past it), so
// that its copy (two bytes a character in a two-byte text) stays under V8's largest regular object, 128 KB. A larger
// copy is a large object, on fresh pages of its own: records parsed from copies of 150k characters took 15-20 % longer
// than from copies under 60k, and a long plain string parsed in pieces of over a million characters 1.8x native's
// time, against 1.03x in pieces of 48k.
const MAX_BATCH_CHARS = 48000;
// A long string's pieces, and parseChunks' chunks, are joined in a slice of their own past this many characters (a
// flat copy: about 1 ms per MB written, most of it page faults on the new memory).
const JOIN_ALONE_CHARS = 1 << 20;

module.exports = { INITIAL_MS_PER_CHAR, PROBE_FRACTION, MAX_BATCH_CHARS, JOIN_ALONE_CHARS };
