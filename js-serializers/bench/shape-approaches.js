'use strict';
// The approaches bench/shapes-bench.js measures, by workload: native, each function of the lab's fast serializer and
// parser, and their peers among the libraries (pinned in bench/peers/package.json, `npm ci` there). Each is
//
//   {name, label, kind: 'native' | 'reference' | 'fast' | 'peer', flattens?, comparedWith?, load() -> run}
//   stringify: run(value, {yieldMs, stats}) -> Promise<string | string[]>   the text, or its chunks in order
//   parse:     run(text, {yieldMs, stats})  -> Promise<value>
// flattens: a stringify approach that returns one flat string, a step of its own (bench/v8-steps.js).
// comparedWith: the approach a fast function's ratio is taken against, when not native itself: a 'reference', native
// doing what that function does (pipeTo(): native's text written to the same sink and the sink ended).
//
// load() requires the approach's library only when called, so that a child process that measures one approach loads
// no other library. Every driver of a library gives the event loop a turn (setImmediate) once yieldMs has passed, as
// the services' adapters do: a stream or generator consumed without I/O only ever waits on promises and
// process.nextTick, which let no timer run, so without those turns a library would be measured as one long block,
// which is the harness's doing, not the library's. Node 14 syntax (the lint's rule for js-serializers/), although only
// Node 24 runs it.
const path = require('path');
const { once } = require('events');
const { createRequire } = require('module');
const { performance } = require('perf_hooks');
const fast = require('../fast-stringify');
const { parse } = require('../fast-parse');
const stringifyApproaches = require('../stringify-approaches');
const parseApproaches = require('../parse-approaches');
const { pieces } = require('../text-hash');
const { nextTurn } = require('@lab/loop-kit/event-loop');
const { keepingSink } = require('./keeping-sink');
const { flatten } = require('./v8-steps');

const PEERS_DIR = path.join(__dirname, 'peers');
const peerRequire = createRequire(path.join(PEERS_DIR, 'package.json'));
const PEERS = { jsonExt: '@discoveryjs/json-ext', jsonStreamStringify: 'json-stream-stringify', streamJson: 'stream-json' };
// The chunks a streaming library works in. Its turns can only come between two chunks, so the chunk bounds its
// slices: 16 Ki characters, Node's default highWaterMark and json-ext stringifyChunked's own chunk size (with 64 Ki,
// fast's chunk size, json-stream-stringify and stream-json went 10-15 ms between turns in quick runs here).
const PEER_CHUNK_CHARS = 1 << 14;

/**
 * Collects an async iterable of strings into an array (references: the join comes after the clock). A chunk is made
 * flat as it comes, as its consumer's first read would (writing it, hashing it): a library that hands over ropes
 * (strings made with +) must not leave its copy to after the clock. A flat chunk costs nothing here.
 */
async function collect(iterable) {
  const kept = [];
  for await (const chunk of iterable) kept.push(flatten(chunk));
  return kept;
}

/** The chunks of an async iterable, with a turn of the event loop whenever yieldMs has passed since the last one. */
async function* withTurns(iterable, yieldMs, stats) {
  stats.yields = 0;
  let sliceStart = performance.now();
  for await (const chunk of iterable) {
    yield chunk;
    if (performance.now() - sliceStart >= yieldMs) {
      await nextTurn();
      stats.yields++;
      sliceStart = performance.now();
    }
  }
}

const STRINGIFY = [
  { name: 'native', label: 'native JSON.stringify', kind: 'native', flattens: true, load: () => async (value) => JSON.stringify(value) },
  {
    name: 'native.write',
    label: 'native JSON.stringify, written',
    kind: 'reference',
    flattens: true,
    // pipeTo()'s like for like: against JSON.stringify alone, its ratio on a document done in one call also counted the
    // Writable's write and end, whatever fast did (up to a fifth of native's time on the families' documents of 30-100
    // us: 0.84-1.20x native in the run that brought this row).
    load: () => async (value) => {
      const { sink, kept } = keepingSink();
      sink.write(JSON.stringify(value));
      await new Promise((resolve, reject) => {
        sink.once('error', reject);
        sink.end(resolve);
      });
      return kept;
    },
  },
  {
    name: 'fast.stringify',
    label: 'fast stringify()',
    kind: 'fast',
    flattens: true,
    load: () => (value, { yieldMs, stats }) => fast.stringify(value, { yieldMs, stats }),
  },
  {
    name: 'fast.chunks',
    label: 'fast chunks()',
    kind: 'fast',
    load: () => (value, { yieldMs, stats }) => collect(fast.chunks(value, { yieldMs, stats })),
  },
  {
    name: 'fast.pipeTo',
    label: 'fast pipeTo()',
    kind: 'fast',
    comparedWith: 'native.write',
    load: () => async (value, { yieldMs, stats }) => {
      const { sink, kept } = keepingSink();
      await fast.pipeTo(value, sink, { yieldMs, stats, end: true });
      return kept;
    },
  },
  {
    name: 'json-ext',
    label: 'json-ext stringifyChunked',
    kind: 'peer',
    // The services' adapter: its sync generator of 16 KB chunks, with a turn whenever yieldMs has passed.
    load: () => {
      const approach = stringifyApproaches.jsonExt(peerRequire(PEERS.jsonExt));
      return (value, { yieldMs, stats }) => collect(approach(value, { yieldMs, stats }));
    },
  },
  {
    name: 'json-stream-stringify',
    label: 'json-stream-stringify',
    kind: 'peer',
    // A Readable of strings (its own encoding is utf8); bufferSize, the size of its pushes, is its documented speed
    // knob (default 512 characters: many more pushes), set to PEER_CHUNK_CHARS.
    load: () => {
      const { JsonStreamStringify } = peerRequire(PEERS.jsonStreamStringify);
      return (value, { yieldMs, stats }) =>
        collect(withTurns(new JsonStreamStringify(value, undefined, undefined, false, PEER_CHUNK_CHARS), yieldMs, stats));
    },
  },
];

/**
 * stream-json's documented way to build a whole value: its Parser piped into an Assembler, which hands over the value
 * through its onDone option. {packValues: true, streamValues: false} is the maintainer's advice for that case (wiki,
 * Performance: half the tokens when only whole values are used). Since stream-json 2 the package is ES modules
 * (loaded with require(), which Node 24 does for modules without top-level await), `parser` is a token generator and
 * `parserStream` the Node stream around it, and the Assembler is no longer an event emitter. The text is written in
 * PEER_CHUNK_CHARS pieces that never split a surrogate pair (the Parser's writable side encodes each string to UTF-8
 * on its own), waiting for 'drain' when write() says so, with a turn of the event loop whenever yieldMs has passed.
 */
function streamJsonParse() {
  const { parserStream } = peerRequire(PEERS.streamJson);
  const { Assembler } = peerRequire(`${PEERS.streamJson}/assembler.js`);
  return async function streamJson(text, { yieldMs, stats }) {
    stats.yields = 0;
    const tokens = parserStream({ packValues: true, streamValues: false });
    const assembled = new Promise((resolve, reject) => {
      Assembler.connectTo(tokens, { onDone: (assembler) => resolve(assembler.current) });
      tokens.on('error', reject);
    });
    const feed = async () => {
      let sliceStart = performance.now();
      for (const piece of pieces(text, PEER_CHUNK_CHARS)) {
        if (!tokens.write(piece)) await once(tokens, 'drain');
        if (performance.now() - sliceStart >= yieldMs) {
          await nextTurn();
          stats.yields++;
          sliceStart = performance.now();
        }
      }
      tokens.end();
    };
    const [value] = await Promise.all([assembled, feed()]);
    return value;
  };
}

const PARSE = [
  { name: 'native', label: 'native JSON.parse', kind: 'native', load: () => async (text) => JSON.parse(text) },
  { name: 'fast.parse', label: 'fast parse()', kind: 'fast', load: () => (text, { yieldMs, stats }) => parse(text, { yieldMs, stats }) },
  {
    name: 'json-ext',
    label: 'json-ext parseChunked',
    kind: 'peer',
    // The services' adapter: the text in 64 Ki-character slices from an async generator that gives turns.
    load: () => parseApproaches.jsonExt(peerRequire(PEERS.jsonExt)),
  },
  { name: 'stream-json', label: 'stream-json Parser + Assembler', kind: 'peer', load: streamJsonParse },
];

const APPROACHES = { stringify: STRINGIFY, parse: PARSE };

/** The approach `name` of `workload`; throws naming the ones there are. */
function approachOf(workload, name) {
  const list = APPROACHES[workload];
  if (!list) throw new Error(`no workload "${workload}": stringify or parse`);
  const approach = list.find((a) => a.name === name);
  if (!approach) throw new Error(`no ${workload} approach "${name}": ${list.map((a) => a.name).join(', ')}`);
  return approach;
}

/** Throws, saying how to install them, unless every peer library resolves from bench/peers. */
function checkPeersInstalled() {
  const missing = Object.values(PEERS).filter((name) => {
    try {
      peerRequire.resolve(name);
      return false;
    } catch (error) {
      return true;
    }
  });
  if (missing.length > 0) {
    const dir = path.relative(process.cwd(), PEERS_DIR) || '.';
    throw new Error(`${missing.join(', ')} not installed: run \`npm ci\` in ${dir} with Node 24's npm`);
  }
}

module.exports = { APPROACHES, approachOf, checkPeersInstalled, collect, peerRequire, PEERS };
