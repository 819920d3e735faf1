'use strict';
// Loads the Emscripten module that `make setup` builds into build/wasm, and wraps its exports (src/exports.cpp).
// Emscripten 3.1.6 on Node 18+ would try fetch() on the .wasm path, so the bytes are read here and handed over as
// `wasmBinary`; with MODULARIZE the .js file exports a factory that resolves to the instantiated module.
const fs = require('fs');
const path = require('path');

const BUILD_DIR = path.join(__dirname, '..', 'build', 'wasm');
const MODULE_NAME = 'wasm_runner';

class WasmModule {
  constructor(module) {
    this.module = module;
    this.yyjsonVersion = module.UTF8ToString(module._wr_yyjson_version());
    this.emscriptenVersion = module.UTF8ToString(module._wr_emscripten_version());
    /** The nesting limit every C++ reader enforces (src/value_limits.h). */
    this.maxDepth = module._wr_max_depth();
    /** The most the linear memory may grow to (CMakeLists.txt's WASM_MAXIMUM_MEMORY). */
    this.maximumMemory = module._wr_maximum_memory();
    /** Its size at start: the static data, the stack and the first of the heap. */
    this.initialMemory = module.HEAPU8.length;
    const takingNameAndSeed = (name) => module.cwrap(name, 'number', ['string', 'number']);
    // The approaches' operations (lib/transfer/*-approach.js call them): roundTrip and count take the size of the
    // input written with reserveInput, create a case name and seed; embind's take and return JS values.
    this.exports = {
      reserveInput: module._wr_reserve_input,
      outputData: module._wr_output_data,
      outputSize: module._wr_output_size,
      lastError: module._wr_last_error,
      mulberry32: module._wr_mulberry32,
      generateDocumentJson: module.cwrap('wr_generate_document_json', 'number', ['string', 'number', 'number']),
      generateTransferJson: takingNameAndSeed('wr_generate_transfer_json'),
      jsonRoundTrip: module._wr_json_round_trip,
      jsonCount: module._wr_json_count,
      jsonCreate: takingNameAndSeed('wr_json_create'),
      msgpackRoundTrip: module._wr_msgpack_round_trip,
      msgpackCount: module._wr_msgpack_count,
      msgpackCreate: takingNameAndSeed('wr_msgpack_create'),
      typedRoundTrip: module._wr_typed_round_trip,
      typedCount: module._wr_typed_count,
      typedCreate: takingNameAndSeed('wr_typed_create'),
      jsonTypedRoundTrip: module._wr_json_typed_round_trip,
      embindRoundTrip: module.embindRoundTrip,
      embindCount: module.embindCount,
      embindCreate: module.embindCreate,
      jsonCreateDocument: module._wr_json_create_document,
      msgpackCreateDocument: module._wr_msgpack_create_document,
      typedCreateDocument: module._wr_typed_create_document,
      embindCreateDocument: module.embindCreateDocument,
      documentLoad: module._wr_document_load,
      documentBegin: module._wr_document_begin,
      documentBuffer: module._wr_document_buffer,
      documentContinue: module._wr_document_continue,
      documentMsgpack: module._wr_document_msgpack,
      documentDrop: module._wr_document_drop,
      documentTreeHash: module._wr_document_tree_hash,
      treeHash: module._wr_tree_hash,
      referenceTreeHash: takingNameAndSeed('wr_reference_tree_hash'),
    };
  }

  /** The current view of WASM memory: memory growth replaces the buffer, so never keep one across calls. */
  heap() {
    return this.module.HEAPU8;
  }

  /** The same memory as int32 words (the typed approach's tape); the same caveat as heap(). */
  heapWords() {
    return this.module.HEAP32;
  }

  /**
   * The same memory as a Buffer, for its UTF-8 write() and toString(), which cost less per call than TextEncoder's
   * encodeInto and TextDecoder's decode. Made again only when memory growth replaced the buffer.
   */
  heapBuffer() {
    const memory = this.module.HEAPU8.buffer;
    if (this.memoryBuffer === undefined || this.memoryBuffer.buffer !== memory) this.memoryBuffer = Buffer.from(memory);
    return this.memoryBuffer;
  }

  /** The size of WASM memory in bytes. */
  heapBytes() {
    return this.module.HEAPU8.length;
  }

  /** Bytes malloc holds now. */
  memoryInUse() {
    return this.module._wr_memory_in_use() >>> 0;
  }

  /** The most bytes malloc ever took from the linear memory in this instance: the peak of what ran in it. */
  memoryPeak() {
    return this.module._wr_memory_peak() >>> 0;
  }

  /**
   * Gives back the buffers the approaches reuse between calls (the input, the outputs, the last tree): after a run on
   * a large document, or a failed call, the module holds no more than before it (src/exchange_buffers.h).
   */
  releaseMemory() {
    this.module._wr_release_memory();
  }

  /** Throws the module's last error, prefixed with what failed. */
  fail(what) {
    throw new Error(`${what}: ${this.module.UTF8ToString(this.exports.lastError())}`);
  }

  /** Throws the module's last error unless `status` is the exports' 1 for success. */
  check(status, what) {
    if (status !== 1) this.fail(what);
  }

  /** A node count returned by a count export; 0 means it failed (every tree has at least one node). */
  checkCount(count, what) {
    if (count === 0) this.fail(what);
    return count >>> 0;
  }

  /** Copies `bytes` into the module's input buffer; returns how many were written. */
  writeInput(bytes) {
    const start = this.exports.reserveInput(bytes.length);
    // reserveInput may grow memory: take the heap view only after it.
    this.heap().set(bytes, start);
    return bytes.length;
  }

  /** A view of the output bytes of the last successful call; valid until the next call into the module. */
  outputView() {
    const data = this.exports.outputData();
    return this.heap().subarray(data, data + this.exports.outputSize());
  }

  /** A copy of the last output, safe to keep. */
  outputCopy() {
    return Buffer.from(this.outputView());
  }

  /**
   * The sha256 (hex) of the tree the last approach operation built, computed in WASM over a canonical walk
   * (src/tree_walk.h): the same for every approach. Throws if the last operation failed.
   */
  treeHash() {
    const hex = this.exports.treeHash();
    if (hex === 0) throw new Error('no tree to hash: the last operation failed or built none');
    return this.module.UTF8ToString(hex);
  }

  /** treeHash() of the tree the C++ generator builds for a transfer case. */
  referenceTreeHash(caseName, seed) {
    const hex = this.exports.referenceTreeHash(caseName, seed);
    if (hex === 0) this.fail(`reference tree hash of ${caseName}`);
    return this.module.UTF8ToString(hex);
  }

  /**
   * Reads a JSON text (a string) into a tree C++ keeps for `create` on a user's document (src/documents.h); returns its
   * id, to hand to the approaches' createDocument and to dropDocument when the run ends. Throws yyjson's refusal.
   */
  loadDocument(text) {
    const written = this.writeInput(Buffer.from(text, 'utf8'));
    const id = this.exports.documentLoad(written) >>> 0;
    if (id === 0) this.fail('the document as C++ reads it');
    return id;
  }

  /**
   * Starts a kept tree read step by step from MessagePack (src/documents.h): {id, write(bytes, offset)} where write
   * copies a piece of the `size` bytes in; then continueDocument(id, ...) until it says done. Throws when memory is short.
   */
  beginDocument(size) {
    const id = this.exports.documentBegin(size) >>> 0;
    if (id === 0) this.fail('the document as C++ keeps it');
    const write = (bytes, offset) => {
      // Memory may have grown since the last piece: ask for the address and the view again.
      this.heap().set(bytes, (this.exports.documentBuffer(id) >>> 0) + offset);
    };
    return { id, write };
  }

  /** Reads at most maxValues values and about maxBytes bytes more of a tree begun with beginDocument; true once kept. */
  continueDocument(id, maxValues, maxBytes) {
    const status = this.exports.documentContinue(id, maxValues, maxBytes);
    if (status === 0) this.fail('the document as C++ keeps it');
    return status === 2;
  }

  /** A kept tree as MessagePack bytes: a copy in an ArrayBuffer of its own (transferable to another thread). */
  documentMsgpack(id) {
    this.check(this.exports.documentMsgpack(id), `document tree ${id} as MessagePack`);
    return new Uint8Array(this.outputView());
  }

  dropDocument(id) {
    this.exports.documentDrop(id);
  }

  /** treeHash() of a loaded document's tree. */
  documentTreeHash(id) {
    const hex = this.exports.documentTreeHash(id);
    if (hex === 0) this.fail(`document tree ${id}`);
    return this.module.UTF8ToString(hex);
  }

  /** The first `count` outputs of the spec's mulberry32 for `seed`, computed in C++. */
  mulberry32(seed, count) {
    const out = this.module._malloc(count * 4);
    try {
      this.exports.mulberry32(seed, count, out);
      return Array.from(this.module.HEAPU32.subarray(out / 4, out / 4 + count));
    } finally {
      this.module._free(out);
    }
  }

  /** The JSON bytes of a spec document as C++ generates and yyjson writes them. spec: as payloads/js generate(). */
  generateJson(spec) {
    if (spec.document === 'transfer') {
      this.check(this.exports.generateTransferJson(spec.case, spec.seed), `generate ${spec.case}`);
    } else {
      this.check(this.exports.generateDocumentJson(spec.document, spec.seed, spec.size), `generate ${spec.document}`);
    }
    return this.outputCopy();
  }
}

/** A new instance of the module, with memory of its own: a worker's, or a measurement's (bench/memory-model.js). */
function createWasmModule() {
  if (!fs.existsSync(path.join(BUILD_DIR, `${MODULE_NAME}.wasm`))) {
    throw new Error(`no WASM module in ${BUILD_DIR}: run \`make setup\` first`);
  }
  const createModule = require(path.join(BUILD_DIR, `${MODULE_NAME}.js`));
  const wasmBinary = fs.readFileSync(path.join(BUILD_DIR, `${MODULE_NAME}.wasm`));
  return createModule({ wasmBinary }).then((module) => new WasmModule(module));
}

let loaded = null;

/** The module, instantiated once per process (per thread: a worker has its own). */
function loadWasmModule() {
  if (!loaded) loaded = createWasmModule();
  return loaded;
}

module.exports = { loadWasmModule, createWasmModule };
