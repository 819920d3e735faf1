// The functions JavaScript calls (lib/wasm-module.js wraps them). Each one that can fail returns 1 on success and 0
// on failure, with the reason in wr_last_error(); outputs are read through wr_output_data()/wr_output_size().
#include <emscripten/emscripten.h>
#include <emscripten/version.h>
#include <yyjson.h>

#include <cstdint>
#include <string>

#include "exchange_buffers.h"
#include "json_codec.h"
#include "mulberry32.h"
#include "payloads.h"

using namespace wasm_runner;

namespace {

int fail(std::string message) {
  set_error(std::move(message));
  return 0;
}

int write_json_output(const Value& value) {
  JsonBytes bytes;
  std::string error;
  if (!json_encode(value, bytes, error)) return fail(error);
  set_output(std::move(bytes));
  return 1;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* wr_reserve_input(size_t size) { return reserve_input(size); }

EMSCRIPTEN_KEEPALIVE const char* wr_output_data() { return output().data.get(); }

EMSCRIPTEN_KEEPALIVE size_t wr_output_size() { return output().size; }

EMSCRIPTEN_KEEPALIVE const char* wr_last_error() { return last_error().c_str(); }

// The versions /info reports, taken from the headers this module was compiled with.
EMSCRIPTEN_KEEPALIVE const char* wr_yyjson_version() { return YYJSON_VERSION_STRING; }

EMSCRIPTEN_KEEPALIVE const char* wr_emscripten_version() {
  static const std::string version = std::to_string(__EMSCRIPTEN_major__) + "." + std::to_string(__EMSCRIPTEN_minor__) +
                                     "." + std::to_string(__EMSCRIPTEN_tiny__);
  return version.c_str();
}

// Writes the first `count` outputs of mulberry32(seed) to `out`, for the tests against vectors.json's `prng`.
EMSCRIPTEN_KEEPALIVE void wr_mulberry32(uint32_t seed, uint32_t count, uint32_t* out) {
  Mulberry32 random(seed);
  for (uint32_t i = 0; i < count; ++i) out[i] = random.next();
}

// Generates a `records` or `objects` document and writes it as JSON into the output.
EMSCRIPTEN_KEEPALIVE int wr_generate_document_json(const char* document, uint32_t seed, uint32_t size) {
  Value value;
  if (!generate_document(document, seed, size, value)) return fail(std::string("unknown document ") + document);
  return write_json_output(value);
}

// Generates a transfer case and writes it as JSON into the output.
EMSCRIPTEN_KEEPALIVE int wr_generate_transfer_json(const char* name, uint32_t seed) {
  Value value;
  if (!generate_transfer_case(name, seed, value)) return fail(std::string("unknown transfer case ") + name);
  return write_json_output(value);
}

// The `json` approach's work inside WASM: the first `size` input bytes are parsed by yyjson, turned into the native
// Value tree, and that tree is written back as JSON into the output.
EMSCRIPTEN_KEEPALIVE int wr_json_round_trip(size_t size) {
  Value value;
  std::string error;
  if (!json_decode(input_data(), size, value, error)) return fail(error);
  return write_json_output(value);
}

}  // extern "C"
