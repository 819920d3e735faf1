'use strict';
// The inputs the approaches read, made in this one place from a list of string chunks (a document's, or an upload's
// decoded packets), and how an approach checks its run's signal.
//
// Every approach is a function `(source, {signal}) -> Promise<string[][]>` with a property `input` saying which of
// the two sources it reads:
// - SYNC_CHUNKS: a sync iterable of string chunks, read with blocking reads (async-char-streams' memory, sync,
//   sync-composed);
// - ASYNC_CHUNKS: an async iterable of string chunks that gives each chunk after a real turn of the event loop
//   (setImmediate), as a socket or a file stream does; a chunk never splits a surrogate pair.
const { nextTurn } = require('@lab/loop-kit/event-loop');
const { throwIfAborted } = require('@lab/loop-kit/slices');

const SYNC_CHUNKS = 'sync-chunks';
const ASYNC_CHUNKS = 'async-chunks';

function* syncChunks(chunks) {
  yield* chunks;
}

async function* asyncChunks(chunks) {
  for (const chunk of chunks) {
    await nextTurn();
    yield chunk;
  }
}

/** A fresh source of `chunks` in the shape `approach.input` asks for. */
function sourceFor(approach, chunks) {
  if (approach.input === SYNC_CHUNKS) return syncChunks(chunks);
  if (approach.input === ASYNC_CHUNKS) return asyncChunks(chunks);
  throw new TypeError(`unknown approach input ${approach.input}`);
}

/** Throws the signal's reason once it aborted (loop-kit's one abort rule). Approaches call it once per chunk. */
const checkSignal = throwIfAborted;

module.exports = { SYNC_CHUNKS, ASYNC_CHUNKS, sourceFor, checkSignal };
