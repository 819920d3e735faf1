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
    this.exports = {
      reserveInput: module._wr_reserve_input,
      outputData: module._wr_output_data,
      outputSize: module._wr_output_size,
      lastError: module._wr_last_error,
      mulberry32: module._wr_mulberry32,
      jsonRoundTrip: module._wr_json_round_trip,
      generateDocumentJson: module.cwrap('wr_generate_document_json', 'number', ['string', 'number', 'number']),
      generateTransferJson: module.cwrap('wr_generate_transfer_json', 'number', ['string', 'number']),
    };
  }

  /** The current view of WASM memory: memory growth replaces the buffer, so never keep one across calls. */
  heap() {
    return this.module.HEAPU8;
  }

  /** Throws the module's last error unless `status` is the exports' 1 for success. */
  check(status, what) {
    if (status !== 1) throw new Error(`${what}: ${this.module.UTF8ToString(this.exports.lastError())}`);
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

let loaded = null;

/** The module, instantiated once per process. */
function loadWasmModule() {
  if (!loaded) {
    if (!fs.existsSync(path.join(BUILD_DIR, `${MODULE_NAME}.wasm`))) {
      throw new Error(`no WASM module in ${BUILD_DIR}: run \`make setup\` first`);
    }
    const createModule = require(path.join(BUILD_DIR, `${MODULE_NAME}.js`));
    const wasmBinary = fs.readFileSync(path.join(BUILD_DIR, `${MODULE_NAME}.wasm`));
    loaded = createModule({ wasmBinary }).then((module) => new WasmModule(module));
  }
  return loaded;
}

module.exports = { loadWasmModule };
