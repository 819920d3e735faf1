'use strict';
// The `worker` approach: the only one whose op does not hold the event loop for the whole document. The C++ work (the
// tree built from what crossed, its output, the tree hash) runs in a module of its own on a worker thread
// (transfer-worker*.js); the main thread's part, making what crosses and the value that comes back, is done in slices
// with a turn of the loop between them, each bounded in work units:
// - in: the value as JSON text by the lab's fast-stringify (its chunks: bounded in characters a slice), cut into
//   pieces of PIECE_CHARS posted to the thread as they come (a string clone of at most that size each), at most
//   yieldMs × SEND_CHARS_PER_MS characters between turns;
// - out: C++'s typed layout of its tree, copied into one ArrayBuffer in the thread and transferred (no clone), read
//   by typed-sliced-reader.js at most yieldMs × READ_NODES_PER_MS nodes a slice.
// JSON in (not the typed layout) because the main thread then needs no encoder of its own: fast-stringify is already
// sliced and byte for byte JSON.stringify; the typed layout out because JSON back would need the whole text as one
// string before fast-parse could start, a copy of the document in one block (parseChunks' join).
//
// The operations are asynchronous, unlike the other approaches' (approaches.js): each takes {yieldMs, signal, stats,
// hashTree} and resolves {value | count, inBytes, outBytes, treeHash}; treeHash (asked with hashTree, by a run's last
// op) is the hash of the tree C++ built, taken in the thread. stats gets `yields` (turns given), `maxSendChars`
// (characters posted between two turns), `maxReadNodes` (nodes placed in one slice of the reader), `readSlices` and
// `sharedStrings` (short strings the reader gave back as one it had made already: typed-sliced-reader.js).
const fastStringify = require('@lab/js-serializers/fast-stringify');
const { nextTurn, throwIfAborted, runSlices, DEFAULT_YIELD_MS } = require('@lab/loop-kit/slices');
const { createTransferWorker } = require('./transfer-worker');
const { SlicedTypedReader } = require('./typed-sliced-reader');

const PIECE_CHARS = 1 << 16;
// Bounds in work units (what the tests check, as they cannot trust a clock). The reader's is above this machine's rate
// (15-30 thousand nodes a ms), so its clock ends a slice first here. The sender looks at no clock: its bound is all
// there is, the copies of at most yieldMs × 131 072 characters between turns (under a millisecond of them here),
// beside fast-stringify's own slices.
const SEND_CHARS_PER_MS = 1 << 17;
const READ_NODES_PER_MS = 1 << 16;
const maxSendChars = (yieldMs) => Math.max(PIECE_CHARS + 1, Math.floor(yieldMs * SEND_CHARS_PER_MS));
const maxReadNodes = (yieldMs) => Math.max(1024, Math.floor(yieldMs * READ_NODES_PER_MS));

let worker = null;
const theWorker = () => (worker === null ? (worker = createTransferWorker()) : worker);

/** `at`, or one more when the character before it is the first half of a surrogate pair. */
function pairSafeCut(text, at) {
  if (at <= 0 || at >= text.length) return at;
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at + 1 : at;
}

function newStats(stats) {
  const s = stats || {};
  for (const name of ['yields', 'maxSendChars', 'maxReadNodes', 'readSlices', 'sharedStrings']) if (typeof s[name] !== 'number') s[name] = 0;
  return s;
}

/** Posts value's JSON text to the job in pieces, giving the loop a turn at least every maxSendChars characters. */
async function sendText(job, value, { yieldMs, signal, stats }) {
  const bound = maxSendChars(yieldMs);
  let sent = 0;
  const textStats = {};
  let pieces = 0;
  for await (const chunk of fastStringify.chunks(value, { yieldMs, signal, stats: textStats })) {
    for (let at = 0; at < chunk.length;) {
      const end = pairSafeCut(chunk, Math.min(chunk.length, at + PIECE_CHARS));
      if (sent > 0 && sent + (end - at) > bound) {
        await nextTurn();
        stats.yields++;
        throwIfAborted(signal);
        sent = 0;
      }
      job.post(chunk.slice(at, end));
      pieces++;
      sent += end - at;
      stats.maxSendChars = Math.max(stats.maxSendChars, sent);
      at = end;
    }
  }
  stats.yields += textStats.yields || 0;
  if (pieces === 0) throw new Error(`worker: a ${typeof value} has no JSON form`);
}

/** The value of the layout the thread sent, read in slices. */
async function readValue(layout, { yieldMs, signal, stats }) {
  const reader = new SlicedTypedReader(layout);
  const most = maxReadNodes(yieldMs);
  const sliceStats = { yields: 0 };
  await runSlices((deadline) => {
    const before = reader.nodes;
    const done = reader.step(deadline, most);
    stats.maxReadNodes = Math.max(stats.maxReadNodes, reader.nodes - before);
    stats.readSlices++;
    return done;
  }, { yieldMs, signal, stats: sliceStats });
  stats.yields += sliceStats.yields;
  stats.sharedStrings += reader.sharedHits;
  return reader.value;
}

function settings(options = {}) {
  return { yieldMs: options.yieldMs || DEFAULT_YIELD_MS, signal: options.signal || null, stats: newStats(options.stats), hashTree: options.hashTree === true };
}

/** An op whose input is value's text: sends it, runs `job` in the thread; the job is given up if sending fails. */
async function withText(value, job, o) {
  const opened = theWorker().open();
  try {
    await sendText(opened, value, o);
  } catch (err) {
    opened.run({ job: 'abandon' }).catch(() => {});
    throw err;
  }
  return opened.run({ job, hashTree: o.hashTree });
}

/** The value back from a thread's answer with a layout. */
async function valueOf(result, o) {
  const value = await readValue(result, o);
  return { value, inBytes: result.inBytes, outBytes: result.outBytes, treeHash: result.treeHash };
}

module.exports = {
  /** The workload awaits these operations, with their own turns, where it calls the others' in a slice. */
  sliced: true,
  async roundTrip(value, options) {
    const o = settings(options);
    return valueOf(await withText(value, 'roundtrip', o), o);
  },
  async count(value, options) {
    const o = settings(options);
    const result = await withText(value, 'count', o);
    return { count: result.count, inBytes: result.inBytes, outBytes: 0, treeHash: result.treeHash };
  },
  async create(caseName, seed, options) {
    const o = settings(options);
    return valueOf(await theWorker().open().run({ job: 'create', caseName, seed, hashTree: o.hashTree }), o);
  },
  /** create on a user's document: a copy of the tree the thread keeps for it (loadDocument's). */
  async createDocument(tree, options) {
    const o = settings(options);
    return valueOf(await theWorker().open().run({ job: 'createDocument', tree, hashTree: o.hashTree }), o);
  },
  /** Keeps a user's document in the thread as a tree, from its MessagePack bytes (transferred); resolves its id there. */
  async loadDocument(bytes) {
    const copy = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
    return (await theWorker().open().run({ job: 'loadDocument', bytes: copy }, [copy])).tree;
  },
  /** Drops a tree loadDocument kept, and gives back what the thread's module holds for its runs. */
  async dropDocument(tree) {
    await theWorker().open().run({ job: 'dropDocument', tree });
  },
  /** Gives back the buffers and the last tree the thread's module holds after a run on a user's document. */
  async releaseMemory() {
    await theWorker().open().run({ job: 'releaseMemory' });
  },
  maxSendChars,
  maxReadNodes,
  PIECE_CHARS,
};
